/// Why a `KEY=VALUE` setting was refused.
public enum HeadingConfigurationError: Error, Sendable, Equatable {
    /// The key is not a heading setting.
    case unknownKey(String)
    /// The value is not a number in the allowed range.
    case invalidValue(key: String, value: String)

    /// One-sentence explanation with the fix.
    public var message: String {
        switch self {
        case let .unknownKey(key):
            return "unknown heading setting '\(key)'; known settings: \(HeadingConfiguration.settingKeys.joined(separator: ", "))"
        case let .invalidValue(key, value):
            return "heading setting '\(key)' needs a finite non-negative number, got '\(value)'"
        }
    }
}

/// Everything the heading provider can be tuned with: the filter (`ahrs`), publication and the
/// accuracy floors of each calibration state. Degrees, seconds and fractions as the names say.
public struct HeadingConfiguration: Sendable, Equatable {
    /// The AHRS filter's tuning.
    public var ahrs = AHRSConfiguration.default
    /// Minimum heading change, degrees, that moves the camera and raises a heading event (CoreLocation's
    /// `headingFilter`, tracking.md 4.2; 0: every change). The tracking core applies it
    /// (`TrackingConfiguration.headingFilterDegrees`); the estimator publishes every fused update.
    public var headingFilterDegrees: Double = 1
    /// Accuracy floor with a good calibration, degrees.
    public var calibratedFloorDegrees: Double = 1
    /// Accuracy floor with a poor-coverage or stale calibration, degrees.
    public var poorCalibrationFloorDegrees: Double = 10
    /// Accuracy floor without calibration, degrees (hard iron alone can turn a heading by 180°).
    public var uncalibratedFloorDegrees: Double = 30
    /// Coverage a fitted calibration needs to count as good, fraction.
    public var goodCoverageFraction: Double = 0.75
    /// Largest deviation of the learned field magnitude from the calibration's, fraction.
    public var fieldMismatchToleranceFraction: Double = 0.15
    /// Largest deviation of the learned field magnitude from the WMM's (when the calibration did not
    /// record the field), fraction; indoor fields often differ by 10–20 %.
    public var modelMismatchToleranceFraction: Double = 0.25
    /// Accuracy beyond which the heading is reported invalid, degrees.
    public var maximumValidAccuracyDegrees: Double = 180

    public init() {}

    /// The verified defaults.
    public static let `default` = HeadingConfiguration()

    /// The accepted setting keys (`set(_:to:)`, `puckd heading replay --config KEY=VALUE`), in help order.
    public static let settingKeys: [String] = [
        "tilt_tau_s",
        "heading_drift",
        "heading_scale_error",
        "mag_noise",
        "mag_noise_rate_dps",
        "mag_bias_deg",
        "startup_s",
        "accel_tolerance",
        "mag_rejection_deg",
        "field_tolerance",
        "dip_tolerance_deg",
        "field_current_s",
        "field_settle_s",
        "mag_recovery_s",
        "field_relearn_s",
        "field_relearn_turn_deg",
        "field_tau_s",
        "vehicle_compensation",
        "course_speed_mps",
        "course_yaw_rate_dps",
        "course_noise_deg",
        "course_rejection_deg",
        "course_recovery_s",
        "mag_offset_tau_s",
        "gyro_range_dps",
        "rest_gyro_dps",
        "rest_accel",
        "rest_filter_s",
        "rest_s",
        "gyro_noise_density",
        "bias_walk",
        "bias_motion_dps",
        "bias_turn_deg",
        "max_step_s",
        "bias_sigma_dps",
        "scale_sigma",
        "heading_filter_deg",
        "calibrated_floor_deg",
        "uncalibrated_floor_deg",
    ]

