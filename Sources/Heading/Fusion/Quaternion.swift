import IMU
import Angles
#if canImport(Glibc)
import Glibc
#endif

/// A rotation as a unit quaternion (w, x, y, z), Hamilton convention.
///
/// In puckd a `Quaternion` named an orientation rotates **sensor-frame vectors into the earth frame**
/// (`v_earth = q ⊗ v_sensor ⊗ q*`). The earth frame is ENU: x east, y (magnetic or true) north, z up,
/// the frame of the BROAD reference data. The board frame is x forward, y left, z up.
public struct Quaternion: Sendable, Equatable {
    public var w: Double
    public var x: Double
    public var y: Double
    public var z: Double

    @inline(__always)
    public init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w
        self.x = x
        self.y = y
        self.z = z
    }

    /// No rotation.
    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// Hamilton product `a ⊗ b` (apply b, then a).
    @inline(__always)
    public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                   x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                   y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    /// The inverse rotation (for a unit quaternion).
    @inline(__always)
    public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }

    /// Squared norm.
    @inline(__always)
    public var normSquared: Double { w * w + x * x + y * y + z * z }

    /// The unit quaternion in the same direction (identity when the norm is zero or not finite).
    @inline(__always)
    public var normalized: Quaternion {
        let n = normSquared.squareRoot()
        guard n > 0, n.isFinite else { return .identity }
        let k = 1 / n
        return Quaternion(w: w * k, x: x * k, y: y * k, z: z * k)
    }

    /// Renormalised after a rotation update (norm within 1e-6 of 1): one Newton step for 1/√(n²),
    /// exact to rounding there and free of square roots and divisions; falls back to `normalized`.
    @inline(__always)
    public var renormalized: Quaternion {
        let n2 = normSquared
        guard abs(n2 - 1) < 1e-6 else { return normalized }
        let k = (3 - n2) * 0.5
        return Quaternion(w: w * k, x: x * k, y: y * k, z: z * k)
    }

    /// The same rotation with w ≥ 0 (q and −q are the same rotation).
    @inline(__always)
    public var canonical: Quaternion { w < 0 ? Quaternion(w: -w, x: -x, y: -y, z: -z) : self }

    /// The rotation by angle |v| (radians) about the axis v / |v|: the exponential map. Exact to
    /// rounding: a Taylor series below 0.05 rad (where it is exact in double precision), trigonometry above.
    @inline(__always)
    public static func rotationVector(_ v: Vector3) -> Quaternion {
        let t2 = v.lengthSquared            // θ²
        let c: Double, s: Double            // cos(θ/2), sin(θ/2)/θ
        if t2 < 0.0025 {
            // Horner form with reciprocal constants (multiplications only).
            c = 1 + t2 * (-1.0 / 8 + t2 * (1.0 / 384 - t2 * (1.0 / 46_080)))
            s = 0.5 + t2 * (-1.0 / 48 + t2 * (1.0 / 3840 - t2 * (1.0 / 645_120)))
        } else {
            let t = t2.squareRoot()
            c = cos(t / 2)
            s = sin(t / 2) / t
        }
        return Quaternion(w: c, x: v.x * s, y: v.y * s, z: v.z * s)
    }

    /// The rotation vector (axis × angle in radians, angle in 0...π) of this rotation: the logarithm map.
    public var rotationVector: Vector3 {
        let q = canonical
        let s = (q.x * q.x + q.y * q.y + q.z * q.z).squareRoot()
        if s < 1e-12 { return Vector3(2 * q.x, 2 * q.y, 2 * q.z) }
        let angle = 2 * atan2(s, q.w)
        return Vector3(q.x, q.y, q.z) * (angle / s)
    }

    /// `v` rotated by this quaternion (sensor → earth for an orientation).
    @inline(__always)
    public func rotate(_ v: Vector3) -> Vector3 {
        let m = matrix
        return Vector3(m.0 * v.x + m.1 * v.y + m.2 * v.z,
                       m.3 * v.x + m.4 * v.y + m.5 * v.z,
                       m.6 * v.x + m.7 * v.y + m.8 * v.z)
    }

    /// `v` rotated by the inverse of this quaternion (earth → sensor for an orientation).
    @inline(__always)
    public func inverseRotate(_ v: Vector3) -> Vector3 {
        let m = matrix
        return Vector3(m.0 * v.x + m.3 * v.y + m.6 * v.z,
                       m.1 * v.x + m.4 * v.y + m.7 * v.z,
                       m.2 * v.x + m.5 * v.y + m.8 * v.z)
    }

    /// The rotation matrix, row-major (r00, r01, r02, r10, …, r22), of a unit quaternion.
    @inline(__always)
    public var matrix: (Double, Double, Double, Double, Double, Double, Double, Double, Double) {
        let xx = x * x, yy = y * y, zz = z * z
        let xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z
        return (1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy),
                2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx),
                2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy))
    }

    /// The unit quaternion of a rotation matrix given row by row (Shepperd's method: numerically
    /// stable for every rotation). Rows need not be exactly orthonormal; the result is normalised.
    public init(rotationMatrixRows r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
        let trace = r0.x + r1.y + r2.z
        var q: Quaternion
        if trace > 0 {
            let s = 2 * (1 + trace).squareRoot()
            q = Quaternion(w: s / 4, x: (r2.y - r1.z) / s, y: (r0.z - r2.x) / s, z: (r1.x - r0.y) / s)
        } else if r0.x > r1.y && r0.x > r2.z {
            let s = 2 * (1 + r0.x - r1.y - r2.z).squareRoot()
            q = Quaternion(w: (r2.y - r1.z) / s, x: s / 4, y: (r0.y + r1.x) / s, z: (r0.z + r2.x) / s)
        } else if r1.y > r2.z {
            let s = 2 * (1 + r1.y - r0.x - r2.z).squareRoot()
            q = Quaternion(w: (r0.z - r2.x) / s, x: (r0.y + r1.x) / s, y: s / 4, z: (r1.z + r2.y) / s)
        } else {
            let s = 2 * (1 + r2.z - r0.x - r1.y).squareRoot()
            q = Quaternion(w: (r1.x - r0.y) / s, x: (r0.z + r2.x) / s, y: (r1.z + r2.y) / s, z: s / 4)
        }
        q = q.normalized.canonical
        self = q
    }

    /// The rotation about the earth's vertical (z) axis by `radians`, counter-clockwise seen from above.
    @inline(__always)
    public static func aboutVertical(radians: Double) -> Quaternion {
        Quaternion(w: cos(radians / 2), x: 0, y: 0, z: sin(radians / 2))
    }

    /// Angle of the rotation, degrees, 0...180.
    public var angleDegrees: Double {
        let q = canonical
        let s = (q.x * q.x + q.y * q.y + q.z * q.z).squareRoot()
        return 2 * atan2(s, q.w) * Angle.degreesPerRadian
    }
}

