/// What a fix holds, as gpsd's TPV `mode`: no position, a 2D position, or a 3D position with altitude.
public enum FixMode: UInt8, Sendable, Equatable {
    case noFix = 1
    case twoD = 2
    case threeD = 3
}

/// How the receiver computed the position (GGA quality indicator, or the RMC/GNS mode indicator when
/// no GGA was seen).
public enum FixQuality: UInt8, Sendable, Equatable {
    case invalid = 0
    case gps = 1
    case dgps = 2
    case pps = 3
    case rtkFixed = 4
    case rtkFloat = 5
    case deadReckoning = 6
    case manual = 7
    case simulator = 8
}

/// Where `horizontalAccuracyMeters` / `verticalAccuracyMeters` came from.
public enum AccuracySource: UInt8, Sendable, Equatable {
    /// No estimate: neither GST nor DOPs were received.
    case none = 0
    /// GST pseudorange error statistics (1-sigma, metres), as sent by the receiver.
    case gst = 1
    /// DOP × a user-equivalent range error (see `EpochAssembler` for the UERE values used).
    case dop = 2
}

/// GST error statistics: 1-sigma errors in metres, ellipse orientation in degrees from true north.
public struct ErrorEllipse: Sendable, Equatable {
    /// RMS value of the pseudorange residuals, metres.
    public var rangeRMSMeters: Double?
    /// Semi-major axis of the error ellipse, metres (1 sigma).
    public var semiMajorMeters: Double?
    /// Semi-minor axis of the error ellipse, metres (1 sigma).
    public var semiMinorMeters: Double?
    /// Orientation of the semi-major axis, degrees clockwise from true north.
    public var orientationDegrees: Double?
    /// Latitude error, metres (1 sigma).
    public var latitudeSigmaMeters: Double?
    /// Longitude error, metres (1 sigma).
    public var longitudeSigmaMeters: Double?
    /// Altitude error, metres (1 sigma).
    public var altitudeSigmaMeters: Double?

    public init(rangeRMSMeters: Double? = nil, semiMajorMeters: Double? = nil, semiMinorMeters: Double? = nil,
                orientationDegrees: Double? = nil, latitudeSigmaMeters: Double? = nil,
                longitudeSigmaMeters: Double? = nil, altitudeSigmaMeters: Double? = nil) {
        self.rangeRMSMeters = rangeRMSMeters
        self.semiMajorMeters = semiMajorMeters
        self.semiMinorMeters = semiMinorMeters
        self.orientationDegrees = orientationDegrees
        self.latitudeSigmaMeters = latitudeSigmaMeters
        self.longitudeSigmaMeters = longitudeSigmaMeters
        self.altitudeSigmaMeters = altitudeSigmaMeters
    }
}

/// One navigation epoch (one receiver cycle), merged from every sentence the receiver sent for it.
///
/// Units: degrees (latitude north-positive, longitude east-positive, WGS84), metres, metres per second,
/// degrees clockwise from true north, nanoseconds. `nil` means "not reported", never zero.
/// A value type with no references: copying it allocates nothing.
public struct Fix: Sendable, Equatable {
    /// UTC time of the epoch in nanoseconds since 1970-01-01T00:00:00Z (POSIX time: a leap second
    /// shares its value with the following second); nil until a date is known (RMC or ZDA).
    public var utcNanoseconds: Int64?
    /// UTC time of day of the epoch in nanoseconds since midnight (0 ..< 86_401 s).
    public var timeOfDayNanoseconds: Int64
    /// True when the receiver reported second 60 (a leap second).
    public var isLeapSecond: Bool = false

    /// What the fix holds (no fix / 2D / 3D).
    public var mode: FixMode = .noFix
    /// How the position was computed.
    public var quality: FixQuality = .invalid

    /// Latitude, degrees north (WGS84), −90...90.
    public var latitudeDegrees: Double?
    /// Longitude, degrees east (WGS84), −180...180.
    public var longitudeDegrees: Double?
    /// Altitude above mean sea level (geoid), metres.
    public var altitudeMSLMeters: Double?
    /// Geoid separation (height of the geoid above the WGS84 ellipsoid), metres.
    public var geoidSeparationMeters: Double?
    /// True when the altitude (and geoid separation) were not in this epoch but held from a 3D epoch
    /// shortly before (a receiver that sends GGA only every 2nd or 4th cycle), as gpsd keeps 3D then.
    public var altitudeHeld: Bool = false

    /// Speed over ground, metres per second.
    public var speedMetersPerSecond: Double?
    /// Course over ground, degrees clockwise from true north, 0 ..< 360.
    public var courseDegrees: Double?
    /// True when speed and course were derived from successive positions (the cycle carried no RMC/VTG).
    public var speedAndCourseDerived: Bool = false
    /// Magnetic variation from RMC, degrees, east-positive.
    public var magneticVariationDegrees: Double?
    /// True heading from HDT/THS (a heading sensor or dual-antenna receiver), degrees clockwise from true north.
    public var trueHeadingDegrees: Double?

    /// Horizontal dilution of precision.
    public var hdop: Double?
    /// Vertical dilution of precision.
    public var vdop: Double?
    /// Position (3D) dilution of precision.
    public var pdop: Double?
    /// Estimated horizontal position error, metres (see `accuracySource`).
    public var horizontalAccuracyMeters: Double?
    /// Estimated vertical position error, metres (see `accuracySource`).
    public var verticalAccuracyMeters: Double?
    /// Where the accuracy estimates came from.
    public var accuracySource: AccuracySource = .none
    /// GST error statistics, when the receiver sent GST for this epoch.
    public var errorEllipse: ErrorEllipse?

    /// Satellites used in the solution (GGA/GNS count, else the GSA PRN count).
    public var satellitesUsed: Int?
    /// Satellites in view (GSV totals over all constellations).
    public var satellitesInView: Int?
    /// Age of differential corrections, seconds.
    public var differentialAgeSeconds: Double?
    /// Differential reference station ID.
    public var differentialStationID: Int?

    /// An epoch at `timeOfDayNanoseconds` with nothing else known yet.
    public init(timeOfDayNanoseconds: Int64) {
        self.timeOfDayNanoseconds = timeOfDayNanoseconds
    }

    /// Altitude above the WGS84 ellipsoid (MSL + geoid separation), metres.
    public var altitudeEllipsoidMeters: Double? {
        guard let msl = altitudeMSLMeters, let sep = geoidSeparationMeters else { return nil }
        return msl + sep
    }

    /// True when the fix carries a usable horizontal position.
    public var hasPosition: Bool {
        mode != .noFix && latitudeDegrees != nil && longitudeDegrees != nil
    }
}
