/// A calendar date as sent by a receiver: RMC's `ddmmyy` (two-digit year) or ZDA's four-digit year.
public struct NMEADate: Sendable, Equatable, Hashable {
    /// The year as sent: 0...99 when `hasCentury` is false, else the full year.
    public var year: Int
    /// Month, 1...12.
    public var month: Int
    /// Day of month, 1...31 (checked against the month's length).
    public var day: Int
    /// True when the year has four digits (ZDA); false for RMC's two-digit year.
    public var hasCentury: Bool

    public init(year: Int, month: Int, day: Int, hasCentury: Bool) {
        self.year = year
        self.month = month
        self.day = day
        self.hasCentury = hasCentury
    }

    /// Days in `month` of `year` (proleptic Gregorian); two-digit years are taken as 20yy for leap years.
    static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2:
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 || (year < 100 && year % 4 == 0)
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
