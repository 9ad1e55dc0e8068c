import IMU
import Angles

/// The gyroscope offset, estimated by a Kalman filter (state: the offset, sensor frame; covariance
/// 3×3): the offset is a random walk (`gyroBiasRandomWalkDegreesPerSecondPerRootSecond`);
/// - at rest (`RestDetector`) a window of T seconds measures it as the mean raw rate over the window,
///   with the variance N²/T of white noise of density N (`gyroNoiseDensityDegreesPerSecondPerRootHertz`):
///   the estimate is the (forgetting) mean of all rest seen;
/// - in motion the tilt corrections measure its horizontal projection (`MotionBiasObservation`), with
///   a standard deviation of `gyroBiasMotionSigmaDegreesPerSecond` per 0.1 s interval.
/// Its variance says how good it is, and the step size of the filter does not matter.
///
/// Slow turns are not rest: the low-passed accelerometer direction (tilt) and horizontal field
/// direction (heading) must not turn by more than `gyroBiasMaximumTurnDegrees` during a rest period,
/// and windows are committed only after the next full window passed at rest, so the first seconds of
/// a slow turn (1–3 °/s, a vehicle in a long curve), before the turn is visible, are never learned.
public struct GyroBiasEstimator: Sendable, Equatable {
    /// Current offset estimate, radians per second (subtracted from every sample).
    public private(set) var biasRadiansPerSecond: Vector3
    /// Covariance of the estimate, (rad/s)².
    public private(set) var covariance: SymmetricMatrix3
    /// The rest detector.
    public private(set) var rest = RestDetector()
    /// Low-passed accelerometer and magnetometer directions, and their values when the rest period
    /// began (unit vectors; zero when unknown).
    private var smoothedAccel = Vector3.zero, smoothedField = Vector3.zero
    private var restAccel = Vector3.zero, restField = Vector3.zero
    private var smoothing = LowPassCoefficient()
    /// Time constant of the direction low-pass, seconds.
    private static let smoothingSeconds = 0.5
    /// Windows of rest waiting to be committed: raw rate integrated over the window (rad) and its length.
    private var olderSum = Vector3.zero, currentSum = Vector3.zero
    private var olderSeconds = 0.0, currentSeconds = 0.0
    /// The rest period being watched began (directions recorded).
    private var watching = false

    /// Length of a commit window, seconds.
    public static let commitWindowSeconds = 2.0
    /// Standard deviation of an estimate that was never measured, rad/s (a MEMS gyro's offset).
    public static let initialSigmaRadiansPerSecond = 1.0 * Angle.radiansPerDegree
    /// Standard deviation of a stored estimate (a gyroscope calibration), rad/s.
    public static let storedSigmaRadiansPerSecond = 0.03 * Angle.radiansPerDegree

    /// An estimator starting from `initialBias` (e.g. a stored calibration); `trusted` says whether
    /// that starting value is already a real estimate.
    public init(initialBias: Vector3 = .zero, trusted: Bool = false) {
        biasRadiansPerSecond = initialBias
        let sigma = trusted ? GyroBiasEstimator.storedSigmaRadiansPerSecond : GyroBiasEstimator.initialSigmaRadiansPerSecond
        covariance = SymmetricMatrix3(xx: sigma * sigma, xy: 0, xz: 0, yy: sigma * sigma, yz: 0, zz: sigma * sigma)
    }

    /// Largest variance of the estimate over the axes, (rad/s)².
    @inline(__always)
    public var varianceRadiansSquaredPerSecondSquared: Double { max(covariance.xx, covariance.yy, covariance.zz) }

    /// Standard deviation of the estimate (worst axis), rad/s.
    @inline(__always)
    public var sigmaRadiansPerSecond: Double { varianceRadiansSquaredPerSecondSquared.squareRoot() }

    /// True while the board is at rest (rest windows are being measured).
    public var isResting: Bool { watching && olderSeconds + currentSeconds > 0 }

    /// True once the estimate is trustworthy: its standard deviation is below
    /// `GyroBiasEstimator.estimatedSigmaRadiansPerSecond` (measured at rest, or loaded).
    public var isEstimated: Bool {
        varianceRadiansSquaredPerSecondSquared
            <= GyroBiasEstimator.estimatedSigmaRadiansPerSecond * GyroBiasEstimator.estimatedSigmaRadiansPerSecond
    }
    /// The standard deviation below which the estimate counts as estimated, rad/s.
    public static let estimatedSigmaRadiansPerSecond = 0.05 * Angle.radiansPerDegree

