/// ZDA — UTC time and full date (four-digit year), with the local zone offset.
public struct ZDA: Sendable, Equatable {
    public var time: UTCTimeOfDay?
    /// The date with its four-digit year; nil when any of day/month/year is empty.
    public var date: NMEADate?
    /// Local zone offset, minutes east of UTC; nil when empty.
    public var localZoneOffsetMinutes: Int?

    public init() {}

    static func parse(_ s: inout FieldScanner) -> ZDA {
        var z = ZDA()
        z.time = s.time()
        let day = s.integer(maxDigits: 2), month = s.integer(maxDigits: 2), year = s.integer(maxDigits: 4)
        s.requireFieldsPresent()
        if let day, let month, let year {
            if (1980...2200).contains(year), (1...12).contains(month),
               day >= 1, day <= NMEADate.daysInMonth(month, year: year) {
                z.date = NMEADate(year: year, month: month, day: day, hasCentury: true)
            } else {
                s.fail(.outOfRange)
            }
        }
        // Zone hours may be signed ("-05"); minutes take the hours' sign.
        if let hours = s.decimal(in: -13...13) {
            let minutes = s.integer(maxDigits: 2) ?? 0
            guard minutes < 60, hours == hours.rounded() else { s.fail(.outOfRange); return z }
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

    static func parse(_ s: inout FieldScanner) -> GST {
        var g = GST()
        g.time = s.time()
        let meters: ClosedRange<Double> = 0...1_000_000
        g.ellipse.rangeRMSMeters = s.decimal(in: meters)
        g.ellipse.semiMajorMeters = s.decimal(in: meters)
        g.ellipse.semiMinorMeters = s.decimal(in: meters)
        g.ellipse.orientationDegrees = s.course()
        g.ellipse.latitudeSigmaMeters = s.decimal(in: meters)
        g.ellipse.longitudeSigmaMeters = s.decimal(in: meters)
        g.ellipse.altitudeSigmaMeters = s.decimal(in: meters)
        s.requireFieldsPresent()
        return g
    }
}
