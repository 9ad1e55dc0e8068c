/// ZDA — UTC time and full date (four-digit year), with the local zone offset.
public struct ZDA: Sendable, Equatable {
    public var time: UTCTimeOfDay?
    /// The date with its four-digit year; nil when any of day/month/year is empty.
    public var date: NMEADate?
    /// Local zone offset, minutes east of UTC; nil when empty.
    public var localZoneOffsetMinutes: Int?

    public init() {}

    static func parse(_ s: inout FieldScanner) throws(ParseFailure) -> ZDA {
        var z = ZDA()
        z.time = try s.time()
        let day = try s.integer(maxDigits: 2), month = try s.integer(maxDigits: 2), year = try s.integer(maxDigits: 4)
        try s.requireFieldsPresent()
        if let day, let month, let year {
            guard (1980...2200).contains(year), (1...12).contains(month),
                  day >= 1, day <= NMEADate.daysInMonth(month, year: year) else { throw .outOfRange }
            z.date = NMEADate(year: year, month: month, day: day, hasCentury: true)
        }
        // Zone hours may be signed ("-05"); minutes take the hours' sign.
        if let hours = try s.decimal(in: -13...13) {
            let minutes = try s.integer(maxDigits: 2) ?? 0
            guard minutes < 60, hours == hours.rounded() else { throw .outOfRange }
            let sign = hours.sign == .minus ? -1 : 1
            z.localZoneOffsetMinutes = Int(hours) * 60 + sign * minutes
        }
        return z
    }
}

/// GST — pseudorange error statistics of the fix at `time`. Units: metres (1 sigma), degrees true.
public struct GST: Sendable, Equatable {
    /// Time of the fix these statistics belong to.
    public var time: UTCTimeOfDay?
    public var ellipse = ErrorEllipse()

    public init() {}

    static func parse(_ s: inout FieldScanner) throws(ParseFailure) -> GST {
        var g = GST()
        g.time = try s.time()
        let meters: ClosedRange<Double> = 0...1_000_000
        g.ellipse.rangeRMSMeters = try s.decimal(in: meters)
        g.ellipse.semiMajorMeters = try s.decimal(in: meters)
        g.ellipse.semiMinorMeters = try s.decimal(in: meters)
        g.ellipse.orientationDegrees = try s.course()
        g.ellipse.latitudeSigmaMeters = try s.decimal(in: meters)
        g.ellipse.longitudeSigmaMeters = try s.decimal(in: meters)
        g.ellipse.altitudeSigmaMeters = try s.decimal(in: meters)
        try s.requireFieldsPresent()
        return g
    }
}