    /// The field a setting key names.
    private static func path(of key: String) -> WritableKeyPath<HeadingConfiguration, Double>? {
        switch key {
        case "tilt_tau_s": return \.ahrs.tiltTimeConstantSeconds
        case "heading_drift": return \.ahrs.headingDriftDegreesPerRootSecond
        case "heading_scale_error": return \.ahrs.headingScaleErrorFraction
        case "mag_noise": return \.ahrs.magneticNoiseDegreesRootSecond
        case "mag_noise_rate_dps": return \.ahrs.magneticNoiseRateDegreesPerSecond
        case "mag_bias_deg": return \.ahrs.magneticBiasDegrees
        case "startup_s": return \.ahrs.startupSeconds
        case "accel_tolerance": return \.ahrs.accelerationToleranceFraction
        case "mag_rejection_deg": return \.ahrs.magneticRejectionDegrees
        case "field_tolerance": return \.ahrs.fieldMagnitudeToleranceFraction
        case "dip_tolerance_deg": return \.ahrs.fieldDipToleranceDegrees
        case "field_current_s": return \.ahrs.fieldCurrentSeconds
        case "field_settle_s": return \.ahrs.fieldSettleSeconds
        case "mag_recovery_s": return \.ahrs.magneticRecoverySeconds
        case "field_relearn_s": return \.ahrs.fieldRelearnSeconds
        case "field_relearn_turn_deg": return \.ahrs.fieldRelearnRotationDegrees
        case "field_tau_s": return \.ahrs.fieldReferenceTimeConstantSeconds
        case "vehicle_compensation": return \.ahrs.vehicleCompensationFactor
        case "course_speed_mps": return \.ahrs.courseAidingSpeedMetersPerSecond
        case "course_yaw_rate_dps": return \.ahrs.courseAidingYawRateDegreesPerSecond
        case "course_noise_deg": return \.ahrs.courseNoiseDegrees
        case "course_rejection_deg": return \.ahrs.courseRejectionDegrees
        case "course_recovery_s": return \.ahrs.courseRecoverySeconds
        case "mag_offset_tau_s": return \.ahrs.magneticOffsetTimeConstantSeconds
        case "gyro_range_dps": return \.ahrs.gyroscopeRangeDegreesPerSecond
        case "rest_gyro_dps": return \.ahrs.restGyroThresholdDegreesPerSecond
        case "rest_accel": return \.ahrs.restAccelThresholdMetersPerSecondSquared
        case "rest_filter_s": return \.ahrs.restFilterSeconds
        case "rest_s": return \.ahrs.restMinimumSeconds
        case "gyro_noise_density": return \.ahrs.gyroNoiseDensityDegreesPerSecondPerRootHertz
        case "bias_walk": return \.ahrs.gyroBiasRandomWalkDegreesPerSecondPerRootSecond
        case "bias_motion_dps": return \.ahrs.gyroBiasMotionSigmaDegreesPerSecond
        case "bias_turn_deg": return \.ahrs.gyroBiasMaximumTurnDegrees
        case "max_step_s": return \.ahrs.maximumTimeStepSeconds
        case "bias_sigma_dps": return \.ahrs.gyroBiasUncertaintyDegreesPerSecond
        case "scale_sigma": return \.ahrs.gyroScaleUncertaintyFraction
        case "heading_filter_deg": return \.headingFilterDegrees
        case "calibrated_floor_deg": return \.calibratedFloorDegrees
        case "uncalibrated_floor_deg": return \.uncalibratedFloorDegrees
        default: return nil
        }
    }

    /// Sets one setting from text (`puckd heading replay --config KEY=VALUE`, the console).
    public mutating func set(_ key: String, to value: String) throws(HeadingConfigurationError) {
        guard let path = HeadingConfiguration.path(of: key) else { throw .unknownKey(key) }
        guard let number = Double(value), number.isFinite, number >= 0 else {
            throw .invalidValue(key: key, value: value)
        }
        self[keyPath: path] = number
    }

    /// The current value of a setting, nil for an unknown key.
    public func value(of key: String) -> Double? {
        HeadingConfiguration.path(of: key).map { self[keyPath: $0] }
    }
}
