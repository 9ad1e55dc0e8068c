/// GGA — fix data: time, position, quality, satellites, HDOP, altitude, geoid separation, DGPS.
/// Units: degrees (north/east positive), metres, seconds. nil = field empty.
public struct GGA: Sendable, Equatable {
    public var time: UTCTimeOfDay?
    public var latitudeDegrees: Double?
    public var longitudeDegrees: Double?
    /// Fix quality 0...8 (0 = invalid).
    public var quality: FixQuality?
    /// Satellites used in the solution (this talker's constellation when the talker is not `GN`).
    public var satellitesUsed: Int?
    public var hdop: Double?
    /// Altitude above mean sea level, metres.
    public var altitudeMSLMeters: Double?
    /// Geoid separation (geoid above WGS84 ellipsoid), metres.
    public var geoidSeparationMeters: Double?
    /// Age of differential corrections, seconds.
    public var differentialAgeSeconds: Double?
    /// Differential reference station ID (0...4095).
    public var differentialStationID: Int?

    public init() {}

    static func parse(_ s: inout FieldScanner) -> GGA {
        var g = GGA()
        g.time = s.time()
        g.latitudeDegrees = s.coordinate(maximumDegrees: 90)
        g.longitudeDegrees = s.coordinate(maximumDegrees: 180)
        if g.latitudeDegrees == nil || g.longitudeDegrees == nil { g.latitudeDegrees = nil; g.longitudeDegrees = nil }
        if let q = s.integer(maxDigits: 1) {
            if let quality = FixQuality(rawValue: UInt8(q)) { g.quality = quality } else { s.fail(.outOfRange) }
        }
        g.satellitesUsed = s.integer(maxDigits: 3)
        if let n = g.satellitesUsed, n > 255 { s.fail(.outOfRange) }
        g.hdop = s.decimal(in: 0...100)
        g.altitudeMSLMeters = s.decimal(in: Limits.altitudeMeters)
        s.advance()                                        // "M"
        g.geoidSeparationMeters = s.decimal(in: -250...250)
        s.advance()                                        // "M"
        s.requireFieldsPresent()
        g.differentialAgeSeconds = s.decimal(in: 0...Limits.differentialAgeSeconds)
        g.differentialStationID = s.integer(maxDigits: 4)
        if let id = g.differentialStationID, id > 4095 { s.fail(.outOfRange) }
        return g
    }
}

/// RMC — recommended minimum: time, status, position, speed, course, date, magnetic variation, mode.
/// Units: degrees, metres per second (converted from knots), degrees true. nil = field empty.
public struct RMC: Sendable, Equatable {
    public var time: UTCTimeOfDay?
    /// `A` valid, `V` navigation receiver warning (no fix); `D` (differential) is accepted as valid.
    public var isValid: Bool = false
    public var latitudeDegrees: Double?
    public var longitudeDegrees: Double?
    public var speedMetersPerSecond: Double?
    /// Course over ground, degrees true, 0 ..< 360.
    public var courseDegrees: Double?
    public var date: NMEADate?
    /// Magnetic variation, degrees, east positive.
    public var magneticVariationDegrees: Double?
    /// NMEA 2.3+ mode indicator.
    public var mode: PositioningMode?

    public init() {}

    static func parse(_ s: inout FieldScanner) -> RMC {
        var r = RMC()
        r.time = s.time()
        switch s.character() {
        case 0x41, 0x44: r.isValid = true                  // A, D
        case 0x56, nil: r.isValid = false                  // V
        default: s.fail(.malformedField)
        }
        r.latitudeDegrees = s.coordinate(maximumDegrees: 90)
        r.longitudeDegrees = s.coordinate(maximumDegrees: 180)
        if r.latitudeDegrees == nil || r.longitudeDegrees == nil { r.latitudeDegrees = nil; r.longitudeDegrees = nil }
        if let knots = s.decimal(in: 0...Limits.speedKnots) { r.speedMetersPerSecond = knots * metersPerSecondPerKnot }
        r.courseDegrees = s.course()
        r.date = s.date()
        s.requireFieldsPresent()
        let variation = s.decimal(in: 0...180)
        let direction = s.character()
        switch direction {
        case 0x45 where variation != nil: r.magneticVariationDegrees = variation            // E
        case 0x57 where variation != nil: r.magneticVariationDegrees = variation.map { -$0 }  // W
        case nil: r.magneticVariationDegrees = nil
        default:
            // Some receivers (Saab R4) leave out the E/W field: the mode indicator comes one early.
            if variation == nil, !s.hasMoreFields, let d = direction, let mode = PositioningMode(rawValue: d) {
                r.mode = mode
                return r
            }
            s.fail(.malformedField)
        }
        r.mode = s.positioningMode()
        return r
    }
}

