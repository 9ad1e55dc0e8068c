/// Turns receiver dates into days since 1970-01-01, resolving the two classic NMEA date ambiguities
/// against a pivot (as ntpd's `basedate` and receiver firmware do), so the window moves forward with
/// the software instead of being fixed in it.
///
/// - **Two-digit years** (RMC `ddmmyy`) lie in the century around the pivot: `[pivot year − 50,
///   pivot year + 50)`; with a 2026 pivot `80` is 1980 and `00` is 2000, with a 2075 pivot `80` is
///   2080 and `00` is 2100.
/// - **GPS week rollover**: the GPS week counter has 10 bits and wraps every 1024 weeks (7168 days:
///   1999-08-22, 2019-04-07, 2038-11-21). A receiver that lost a rollover reports dates exactly 1024
///   weeks (or a multiple) too early. A date before the *floor* is moved forward by 1024 weeks until
///   it is not:
///   - **live** (a receiver on the board): the floor is the pivot, by default the day puckd was built
///     (a receiver cannot be reporting a day before the software reading it existed), so dates
///     resolve into `[pivot, pivot + 1024 weeks)` — 19.6 years of service after each build;
///   - **recording** (`puckd replay`, the simulated board's log): old logs are real old logs, so the
///     floor is the GPS epoch (1980-01-06) and the log's own dates: a date more than half a rollover
///     period (512 weeks) before the stream's previous date is that date's rollover (a receiver that
///     cold-booted into 1999 in the middle of a 2019 recording), and moved forward.
///   A live stream's own dates do not move its floor: one glitched date must not carry every later
///   one forward for the rest of the run (the pivot alone is the floor there).
///
/// Results stay within `latestDays` (2262-01-01, where nanoseconds since 1970 leave `Int64`): a
/// correction that would pass it is not applied, and a day beyond it is not a date (`days` says nil).
/// Allocation-free; `days(for:)` remembers the previous date of the stream.
public struct UTCDateResolver: Sendable, Equatable {
    /// How dates are resolved: against a fixed pivot (live receivers) or against the log itself.
    public enum Policy: Sendable, Equatable {
        /// A receiver on the board: dates before `pivotDays` lost a rollover.
        case live(pivotDays: Int64)
        /// A recorded log: dates are the log's own, corrected only against its earlier dates.
        case recording
    }

    /// 1024 GPS weeks, in days.
    public static let weekRolloverDays: Int64 = 7168
    /// The GPS epoch, 1980-01-06, in days since 1970-01-01: no GPS date is earlier.
    public static let gpsEpochDays: Int64 = CivilDate.daysSinceEpoch(year: 1980, month: 1, day: 6)
    /// 2262-01-01 in days since 1970-01-01: the first day whose nanoseconds since 1970 need care in
    /// `Int64` (the limit is 2262-04-11); no resolved date reaches it.
    public static let latestDays: Int64 = CivilDate.daysSinceEpoch(year: 2262, month: 1, day: 1)

    /// The policy.
    public var policy: Policy
    /// Two-digit years lie in `[centuryPivotYear − 50, centuryPivotYear + 50)`.
    public var centuryPivotYear: Int
    /// The previous date resolved in this stream, days since 1970-01-01.
    public private(set) var previousDays: Int64?

    /// A resolver for recorded logs (the default of the NMEA pipeline): dates are kept as the log has
    /// them, two-digit years taken in 1980…2079 (GPS dates start in 1980).
    public init() {
        policy = .recording
        centuryPivotYear = 2030
    }

    /// A resolver with `policy`; two-digit years are placed around `centuryPivotYear` (default: the
    /// pivot's year for live receivers, 2030 for recordings: 1980…2079).
    public init(policy: Policy, centuryPivotYear: Int? = nil) {
        self.policy = policy
        switch policy {
        case .live(let pivot): self.centuryPivotYear = centuryPivotYear ?? Int(CivilDate.fromDaysSinceEpoch(
            min(max(pivot, Self.gpsEpochDays), Self.latestDays)).year)
        case .recording: self.centuryPivotYear = centuryPivotYear ?? 2030
        }
    }

    /// The full year of `date` (four-digit years as sent; two-digit ones in the pivot's century).
    public func fullYear(_ date: NMEADate) -> Int {
        if date.hasCentury { return date.year }
        // date.year is 0…99 (two digits); the window's first year decides the century.
        let first = centuryPivotYear - 50
        var year = first - ((first % 100) + 100) % 100 + date.year
        if year < first { year += 100 }
        return year
    }

    /// The lowest day a date may resolve to before a rollover correction is applied.
    public var floorDays: Int64 {
        switch policy {
        case .live(let pivot):
            return max(Self.gpsEpochDays, min(pivot, Self.latestDays - Self.weekRolloverDays))
        case .recording:
            guard let previous = previousDays else { return Self.gpsEpochDays }
            return max(Self.gpsEpochDays, previous - Self.weekRolloverDays / 2)
        }
    }

    /// Days since 1970-01-01 for `date` and how many 1024-week corrections were applied; remembers
    /// the result as the stream's previous date. nil for a day past `latestDays` (not remembered).
    public mutating func days(for date: NMEADate) -> (days: Int64, rolloverCorrections: Int)? {
        // Year: ZDA gives 1980…2200 and two-digit years lie within 50 years of a pivot in 1980…2262,
        // so the civil-date arithmetic stays far inside Int64 (bounded by construction).
        var days = CivilDate.daysSinceEpoch(year: Int64(fullYear(date)), month: Int64(date.month),
                                            day: Int64(date.day))
        guard days < Self.latestDays else { return nil }
        let floor = floorDays
        var corrections = 0
        if days < floor {
            // The fewest whole rollovers that bring the date to the floor or after it.
            let needed = (floor - days + Self.weekRolloverDays - 1) / Self.weekRolloverDays
            let corrected = days + needed * Self.weekRolloverDays
            if corrected < Self.latestDays {
                days = corrected
                corrections = Int(needed)     // ≤ (latestDays − gpsEpochDays) / 7168 ≈ 14
            }
        }
        previousDays = days
        return (days, corrections)
    }

    /// Nanoseconds since 1970-01-01 of `timeOfDayNanoseconds` (0 ..< 86 401 s) on `days`, or nil when
    /// the day is before 1970 or not before `latestDays` (a day carried across midnight too many times
    /// by a hostile stream). Every result lies in 0 ..< 9.2e18, so the difference of two fits `Int64`.
    public static func utcNanoseconds(days: Int64, timeOfDayNanoseconds: Int64) -> Int64? {
        guard days >= 0, days < latestDays, timeOfDayNanoseconds >= 0,
              timeOfDayNanoseconds < 86_401_000_000_000 else { return nil }
        return days * 86_400_000_000_000 + timeOfDayNanoseconds
    }
}
