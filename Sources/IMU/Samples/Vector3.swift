#if canImport(Glibc)
import Glibc
#endif

/// A 3-vector of doubles in a right-handed frame. The unit is carried by the name of the property
/// that holds it (`gyroRadiansPerSecond`, `magneticFieldMicrotesla`, …).
public struct Vector3: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var z: Double

    @inline(__always)
    public init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = Vector3(0, 0, 0)
}

// Vector arithmetic used by the AHRS filter, the calibration fit and the synthetic test generator.
// Everything here is allocation-free and inlinable into the hot path.
extension Vector3 {
    @inline(__always)
    public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }

    @inline(__always)
    public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }

    @inline(__always)
    public static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }

    @inline(__always)
    public static func * (s: Double, a: Vector3) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }

    @inline(__always)
    public static prefix func - (a: Vector3) -> Vector3 { Vector3(-a.x, -a.y, -a.z) }

    @inline(__always)
    public static func += (a: inout Vector3, b: Vector3) { a = a + b }

    @inline(__always)
    public static func -= (a: inout Vector3, b: Vector3) { a = a - b }

    /// Dot product.
    @inline(__always)
    public func dot(_ b: Vector3) -> Double { x * b.x + y * b.y + z * b.z }

    /// Cross product `self × b` (right-handed).
    @inline(__always)
    public func cross(_ b: Vector3) -> Vector3 {
        Vector3(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x)
    }

    /// Squared Euclidean length.
    @inline(__always)
    public var lengthSquared: Double { x * x + y * y + z * z }

    /// Euclidean length.
    @inline(__always)
    public var length: Double { lengthSquared.squareRoot() }

    /// The unit vector in the same direction, or zero when the length is zero or not finite.
    @inline(__always)
    public var normalized: Vector3 {
        let n = length
        return n > 0 && n.isFinite ? self * (1 / n) : .zero
    }

    /// True when all three components are finite.
    @inline(__always)
    public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

    /// The largest absolute component.
    @inline(__always)
    public var maximumMagnitude: Double { Swift.max(Swift.abs(x), Swift.abs(y), Swift.abs(z)) }
}
