/// Why a magnetometer calibration run could not produce a calibration. Every case says what to do.
public enum MagnetometerCalibrationError: Error, Sendable, Equatable {
    /// Fewer samples than the fit needs.
    case tooFewSamples(count: Int, needed: Int)
    /// The samples cover too little of the sphere of directions.
    case insufficientCoverage(fraction: Double, needed: Double)
    /// The least-squares system is singular (all samples in a plane or on a line).
    case degenerate
    /// The fitted quadric is not an ellipsoid (noise or a changing field dominated the run).
    case notAnEllipsoid
    /// The fitted distortion is implausibly large (axis ratio above the limit).
    case implausibleDistortion(axisRatio: Double)

    /// One-sentence explanation with the fix.
    public var message: String {
        let hint = "rotate the board slowly through all orientations (figure-8s plus full rolls and pitches), away from steel and magnets, and run the calibration again"
        switch self {
        case let .tooFewSamples(count, needed):
            return "magnetometer calibration has \(count) distinct samples, needs \(needed): \(hint)"
        case let .insufficientCoverage(fraction, needed):
            return "magnetometer calibration covered \(Int((fraction * 100).rounded())) % of the directions, needs \(Int((needed * 100).rounded())) %: \(hint)"
        case .degenerate:
            return "magnetometer calibration samples lie in a plane (the board was only turned about one axis): \(hint)"
        case .notAnEllipsoid:
            return "magnetometer calibration samples do not lie on an ellipsoid (the field changed during the run): \(hint)"
        case let .implausibleDistortion(ratio):
            return "magnetometer calibration found a distortion with axis ratio \((ratio * 100).rounded() / 100), too large to be soft iron: move the sensor away from steel and \(hint)"
        }
    }
}
