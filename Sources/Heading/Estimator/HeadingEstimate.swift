/// The state of the magnetometer calibration as the heading provider sees it
/// (CoreLocation's `shouldDisplayHeadingCalibration` is `calibrationNeeded`).
public enum MagnetometerCalibrationState: UInt8, Sendable, Equatable {
    /// No calibration: raw readings are used, the heading can be wrong by tens of degrees.
    case uncalibrated = 0
    /// A calibration applies and the field agrees with it.
    case calibrated = 1
    /// The calibration came from a run that covered too few directions.
    case poorCoverage = 2
    /// The field magnitude no longer matches the calibration (or the WMM), or the field changed for
    /// good (the filter learned a new reference): the calibration is stale.
    case fieldMismatch = 3

    /// Short name for logs and the console.
    public var name: StaticString {
        switch self {
        case .uncalibrated: return "uncalibrated"
        case .calibrated: return "calibrated"
        case .poorCoverage: return "poor-coverage"
        case .fieldMismatch: return "field-mismatch"
        }
    }
}

/// One heading output of the heading provider (the analogue of CoreLocation's `CLHeading` plus the
/// attitude). Angles in degrees; headings clockwise from north, 0 ..< 360.
public struct HeadingEstimate: Sendable, Equatable {
    /// Monotonic time of the IMU sample it belongs to, nanoseconds.
    public var timestampNanoseconds: Int64
    /// Bearing of the board's forward axis from magnetic north, degrees, 0 ..< 360.
    public var magneticHeadingDegrees: Double
    /// Bearing from true north (magnetic + declination), degrees, when the position and date are known.
    public var trueHeadingDegrees: Double?
    /// Declination used (WMM2025 at the last fix), degrees east-positive, when known.
    public var declinationDegrees: Double?
    /// Roll, degrees, positive right side down.
    public var rollDegrees: Double
    /// Pitch, degrees, positive nose up.
    public var pitchDegrees: Double
    /// Orientation, sensor (board) frame → ENU earth frame with y = magnetic north.
    public var orientation: Quaternion
    /// Likely largest error of the heading, degrees (CoreLocation's `headingAccuracy`); nil when the
    /// heading is not valid (no absolute reference yet, start-up, or lost).
    public var headingAccuracyDegrees: Double?
    /// Calibration state of the magnetometer.
    public var calibrationState: MagnetometerCalibrationState
    /// True when the user should calibrate (CoreLocation's `shouldDisplayHeadingCalibration`).
    public var calibrationNeeded: Bool
    /// What the filter did with the last magnetometer reading.
    public var magnetometer: MagnetometerDecision

    /// True when the heading may be used.
    public var isValid: Bool { headingAccuracyDegrees != nil }

    public init(timestampNanoseconds: Int64, magneticHeadingDegrees: Double, trueHeadingDegrees: Double?,
                declinationDegrees: Double?, rollDegrees: Double, pitchDegrees: Double, orientation: Quaternion,
                headingAccuracyDegrees: Double?, calibrationState: MagnetometerCalibrationState,
                calibrationNeeded: Bool, magnetometer: MagnetometerDecision) {
        self.timestampNanoseconds = timestampNanoseconds
        self.magneticHeadingDegrees = magneticHeadingDegrees
        self.trueHeadingDegrees = trueHeadingDegrees
        self.declinationDegrees = declinationDegrees
        self.rollDegrees = rollDegrees
        self.pitchDegrees = pitchDegrees
        self.orientation = orientation
        self.headingAccuracyDegrees = headingAccuracyDegrees
        self.calibrationState = calibrationState
        self.calibrationNeeded = calibrationNeeded
        self.magnetometer = magnetometer
    }
}
