/// Tuning of the AHRS filter (`AHRSFilter`). Defaults are one configuration for every kind of motion:
/// verified on ten BROAD ground-truth trials, the x-io Fusion example data and synthetic drives (see
/// `docs/heading.md`, `Tests/HeadingTests` and `make bench`).
///
/// Gains are in **per second** (the inverse of a time constant), so they do not depend on the sample
/// rate; times in seconds; angles in degrees; fractions are dimensionless.
public struct AHRSConfiguration: Sendable, Equatable {
    // MARK: tilt

    /// Time constant of the tilt correction, seconds: the specific force is low-passed in the
    /// quasi-inertial frame with it (`InclinationEstimator`); 0 levels on every sample.
    public var tiltTimeConstantSeconds: Double = 3

    // MARK: heading (`HeadingVariance`)

    /// Random walk of the gyro-integrated heading, degrees per √s (bias residuals, temperature).
    public var headingDriftDegreesPerRootSecond: Double = 0.1
    /// Random walk of the heading per degree turned about the vertical (scale factor, misalignment),
    /// as a fraction: q = (s·ω_v·1 s)² per second.
    public var headingScaleErrorFraction: Double = 0.0025
    /// Density of the magnetometer's slow heading error (calibration residuals, field varying from
    /// place to place, tilt errors through the dip), degrees·√s.
    public var magneticNoiseDegreesRootSecond: Double = 2
    /// The magnetometer's heading bias that averaging does not remove (calibration residuals, the
    /// mounting), degrees: how far a GNSS course may move a heading the magnetometer set.
    public var magneticBiasDegrees: Double = 2
    /// Turn rate, degrees per second, at which the magnetometer's heading error density has doubled
    /// in variance (sample-timing skew between the sensors, tilt lag leaking through the dip):
    /// R = R₀·(1 + (|ω|/rate)²). 0: no rate dependence.
    public var magneticNoiseRateDegreesPerSecond: Double = 100

    // MARK: start-up

    /// Length of the start-up period, seconds: the heading is reported invalid and the magnetometer
    /// gate is open while the running means settle.
    public var startupSeconds: Double = 3.0

    // MARK: accelerometer

    /// Largest deviation of the low-passed specific force from standard gravity, as a fraction of g,
    /// for the tilt to be corrected: more means a sustained acceleration (a vehicle speeding up without
    /// a GPS speed), which would tilt the estimate.
    public var accelerationToleranceFraction: Double = 0.1

    // MARK: magnetometer gate (`MagneticFieldGate`)

    /// Largest heading innovation, degrees, for the magnetometer to be used.
    public var magneticRejectionDegrees: Double = 45.0
    /// Largest deviation of |m| from the learned reference field, as a fraction of it.
    public var fieldMagnitudeToleranceFraction: Double = 0.2
    /// Largest deviation of the field's dip (inclination) from the learned reference, degrees.
    public var fieldDipToleranceDegrees: Double = 15.0
    /// Time constant of the current field's magnitude and dip (against magnetometer noise), seconds.
    public var fieldCurrentSeconds: Double = 0.1
    /// Seconds a field must stay in tolerance after a disturbance before it is used again.
    public var fieldSettleSeconds: Double = 1.0
    /// Seconds of a consistent field but innovations beyond the gate before the filter forgets the
    /// heading and re-converges onto the magnetometer.
    public var magneticRecoverySeconds: Double = 20.0
    /// Seconds a new, self-consistent field must hold before it becomes the reference (the board was
    /// moved to a new environment for good; the calibration-needed flag is raised).
    public var fieldRelearnSeconds: Double = 20.0
    /// How far the board must turn meanwhile, degrees (a field fixed to the board would change).
    public var fieldRelearnRotationDegrees: Double = 360.0
    /// Time constant of the learned reference field (magnitude and dip), seconds.
    public var fieldReferenceTimeConstantSeconds: Double = 20.0

    // MARK: vehicle motion (GPS-aided)