/// GLL — geographic position with time and status. Units: degrees. nil = field empty.
public struct GLL: Sendable, Equatable {
    public var latitudeDegrees: Double?
    public var longitudeDegrees: Double?
    public var time: UTCTimeOfDay?
    /// `A` = data valid; false for `V` or an empty status.
    public var isValid: Bool = false
    public var mode: PositioningMode?

    public init() {}

    static func parse(_ s: inout FieldScanner) -> GLL {
        var g = GLL()
        g.latitudeDegrees = s.coordinate(maximumDegrees: 90)
        g.longitudeDegrees = s.coordinate(maximumDegrees: 180)
        s.requireFieldsPresent()
        if g.latitudeDegrees == nil || g.longitudeDegrees == nil { g.latitudeDegrees = nil; g.longitudeDegrees = nil }
        g.time = s.time()
        switch s.character() {
        case 0x41: g.isValid = true
        case 0x56, nil: g.isValid = false
        default: s.fail(.malformedField)
        }
        g.mode = s.positioningMode()
        return g
    }
}

/// GNS — multi-constellation fix data. Units: degrees, metres, seconds. nil = field empty.
public struct GNS: Sendable, Equatable {
    public var time: UTCTimeOfDay?
    public var latitudeDegrees: Double?
    public var longitudeDegrees: Double?
    /// Mode indicator of the first system in the mode field (GPS, or the only system).
    public var mode: PositioningMode?
    /// True when any system's mode indicator is valid (not `N`).
    public var anySystemValid: Bool = false
    public var satellitesUsed: Int?
    public var hdop: Double?
    public var altitudeMSLMeters: Double?
    public var geoidSeparationMeters: Double?
    public var differentialAgeSeconds: Double?
    public var differentialStationID: Int?
    /// NMEA 4.1 navigational status: false for `U` (unsafe) or `V` (not valid for navigation).
    public var navigationStatusValid: Bool = true

    public init() {}

    static func parse(_ s: inout FieldScanner) -> GNS {
        var g = GNS()
        g.time = s.time()
        g.latitudeDegrees = s.coordinate(maximumDegrees: 90)
        g.longitudeDegrees = s.coordinate(maximumDegrees: 180)
        if g.latitudeDegrees == nil || g.longitudeDegrees == nil { g.latitudeDegrees = nil; g.longitudeDegrees = nil }
        let (first, anyValid) = s.modeIndicators()
        g.mode = first
        g.anySystemValid = anyValid
        g.satellitesUsed = s.integer(maxDigits: 3)
        if let n = g.satellitesUsed, n > 255 { s.fail(.outOfRange) }
        g.hdop = s.decimal(in: 0...100)
        g.altitudeMSLMeters = s.decimal(in: Limits.altitudeMeters)
        g.geoidSeparationMeters = s.decimal(in: -250...250)
        g.differentialAgeSeconds = s.decimal(in: 0...Limits.differentialAgeSeconds)
        g.differentialStationID = s.integer(maxDigits: 4)
        s.requireFieldsPresent()
        if let id = g.differentialStationID, id > 4095 { s.fail(.outOfRange) }
        switch s.character() {
        case 0x55, 0x56: g.navigationStatusValid = false   // U, V
        default: g.navigationStatusValid = true
        }
        return g
    }
}
