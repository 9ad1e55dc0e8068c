import Angles
import IMU
import Heading

/// `calibrate gyro`: measures the gyroscope's bias (its reading at rest, rad/s) while the board is kept
/// still. Samples are averaged over `requiredSeconds` of stillness; a sample that turns faster than
/// `motionThresholdRadiansPerSecond` away from the average so far, or an accelerometer that does not
/// read gravity alone (±`gravityToleranceMetersPerSecondSquared`), restarts the stillness clock. Gives
/// up at the deadline saying why. Pure and allocation-free: samples and their times in, an outcome out.
///
/// (The heading filter also learns the bias by itself during stationary periods — `GyroBiasEstimator`;
/// this run is the explicit, faster measurement, and its result seeds that estimator.)
public struct GyroscopeCalibration: Sendable {
    /// What a sample completed.
    public enum Outcome: Sendable, Equatable {
        case collecting
        /// The bias, rad/s (board frame), and the still time it was averaged over, seconds.
        case measured(Vector3, stillSeconds: Double)
        /// The deadline passed before the board stayed still long enough; the longest still time, s.
        case timedOut(longestStillSeconds: Double)
    }

    /// Still time needed, seconds.
    public var requiredSeconds = 5.0
    /// Rotation rate away from the running mean that counts as motion, rad/s (2 °/s).
    public var motionThresholdRadiansPerSecond = 2.0 * Angle.radiansPerDegree
    /// How far the accelerometer's magnitude may be from 1 g at rest, m/s².
    public var gravityToleranceMetersPerSecondSquared = 0.6

    public private(set) var isRunning = false
    public private(set) var startedAtNanoseconds: Int64 = 0
    public private(set) var deadlineNanoseconds: Int64 = 0
    /// Start of the current still period (monotonic ns), and its samples.
    private var stillSinceNanoseconds: Int64 = 0
    private var sum = Vector3.zero
    private var count = 0
    /// Motion restarts so far and the longest still period, seconds.
    public private(set) var restarts = 0
    public private(set) var longestStillSeconds = 0.0

    public init() {}

    /// Still time so far, seconds, at `now`.
    public func stillSeconds(atNanoseconds now: Int64) -> Double {
        isRunning && count > 0 ? Double(now - stillSinceNanoseconds) / 1e9 : 0
    }

    /// Starts a measurement at `now` that gives up after `timeoutNanoseconds`.
    public mutating func start(nowNanoseconds now: Int64, timeoutNanoseconds: Int64) {
        isRunning = true
        startedAtNanoseconds = now
        deadlineNanoseconds = now + timeoutNanoseconds
        restarts = 0
        longestStillSeconds = 0
        restartStillness(at: now)
    }

    /// Stops without a result.
    public mutating func cancel() { isRunning = false }

    /// Offers one sample (raw gyro, rad/s; specific force, m/s²) taken at `now`.
    public mutating func add(gyro: Vector3, acceleration: Vector3, nowNanoseconds now: Int64) -> Outcome {
        guard isRunning else { return .collecting }
        let g = acceleration.length
        let still = abs(g - 9.80665) <= gravityToleranceMetersPerSecondSquared
            && (count == 0 || (gyro - sum * (1 / Double(count))).maximumMagnitude <= motionThresholdRadiansPerSecond)
        if !still {
            longestStillSeconds = max(longestStillSeconds, stillSeconds(atNanoseconds: now))
            restarts += 1
            restartStillness(at: now)
        } else {
            if count == 0 { stillSinceNanoseconds = now }
            sum += gyro
            count += 1
            let seconds = Double(now - stillSinceNanoseconds) / 1e9
            if seconds >= requiredSeconds && count >= 10 {
                isRunning = false
                return .measured(sum * (1 / Double(count)), stillSeconds: seconds)
            }
        }
        if now >= deadlineNanoseconds {
            isRunning = false
            return .timedOut(longestStillSeconds: max(longestStillSeconds, stillSeconds(atNanoseconds: now)))
        }
        return .collecting
    }

    private mutating func restartStillness(at now: Int64) {
        stillSinceNanoseconds = now
        sum = .zero
        count = 0
    }
}
