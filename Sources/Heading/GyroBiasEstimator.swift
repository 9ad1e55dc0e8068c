/// Run-time gyroscope offset estimation while the board is at rest: the algorithm of x-io Fusion's
/// `FusionBias` (MIT, github.com/xioTechnologies/Fusion, `Fusion/FusionBias.c`), driven by the
/// measured time step instead of a fixed sample rate.
///
/// While every axis of the corrected rate stays below a threshold for a stationary period, the
/// corrected rate is low-pass filtered into the offset (first-order, cut-off `gyroBiasCutoffHertz`).
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

    /// An estimator starting from `initialBias` (e.g. a stored calibration); `trusted` says whether
    /// that starting value is already a real estimate.
    public init(initialBias: Vector3 = .zero, trusted: Bool = false) {
        biasRadiansPerSecond = initialBias
        isEstimated = trusted
    }

    /// Subtracts the offset from `gyro` (rad/s) and updates the estimate; returns the corrected rate.
    @inline(__always)
    public mutating func correct(_ gyro: Vector3, dt: Double, configuration c: AHRSConfiguration) -> Vector3 {
        let corrected = gyro - biasRadiansPerSecond
        let threshold = c.gyroBiasStationaryThresholdDegreesPerSecond * Angle.radiansPerDegree
        if corrected.maximumMagnitude > threshold {
            stationarySeconds = 0
            return corrected
        }
        if stationarySeconds < c.gyroBiasStationarySeconds {
            stationarySeconds += dt
            return corrected
        }
        let k = min(1, 2 * Double.pi * c.gyroBiasCutoffHertz * dt)
        biasRadiansPerSecond += corrected * k
        updatingSeconds += dt
        if !isEstimated && updatingSeconds * 2 * Double.pi * c.gyroBiasCutoffHertz >= 1 { isEstimated = true }
        return corrected
    }
}