    /// Subtracts the offset from `gyro` (rad/s) and updates the estimate; returns the corrected rate.
    /// `accel` is the raw specific force (m/s²); `accelDirection` its unit vector; `eastDirection`
    /// â × m̂ (length cos dip; nil when there is no field) tells slow turns about the vertical;
    /// `turnChord` is 2·sin(`gyroBiasMaximumTurnDegrees`/2) (precomputed by the filter); `moving` (the
    /// vehicle has a GPS speed) forbids learning.
    @inline(__always)
    public mutating func correct(_ gyro: Vector3, accel: Vector3, accelDirection: Vector3, eastDirection: Vector3?,
                                 dt: Double, turnChord: Double, moving: Bool, configuration c: AHRSConfiguration) -> Vector3 {
        let randomWalk = c.gyroBiasRandomWalkDegreesPerSecondPerRootSecond * Angle.radiansPerDegree
        let q = randomWalk * randomWalk * dt
        covariance.xx += q
        covariance.yy += q
        covariance.zz += q
        let corrected = gyro - biasRadiansPerSecond
        let a = smoothing.value(dt: dt, tau: GyroBiasEstimator.smoothingSeconds)
        smoothedAccel = smoothedAccel.lengthSquared == 0 ? accelDirection : smoothedAccel + (accelDirection - smoothedAccel) * a
        if let f = eastDirection {
            smoothedField = smoothedField.lengthSquared == 0 ? f : smoothedField + (f - smoothedField) * a
        }
        let resting = rest.update(gyro: gyro, accel: accel, bias: biasRadiansPerSecond, biasSigma: sigmaRadiansPerSecond,
                                  dt: dt, configuration: c)
        let chord2 = turnChord * turnChord
        let restFieldLength2 = restField.lengthSquared
        let turned = watching && ((smoothedAccel - restAccel).lengthSquared > chord2
            || (restFieldLength2 > 0 && (smoothedField - restField).lengthSquared > chord2 * restFieldLength2))
        guard rest.stillSeconds > 0, !moving, !turned else {
            watching = false
            discardWindows()
            return corrected
        }
        if !watching {
            // The directions are watched from the first still sample on.
            watching = true
            restAccel = smoothedAccel
            restField = smoothedField
        }
        guard resting else { return corrected }
        currentSum += gyro * dt
        currentSeconds += dt
        if currentSeconds >= GyroBiasEstimator.commitWindowSeconds {
            // The older window has now been followed by a full window at rest: measure with it.
            if olderSeconds > 0 { measure(sum: olderSum, seconds: olderSeconds, configuration: c) }
            olderSum = currentSum
            olderSeconds = currentSeconds
            currentSum = .zero
            currentSeconds = 0
        }
        return corrected
    }

    /// The Kalman update with the mean raw rate of a rest window.
    private mutating func measure(sum: Vector3, seconds: Double, configuration c: AHRSConfiguration) {
        let density = c.gyroNoiseDensityDegreesPerSecondPerRootHertz * Angle.radiansPerDegree
        let noise = density * density / seconds
        let mean = sum * (1 / seconds)
        update(row: Vector3(1, 0, 0), innovation: mean.x - biasRadiansPerSecond.x, noise: noise)
        update(row: Vector3(0, 1, 0), innovation: mean.y - biasRadiansPerSecond.y, noise: noise)
        update(row: Vector3(0, 0, 1), innovation: mean.z - biasRadiansPerSecond.z, noise: noise)
    }

    /// The Kalman update with a motion observation: `east`, `north` = the measured offset (rad/s)
    /// projected on `eastRow`, `northRow` (the low-passed horizontal rows of sensor → E6).
    mutating func observeMotion(east: Double, north: Double, eastRow: Vector3, northRow: Vector3,
                                configuration c: AHRSConfiguration) {
        let sigma = c.gyroBiasMotionSigmaDegreesPerSecond * Angle.radiansPerDegree
        guard sigma > 0 else { return }
        update(row: eastRow, innovation: east - eastRow.dot(biasRadiansPerSecond), noise: sigma * sigma)
        update(row: northRow, innovation: north - northRow.dot(biasRadiansPerSecond), noise: sigma * sigma)
    }

    /// One scalar Kalman update: measurement row `h`, innovation, noise variance.
    @inline(__always)
    private mutating func update(row h: Vector3, innovation: Double, noise: Double) {
        let ph = covariance.multiply(h)
        let s = h.dot(ph) + noise
        guard s > 0 else { return }
        let k = ph * (1 / s)
        biasRadiansPerSecond += k * innovation
        covariance = SymmetricMatrix3(xx: covariance.xx - k.x * ph.x, xy: covariance.xy - k.x * ph.y,
                                      xz: covariance.xz - k.x * ph.z, yy: covariance.yy - k.y * ph.y,
                                      yz: covariance.yz - k.y * ph.z, zz: covariance.zz - k.z * ph.z)
    }

    /// Forgets the rest state (a gap in the data); keeps the estimate.
    public mutating func resetRest() {
        rest.reset()
        watching = false
        discardWindows()
        smoothedAccel = .zero
        smoothedField = .zero
    }

    private mutating func discardWindows() {
        olderSum = .zero
        currentSum = .zero
        olderSeconds = 0
        currentSeconds = 0
    }
}
