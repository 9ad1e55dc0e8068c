import Angles

/// Where a heading sample comes from.
public enum HeadingSampleSource: UInt8, Sendable, Equatable {
    /// The board's IMU (AHRS fusion, module `Heading`).
    case imu
    /// A GNSS heading sensor or dual-antenna receiver delivered as a sample with its own accuracy (ranks
    /// as GPS true heading). Scenario files produce it (`heading … source=gnss`, docs/scenarios.md); the
    /// device's receiver gives the same measurement through the fix (NMEA HDT/THS →
    /// `Fix.trueHeadingDegrees`), so the device does not turn HDT/THS into samples a second time.
    case gnss
}

/// One heading measurement, as CoreLocation's `CLHeading` (tracking.md 1.1): angles in degrees clockwise
/// from north; a field that is unknown is nil. CoreLocation's "negative means invalid" is taken at the
/// door: the initializer turns a negative or non-finite value into nil, so nil is the only "unknown".
public struct HeadingSample: Sendable, Equatable {
    /// Monotonic time the sample was taken, nanoseconds.
    public var timeNanoseconds: Int64
    /// Heading relative to true north, degrees 0..<360; nil = unknown (no declination).
    public var trueHeadingDegrees: Double?
    /// Heading relative to magnetic north, degrees 0..<360; nil = unknown.
    public var magneticHeadingDegrees: Double?
    /// Maximum error of the heading, degrees; **nil = the sample is invalid** and is ignored
    /// (tracking.md 4.3).
    public var headingAccuracyDegrees: Double?
    /// What produced the sample.
    public var source: HeadingSampleSource

    /// A sample; negative or non-finite values (CoreLocation's "invalid") are stored as nil.
    public init(timeNanoseconds: Int64, trueHeadingDegrees: Double?, magneticHeadingDegrees: Double?,
                headingAccuracyDegrees: Double?, source: HeadingSampleSource = .imu) {
        self.timeNanoseconds = timeNanoseconds
        self.trueHeadingDegrees = HeadingSample.known(trueHeadingDegrees)
        self.magneticHeadingDegrees = HeadingSample.known(magneticHeadingDegrees)
        self.headingAccuracyDegrees = HeadingSample.known(headingAccuracyDegrees)
        self.source = source
    }

    /// True when the accuracy is known and at least one heading is.
    public var isValid: Bool { headingAccuracyDegrees != nil && direction != nil }

    /// Heading direction as MapLibre and Mapbox v10 compute it (tracking.md 1.2): the true heading when
    /// known, else the magnetic heading when known, else nil.
    public var direction: Double? {
        if let t = trueHeadingDegrees { return Angle.wrap360(t) }
        if let m = magneticHeadingDegrees { return Angle.wrap360(m) }
        return nil
    }

    /// `value` when it is a finite number ≥ 0, else nil.
    @inline(__always)
    static func known(_ value: Double?) -> Double? {
        guard let value, value >= 0, value.isFinite else { return nil }
        return value
    }
}