    /// Weight of the vehicle-acceleration compensation: with a GPS forward speed v (and its rate v̇),
    /// the accelerometer is corrected by (v̇, ω_z·v, −ω_y·v) — the along-track and centripetal
    /// acceleration of a vehicle moving along the board's x axis — before it corrects the tilt.
    /// 1 = on, 0 = off; no effect without a speed.
    public var vehicleCompensationFactor: Double = 1
    /// GNSS course aiding (`CourseAiding`): the lowest speed, m/s, at which the course over ground is a
    /// heading measurement (0 disables the aiding).
    public var courseAidingSpeedMetersPerSecond: Double = 5
    /// The largest yaw rate, degrees per second, between two fixes for the course to be used.
    public var courseAidingYawRateDegreesPerSecond: Double = 3
    /// Standard deviation of one fix's course as a heading measurement, degrees (GNSS velocity noise,
    /// side slip, the mounting's yaw).
    public var courseNoiseDegrees: Double = 1.5
    /// Largest difference between course and heading, degrees, for the course to be used (more: a
    /// reversing vehicle or a skid; a difference that stays for `courseRecoverySeconds` and is not a
    /// reversal means the heading is wrong, and the course resets it).
    public var courseRejectionDegrees: Double = 30
    /// See `courseRejectionDegrees`, seconds.
    public var courseRecoverySeconds: Double = 10
    /// Time constant of the magnetometer's offset learned against the course, seconds.
    public var magneticOffsetTimeConstantSeconds: Double = 15

    // MARK: gyroscope

    /// Gyroscope full-scale range, degrees per second; a sample beyond 98 % of it restarts the
    /// start-up period (the integration lost track). 0 disables the check.
    public var gyroscopeRangeDegreesPerSecond: Double = 2000
    /// Rest detection (`RestDetector`): largest deviation of a gyro sample from its low-passed value,
    /// and of the low-passed rate from the bias estimate, degrees per second.
    public var restGyroThresholdDegreesPerSecond: Double = 2.0
    /// Largest deviation of an accelerometer sample from its low-passed value, m/s².
    public var restAccelThresholdMetersPerSecondSquared: Double = 0.5
    /// Time constant of the rest detector's low-pass, seconds.
    public var restFilterSeconds: Double = 0.5
    /// How long the conditions must hold before the board counts as at rest, seconds.
    public var restMinimumSeconds: Double = 1.5
    /// White-noise density of the gyroscope, degrees per second per √Hz (sets how fast rest windows
    /// pull the bias estimate; MEMS gyros are 0.005–0.015).
    public var gyroNoiseDensityDegreesPerSecondPerRootHertz: Double = 0.01
    /// Random walk of the gyro offset, degrees per second per √s (temperature drift).
    public var gyroBiasRandomWalkDegreesPerSecondPerRootSecond: Double = 0.002
    /// Standard deviation of the offset measured by the tilt corrections of 0.1 s of motion, degrees per
    /// second (0 disables motion bias estimation).
    public var gyroBiasMotionSigmaDegreesPerSecond: Double = 0.1
    /// Largest turn of the (low-passed) accelerometer or magnetometer direction during a rest period,
    /// degrees; more means a slow turn, not rest.
    public var gyroBiasMaximumTurnDegrees: Double = 3

    // MARK: timing

    /// Longest time step integrated, seconds. A longer gap between samples (dropped samples, a
    /// stalled bus) re-initialises the orientation from the next sample and restarts start-up.
    public var maximumTimeStepSeconds: Double = 0.5

    // MARK: accuracy model (see `HeadingAccuracyModel`)

    /// Gyro-bias uncertainty once the bias has been estimated at rest (or loaded), degrees per second:
    /// in motion a MEMS offset moves by this much (g-sensitivity, vibration, temperature; BROAD's
    /// trials show 0.05–0.2 °/s between rest and motion).
    public var gyroBiasUncertaintyDegreesPerSecond: Double = 0.1
    /// Gyro-bias uncertainty before that, degrees per second.
    public var gyroBiasUncertaintyUnestimatedDegreesPerSecond: Double = 0.5
    /// Gyro scale-factor / misalignment uncertainty, fraction of the rate (MEMS: ±1–3 %).
    public var gyroScaleUncertaintyFraction: Double = 0.01
    /// Correlation time of the rate-proportional gyro error, seconds.
    public var gyroErrorCorrelationSeconds: Double = 0.2
    /// Weight of the RMS magnetometer innovation in the heading accuracy.
    public var innovationNoiseFactor: Double = 0.3

    public init() {}

    /// The verified defaults.
    public static let `default` = AHRSConfiguration()
}
