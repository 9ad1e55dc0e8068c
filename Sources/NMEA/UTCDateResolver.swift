/// Turns receiver dates into days since 1970-01-01, fixing the two classic NMEA date problems.
///
/// - **Two-digit years** (RMC `ddmmyy`): `80...99` are 1980...1999 and `00...79` are 2000...2079
///   (GPS time starts in 1980; the same pivot gpsd uses).
/// - **GPS week rollover**: the GPS week counter has 10 bits and wraps every 1024 weeks (7168 days:
///   1999-08-22, 2019-04-07). Receivers with old firmware, or cold-booted without almanac, then report
///   dates exactly 1024 weeks too early (typically 1999-2006 after the 2019 rollover). A date before
///   `rolloverFloorDays` is "implausibly old" and moved forward by 1024 weeks (again if still too old).
///   The default floor is **2017-01-01**, gpsd's threshold: the GPS-UTC leap-second count became 18 on
///   that day, and a receiver reporting an earlier date alongside today's leap-second count has lost a
///   rollover. The price: a genuine recording from before 2017 replays 1024 weeks late (as with gpsd).
public struct UTCDateResolver: Sendable, Equatable {
    /// 1024 GPS weeks, in days.
    public static let weekRolloverDays: Int64 = 7168
    /// 2017-01-01 in days since 1970-01-01: the default floor.
    public static let defaultRolloverFloorDays: Int64 = CivilDate.daysSinceEpoch(year: 2017, month: 1, day: 1)

    /// Dates before this day (days since 1970-01-01) are corrected by 1024 weeks.
    public var rolloverFloorDays: Int64

    public init(rolloverFloorDays: Int64 = UTCDateResolver.defaultRolloverFloorDays) {
        self.rolloverFloorDays = rolloverFloorDays
    }

    /// The full year for a date as sent (two-digit years pivot at 80).
    public static func fullYear(_ date: NMEADate) -> Int {
        if date.hasCentury { return date.year }
        return date.year >= 80 ? 1900 + date.year : 2000 + date.year
    }

    /// Days since 1970-01-01 for `date`, and how many 1024-week corrections were applied.
    public func days(for date: NMEADate) -> (days: Int64, rolloverCorrections: Int) {
        var days = CivilDate.daysSinceEpoch(year: Int64(Self.fullYear(date)), month: Int64(date.month),
                                            day: Int64(date.day))
        var corrections = 0
        while days < rolloverFloorDays && corrections < 4 {
            days += Self.weekRolloverDays
            corrections += 1
        }
        return (days, corrections)
    }
}
