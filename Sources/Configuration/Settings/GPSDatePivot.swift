import CBundledData
import NMEA

/// `[gps] date_pivot`: what receiver dates are resolved against (GPS week rollover, two-digit years;
/// `UTCDateResolver`), like ntpd's `basedate`: the day puckd was built, a given day, or the log's own
/// dates (for a recorded log fed through a live source, as the hardware-in-the-loop rig does).
public enum GPSDatePivot: Sendable, Equatable {
    /// The build date (the default): a live receiver cannot report a day before it.
    case build
    /// This day, days since 1970-01-01.
    case day(Int64)
    /// Trust the stream's dates as `puckd replay` does (only its own earlier dates correct them).
    case log

    /// The day puckd was compiled, days since 1970-01-01.
    public static var buildDays: Int64 {
        CivilDate.daysSinceEpoch(year: Int64(puckd_build_year()), month: Int64(puckd_build_month()),
                                 day: Int64(puckd_build_day()))
    }

    /// The day puckd was compiled, `YYYY-MM-DD`.
    public static var buildDateText: String { dateText(buildDays) }

    /// The date resolver for a source: recorded logs (a FILE source, the simulated board's log, or
    /// `log`) keep their own dates; live receivers are resolved against the pivot day.
    public func resolver(recorded: Bool) -> UTCDateResolver {
        switch self {
        case .log: return UTCDateResolver(policy: .recording)
        case _ where recorded: return UTCDateResolver(policy: .recording)
        case .build: return UTCDateResolver(policy: .live(pivotDays: Self.buildDays))
        case .day(let days): return UTCDateResolver(policy: .live(pivotDays: days))
        }
    }

    /// The spelling in the file: `build`, `log` or `YYYY-MM-DD`.
    public var text: String {
        switch self {
        case .build: return "build"
        case .log: return "log"
        case .day(let days): return Self.dateText(days)
        }
    }

    /// Allowed pivot days: the GPS epoch to 2200 (ZDA's last year), so resolved dates stay in range.
    static let allowedYears: ClosedRange<Int> = 1980...2200

    /// Parses `build`, `log` or a `YYYY-MM-DD` day in 1980…2200.
    public static func parse(_ text: String) -> Result<GPSDatePivot, ConfigurationProblem> {
        switch text {
        case "build": return .success(.build)
        case "log": return .success(.log)
        default: break
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else {
            return .failure(.invalid("not a pivot, write build, log or a day as YYYY-MM-DD"))
        }
        guard allowedYears.contains(year), (1...12).contains(month), day >= 1 else { return .failure(.outOfRange) }
        let days = CivilDate.daysSinceEpoch(year: Int64(year), month: Int64(month), day: Int64(day))
        // A day past the month's end (2026-02-30) comes back as another date: refused.
        let back = CivilDate.fromDaysSinceEpoch(days)
        guard back.month == Int64(month), back.day == Int64(day) else { return .failure(.outOfRange) }
        return .success(.day(days))
    }

    static func dateText(_ days: Int64) -> String {
        let (y, m, d) = CivilDate.fromDaysSinceEpoch(days)
        func two(_ v: Int64) -> String { v < 10 ? "0" + String(v) : String(v) }
        return String(y) + "-" + two(m) + "-" + two(d)
    }
}
