/// Tuning of the AHRS filter (`AHRSFilter`). Defaults are the configuration verified on the BROAD
/// ground-truth trials and the x-io Fusion example data (see `Tests/HeadingTests` and `make bench`).
///
/// Gains are in **per second** (rad/s of correction per radian of error), so they do not depend on
/// the sample rate; times in seconds; angles in degrees; fractions are dimensionless.
public struct AHRSConfiguration: Sendable, Equatable {
    // MARK: gains

    /// Tilt correction gain from the accelerometer, 1/s (time constant 1/gain = 0.5 s).
    public var accelerometerGainPerSecond: Double = 2.0
    /// Heading correction gain from the magnetometer, 1/s (time constant 1/gain = 12.5 s).
    public var magnetometerGainPerSecond: Double = 0.08

    // MARK: start-up (as Fusion: a high gain ramped down to the normal one)

    /// Length of the start-up ramp, seconds. During it gates are open and gains are boosted.
    public var startupSeconds: Double = 3.0
    /// Gain multiplier at the start of the ramp (falls linearly to 1).
    public var startupGainFactor: Double = 10.0

    // MARK: accelerometer gate

    /// Largest angle between the measured and the estimated gravity direction, degrees, for the
    /// accelerometer to be used.
    public var accelerationRejectionDegrees: Double = 10.0
    /// Largest deviation of |a| from standard gravity, as a fraction of g, for the accelerometer to be
    /// used. Inside it the accelerometer weight falls off as 1 − (Δ/(tolerance·g))².
    public var accelerationToleranceFraction: Double = 0.25
    /// Seconds of |a| ≈ g but a large angle error before the filter trusts the accelerometer again
    /// (the estimate drifted, not the vehicle accelerating).
    public var accelerationRecoverySeconds: Double = 5.0

    // MARK: magnetometer gate

    /// Largest heading innovation, degrees, for the magnetometer to be used.
    public var magneticRejectionDegrees: Double = 25.0
    /// Largest deviation of |m| from the learned reference field, as a fraction of it.
    public var fieldMagnitudeToleranceFraction: Double = 0.10
    /// Largest deviation of the field's dip (inclination) from the learned reference, degrees.
    public var fieldDipToleranceDegrees: Double = 10.0
    /// Seconds of a consistent field (magnitude and dip) but a large innovation before the filter
    /// re-converges onto the magnetometer ("magnetic recovery"; Fusion uses a 5 s timeout, which
    /// follows a persistent disturbance; a disturbed field is never trusted here).
    public var magneticRecoverySeconds: Double = 20.0
    /// Gain multiplier while recovering.
    public var magneticRecoveryGainFactor: Double = 5.0
    /// Seconds of an inconsistent field after which the field reference is learned again (the
    /// environment changed for good, e.g. a new mounting; the calibration-needed flag is raised).
    public var fieldRelearnSeconds: Double = 60.0
    /// Time constant of the learned reference field (magnitude and dip), seconds.
    public var fieldReferenceTimeConstantSeconds: Double = 30.0

    // MARK: vehicle motion (GPS-aided)

    /// Weight of the vehicle-acceleration compensation: with a GPS forward speed v (and its rate v̇),
    /// the accelerometer is corrected by (v̇, ω_z·v, −ω_y·v) — the along-track and centripetal
    /// acceleration of a vehicle moving along the board's x axis — before it corrects the tilt.
    /// 1 = on, 0 = off; no effect without a speed.
    public var vehicleCompensationFactor: Double = 1

    // MARK: gyroscope

    /// Gyroscope full-scale range, degrees per second; a sample beyond 98 % of it restarts the
    /// start-up ramp (the integration lost track). 0 disables the check.
    public var gyroscopeRangeDegreesPerSecond: Double = 2000
    /// Gyro-bias estimation (Fusion's `FusionBias`): the board is stationary when every axis of the
    /// corrected rate stays below this, degrees per second.
    public var gyroBiasStationaryThresholdDegreesPerSecond: Double = 3.0
    /// … for at least this long, seconds, before the bias estimate is updated.
    public var gyroBiasStationarySeconds: Double = 3.0
    /// Cut-off frequency of the bias estimate's low-pass filter, hertz.
    public var gyroBiasCutoffHertz: Double = 0.02
    /// Largest turn of the (low-passed) accelerometer or magnetometer direction during a stationary
    /// period, degrees; more means a slow turn, not rest.
    public var gyroBiasMaximumTurnDegrees: Double = 3

    // MARK: timing

    /// Longest time step integrated, seconds. A longer gap between samples (dropped samples, a
    /// stalled bus) re-initialises the orientation from the next sample and restarts the ramp.
    public var maximumTimeStepSeconds: Double = 0.5

    // MARK: accuracy model (see `HeadingAccuracyModel`)

    /// Gyro-bias uncertainty once the bias has been estimated at rest (or loaded), degrees per second.
    public var gyroBiasUncertaintyDegreesPerSecond: Double = 0.05
    /// Gyro-bias uncertainty before that, degrees per second.
    public var gyroBiasUncertaintyUnestimatedDegreesPerSecond: Double = 0.5
    /// Gyro scale-factor / misalignment uncertainty, fraction of the rate.
    public var gyroScaleUncertaintyFraction: Double = 0.002
    /// Correlation time of the rate-proportional gyro error, seconds.
    public var gyroErrorCorrelationSeconds: Double = 0.2
    /// Weight of the RMS magnetometer innovation in the heading accuracy.
    public var innovationNoiseFactor: Double = 0.3

    public init() {}

    /// The verified defaults.
    public static let `default` = AHRSConfiguration()
}
