import Angles
#if canImport(Glibc)
import Glibc
#endif

/// The BROAD benchmark's orientation error metric (Laidig et al., "BROAD—A Benchmark for Robust
/// Inertial Orientation Estimation", Data 6(7):72, 2021): with e = q_est ⊗ q_ref⁻¹ (error in the earth
/// frame), heading error = 2·atan(|e_z / e_w|) (rotation about the vertical) and inclination error =
/// 2·acos(√(e_w² + e_z²)). Degrees.
public enum OrientationError {
    /// Heading and inclination errors of `estimate` against `reference`, degrees.
    public static func headingAndInclination(estimate: Quaternion, reference: Quaternion)
        -> (headingDegrees: Double, inclinationDegrees: Double) {
        let e = (estimate.normalized * reference.normalized.conjugate).normalized
        let heading = 2 * atan(abs(e.z / e.w)) * Angle.degreesPerRadian
        let inclination = 2 * acos(min(1, (e.w * e.w + e.z * e.z).squareRoot())) * Angle.degreesPerRadian
        return (heading, inclination)
    }
}

/// RMS, 95th percentile and maximum of a series of non-negative errors (degrees). Keeps every value
/// (for the percentile): for tests and benchmarks, not the device loop.
public struct ErrorStatistics: Sendable {
    private var values: [Double] = []
    private var sumSquares = 0.0

    public init() {}

    /// Adds one error.
    public mutating func add(_ value: Double) {
        values.append(value)
        sumSquares += value * value
    }

    /// Number of values.
    public var count: Int { values.count }
    /// Root mean square (0 when empty).
    public var rms: Double { values.isEmpty ? 0 : (sumSquares / Double(values.count)).squareRoot() }
    /// Largest value.
    public var maximum: Double { values.max() ?? 0 }

    /// The p-th percentile (0...100), linear interpolation between order statistics (numpy's default).
    public func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let position = p / 100 * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down)), upper = min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }
}