/// Attitude angles of an orientation quaternion (sensor → ENU earth) for a board whose x axis points
/// forward, y left and z up. Aviation sign conventions: pitch positive nose up, roll positive right
/// side down; heading is the compass bearing of the forward axis, clockwise from north.
extension Quaternion {
    /// Compass bearing of the board's forward (x) axis projected on the horizontal plane, degrees
    /// clockwise from the earth frame's north, 0 ..< 360. Equal to 90° − the ENU ZYX yaw.
    @inline(__always)
    public var headingDegrees: Double {
        let east = 1 - 2 * (y * y + z * z)      // r00: east component of the forward axis
        let north = 2 * (x * y + w * z)         // r10: north component of the forward axis
        let degrees = atan2(east, north) * Angle.degreesPerRadian     // −180...180
        return degrees < 0 ? (degrees + 360 < 360 ? degrees + 360 : 0) : degrees
    }

    /// Pitch, degrees, −90...90, positive when the forward axis points above the horizon.
    public var pitchDegrees: Double {
        let r20 = 2 * (x * z - w * y)
        return asin(Swift.min(1, Swift.max(-1, r20))) * Angle.degreesPerRadian
    }

    /// Roll, degrees, −180...180, positive when the right side is down (rotation about the forward axis).
    public var rollDegrees: Double {
        let r21 = 2 * (y * z + w * x)
        let r22 = 1 - 2 * (x * x + y * y)
        return atan2(r21, r22) * Angle.degreesPerRadian
    }
}
