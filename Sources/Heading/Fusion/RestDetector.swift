import IMU
import Angles

/// Tells when the board is at rest, from the raw gyroscope and accelerometer: both low-pass filtered
/// (time constant `restFilterSeconds`), the board is still while every sample stays close to its
/// filtered value (no vibration, no tap), the filtered rate minus the bias estimate is small (no slow
/// turn) — with a margin of three standard deviations of the bias estimate, so a large unknown offset
/// does not hide rest forever — and that lasted `restMinimumSeconds`.
public struct RestDetector: Sendable, Equatable {
    /// Low-passed raw rate (rad/s) and specific force (m/s²), sensor frame.
    public private(set) var filteredGyro = Vector3.zero, filteredAccel = Vector3.zero
    /// How long the rest conditions have held, seconds.
    public private(set) var stillSeconds = 0.0
    private var primed = false
    private var coefficient = LowPassCoefficient()

    public init() {}

    /// True once the conditions have held for the minimum time.
    public func isResting(_ c: AHRSConfiguration) -> Bool { stillSeconds >= c.restMinimumSeconds }

    /// Feeds one raw sample; `bias` and `biasSigma` (rad/s) are the current bias estimate and its
    /// standard deviation. Returns `isResting`.
    @inline(__always)
    public mutating func update(gyro: Vector3, accel: Vector3, bias: Vector3, biasSigma: Double, dt: Double,
                                configuration c: AHRSConfiguration) -> Bool {
        if !primed {
            filteredGyro = gyro
            filteredAccel = accel
            primed = true
        }
        let k = coefficient.value(dt: dt, tau: c.restFilterSeconds)
        filteredGyro += (gyro - filteredGyro) * k
        filteredAccel += (accel - filteredAccel) * k
        let gyroThreshold = c.restGyroThresholdDegreesPerSecond * Angle.radiansPerDegree
        let rateThreshold = gyroThreshold + 3 * biasSigma
        let accelThreshold = c.restAccelThresholdMetersPerSecondSquared
        let still = (gyro - filteredGyro).lengthSquared <= gyroThreshold * gyroThreshold
            && (filteredGyro - bias).lengthSquared <= rateThreshold * rateThreshold
            && (accel - filteredAccel).lengthSquared <= accelThreshold * accelThreshold
        stillSeconds = still ? stillSeconds + dt : 0
        return stillSeconds >= c.restMinimumSeconds
    }

    /// Forgets the filtered values (a gap in the data).
    public mutating func reset() {
        primed = false
        stillSeconds = 0
    }
}
