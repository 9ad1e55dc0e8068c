/// VTG — course and speed over ground. Units: degrees, metres per second. nil = field empty.
public struct VTG: Sendable, Equatable {
    /// Course over ground, degrees true, 0 ..< 360.
    public var courseTrueDegrees: Double?
    /// Course over ground, degrees magnetic, 0 ..< 360.
    public var courseMagneticDegrees: Double?
    /// Speed over ground (from the knots field, else the km/h field), metres per second.
    public var speedMetersPerSecond: Double?
    /// NMEA 2.3+ mode indicator; `N` means the data are not valid.
    public var mode: PositioningMode?

    public init() {}

    static func parse(_ s: inout FieldScanner) -> VTG {
        var v = VTG()
        v.courseTrueDegrees = s.course()
        s.advance()                                        // "T"
        v.courseMagneticDegrees = s.course()
        s.advance()                                        // "M"
        let knots = s.decimal(in: 0...Limits.speedKnots)
        s.advance()                                        // "N"
        let kmh = s.decimal(in: 0...(Limits.speedKnots * 1.852))
        s.advance()                                        // "K"
        s.requireFieldsPresent()
        if let knots { v.speedMetersPerSecond = knots * metersPerSecondPerKnot }
        else if let kmh { v.speedMetersPerSecond = kmh / 3.6 }
        v.mode = s.positioningMode()
        return v
    }
}

/// HDT — true heading from a gyro compass or dual-antenna receiver. Units: degrees true.
public struct HDT: Sendable, Equatable {
    /// Heading, degrees clockwise from true north, 0 ..< 360; nil when empty.
    public var headingDegrees: Double?

    public init() {}

    static func parse(_ s: inout FieldScanner) -> HDT {
        var h = HDT()
        h.headingDegrees = s.course()
        s.requireFieldsPresent()
        return h
    }
}

/// THS — true heading with a mode indicator (NMEA 2.3+). Units: degrees true.
public struct THS: Sendable, Equatable {
    /// Heading, degrees clockwise from true north, 0 ..< 360; nil when empty.
    public var headingDegrees: Double?
    /// `A` autonomous, `E` estimated, `M` manual, `S` simulator, `V` not valid.
    public var modeIndicator: UInt8?

    public init() {}

    /// True unless the mode indicator says "not valid" (`V`).
    public var isValid: Bool { modeIndicator != 0x56 }

    static func parse(_ s: inout FieldScanner) -> THS {
        var t = THS()
        t.headingDegrees = s.course()
        t.modeIndicator = s.character()
        s.requireFieldsPresent()
        if let m = t.modeIndicator {
            if !(m == 0x41 || m == 0x45 || m == 0x4D || m == 0x53 || m == 0x56) { s.fail(.malformedField) }
        }
        return t
    }
}
