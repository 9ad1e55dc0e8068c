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
