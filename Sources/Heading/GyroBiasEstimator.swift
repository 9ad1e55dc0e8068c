/// Run-time gyroscope offset estimation while the board is at rest: the algorithm of x-io Fusion's
/// `FusionBias` (MIT, github.com/xioTechnologies/Fusion, `Fusion/FusionBias.c`), driven by the
/// measured time step instead of a fixed sample rate.
///
/// While every axis of the corrected rate stays below a threshold for a stationary period, the
/// corrected rate is low-pass filtered into the offset (first-order, cut-off `gyroBiasCutoffHertz`).
/// Added to Fusion's test: the low-passed accelerometer direction (tilt) and horizontal field
/// direction (heading) must not turn by more than `gyroBiasMaximumTurnDegrees` since the stationary
/// period began — otherwise a slow, steady turn (a vehicle in a long curve at 1–3 °/s) would be
/// learned as gyro bias.
public struct GyroBiasEstimator: Sendable, Equatable {
    /// Current offset estimate, radians per second (subtracted from every sample).
    public private(set) var biasRadiansPerSecond: Vector3
    /// How long the board has been stationary, seconds (capped at the stationary period).
    public private(set) var stationarySeconds: Double = 0
    /// Seconds during which the estimate has been updated in total.
    public private(set) var updatingSeconds: Double = 0
    /// True once the estimate is trustworthy: loaded from a calibration record, or updated for at
    /// least one filter time constant 1/(2π·f_c).
    public private(set) var isEstimated: Bool
    /// Low-passed accelerometer and magnetometer directions, and their values when the stationary
    /// period began (unit vectors; zero when unknown).
    private var smoothedAccel = Vector3.zero, smoothedField = Vector3.zero
    private var restAccel = Vector3.zero, restField = Vector3.zero
    /// Time constant of the direction low-pass, seconds.
    private static let smoothingSeconds = 0.5
    /// Bias updates waiting to be committed: the older and the current window, rad/s.
    private var pendingOlder = Vector3.zero, pendingCurrent = Vector3.zero
    private var windowSeconds = 0.0, olderWindowSeconds = 0.0

    /// An estimator starting from `initialBias` (e.g. a stored calibration); `trusted` says whether
    /// that starting value is already a real estimate.
    public init(initialBias: Vector3 = .zero, trusted: Bool = false) {
        biasRadiansPerSecond = initialBias
        isEstimated = trusted
    }

    /// Subtracts the offset from `gyro` (rad/s) and updates the estimate; returns the corrected rate.
    /// `accelDirection` (unit) and `eastDirection` (â × m̂, length cos dip; nil when there is no field)
    /// tell slow turns from rest; `turnChord` is
    /// 2·sin(`gyroBiasMaximumTurnDegrees`/2), the chord of the largest turn (precomputed by the filter);
    /// `moving` (the vehicle has a GPS speed) forbids learning.
    ///
    /// Updates are committed with a delay: they accumulate in windows of `commitWindowSeconds` and a
    /// window is applied only once the next full window passed without motion, so the first second of
    /// a slow turn, before it is detectable, is never learned as bias.
    @inline(__always)
    public mutating func correct(_ gyro: Vector3, accelDirection: Vector3, eastDirection: Vector3?, dt: Double,
                                 turnChord: Double, moving: Bool, configuration c: AHRSConfiguration) -> Vector3 {
        let corrected = gyro - biasRadiansPerSecond
        let a = min(1, dt * (1 / GyroBiasEstimator.smoothingSeconds))
        smoothedAccel = smoothedAccel.lengthSquared == 0 ? accelDirection : smoothedAccel + (accelDirection - smoothedAccel) * a
        if let f = eastDirection {
            smoothedField = smoothedField.lengthSquared == 0 ? f : smoothedField + (f - smoothedField) * a
        }
        let threshold = c.gyroBiasStationaryThresholdDegreesPerSecond * Angle.radiansPerDegree
        let chord2 = turnChord * turnChord
        let restFieldLength2 = restField.lengthSquared
        let turned = (smoothedAccel - restAccel).lengthSquared > chord2
            || (restFieldLength2 > 0 && (smoothedField - restField).lengthSquared > chord2 * restFieldLength2)
        if moving || corrected.maximumMagnitude > threshold || (stationarySeconds > 0 && turned) {
            stationarySeconds = 0
            pendingOlder = .zero
            pendingCurrent = .zero
            windowSeconds = 0
            olderWindowSeconds = 0
            return corrected
        }
        if stationarySeconds == 0 {
            restAccel = smoothedAccel
            restField = smoothedField
        }
        if stationarySeconds < c.gyroBiasStationarySeconds {
            stationarySeconds += dt
            return corrected
        }
        let k = min(1, 2 * Double.pi * c.gyroBiasCutoffHertz * dt)
        pendingCurrent += corrected * k
        windowSeconds += dt
        if windowSeconds >= GyroBiasEstimator.commitWindowSeconds {
            // The older window has now been followed by a full window at rest: apply it.
            if olderWindowSeconds > 0 {
                biasRadiansPerSecond += pendingOlder
                updatingSeconds += olderWindowSeconds
                if !isEstimated && updatingSeconds * 2 * Double.pi * c.gyroBiasCutoffHertz >= 1 { isEstimated = true }
            }
            pendingOlder = pendingCurrent
            olderWindowSeconds = windowSeconds
            pendingCurrent = .zero
            windowSeconds = 0
        }
        return corrected
    }

    /// Length of a commit window, seconds.
    public static let commitWindowSeconds = 2.0
}
