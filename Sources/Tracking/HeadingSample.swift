import Angles

/// Where a heading sample comes from.
public enum HeadingSampleSource: UInt8, Sendable, Equatable {
    /// The board's IMU (AHRS fusion, module `Heading`).
    case imu
    /// A GNSS heading sensor or dual-antenna receiver delivered as a sample (ranks as GPS true heading).
    case gnss
}

/// One heading measurement, as CoreLocation's `CLHeading` (tracking.md 1.1): angles in degrees clockwise
/// from north, **negative means invalid** for each field.
public struct HeadingSample: Sendable, Equatable {
    /// Monotonic time the sample was taken, nanoseconds.
    public var timeNanoseconds: Int64
    /// Heading relative to true north, degrees 0..<360; negative = unknown (no declination).
    public var trueHeadingDegrees: Double
    /// Heading relative to magnetic north, degrees 0..<360; negative = unknown.
    public var magneticHeadingDegrees: Double
    /// Maximum error of the heading, degrees; **negative = the sample is invalid** and is ignored
    /// (tracking.md 4.3).
    public var headingAccuracyDegrees: Double
    /// What produced the sample.
    public var source: HeadingSampleSource

    public init(timeNanoseconds: Int64, trueHeadingDegrees: Double, magneticHeadingDegrees: Double,
                headingAccuracyDegrees: Double, source: HeadingSampleSource = .imu) {
        self.timeNanoseconds = timeNanoseconds
        self.trueHeadingDegrees = trueHeadingDegrees
        self.magneticHeadingDegrees = magneticHeadingDegrees
        self.headingAccuracyDegrees = headingAccuracyDegrees
        self.source = source
    }

    /// True when the accuracy is ≥ 0 and at least one heading is ≥ 0.
    public var isValid: Bool {
        headingAccuracyDegrees >= 0 && headingAccuracyDegrees.isFinite && direction != nil
    }

    /// Heading direction as MapLibre and Mapbox v10 compute it (tracking.md 1.2): the true heading when it
    /// is ≥ 0, else the magnetic heading when it is ≥ 0, else nil.
    public var direction: Double? {
        if trueHeadingDegrees >= 0 && trueHeadingDegrees.isFinite { return Angle.wrap360(trueHeadingDegrees) }
        if magneticHeadingDegrees >= 0 && magneticHeadingDegrees.isFinite { return Angle.wrap360(magneticHeadingDegrees) }
        return nil
    }
}
