/// A UTC time of day as sent in NMEA `hhmmss.sss` fields.
public struct UTCTimeOfDay: Sendable, Equatable, Hashable, Comparable {
    /// Nanoseconds since midnight UTC, 0 ..< 86_401 s. The leap second `23:59:60.x` is 86_400.x s.
    public var nanoseconds: Int64

    /// A time of day in nanoseconds since midnight (0 ..< 86_401 s).
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// A time of day from its parts; `second` may be 60 only at 23:59 (a leap second).
    public init(hour: Int, minute: Int, second: Int, nanosecond: Int64 = 0) {
        nanoseconds = Int64(hour * 3600 + minute * 60 + second) * 1_000_000_000 + nanosecond
    }

    /// True for `23:59:60.x`, the inserted leap second.
    public var isLeapSecond: Bool { nanoseconds >= 86_400_000_000_000 }

    public static func < (a: Self, b: Self) -> Bool { a.nanoseconds < b.nanoseconds }
}

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

/// The NMEA 2.3+ mode indicator (RMC/GLL/VTG/GNS field "FAA mode"): how a position was obtained.
public enum PositioningMode: UInt8, Sendable, Equatable {
    case autonomous = 65        // A
    case caution = 67           // C (Quectel: position of doubtful integrity)
    case differential = 68      // D
    case estimated = 69         // E (dead reckoning)
    case floatRTK = 70          // F
    case manual = 77            // M
    case notValid = 78          // N
    case precise = 80           // P
    case fixedRTK = 82          // R
    case simulator = 83         // S
    case unsafe = 85            // U (Quectel: position of doubtful integrity)

    /// True when the indicator says the position is usable.
    public var isValid: Bool { self != .notValid }

    /// The GGA-style quality this indicator corresponds to.
    public var quality: FixQuality {
        switch self {
        case .autonomous, .caution, .unsafe: .gps
        case .differential, .precise: .dgps
        case .estimated: .deadReckoning
        case .floatRTK: .rtkFloat
        case .fixedRTK: .rtkFixed
        case .manual: .manual
        case .simulator: .simulator
        case .notValid: .invalid
        }
    }
}
