import Console
import NMEA

/// ISO 8601 UTC times as the exports write them (`2020-03-18T13:28:26.500Z`) and as `--from`/`--to`
/// accept them (`2020-03-18`, `2020-03-18T13:28`, `2020-03-18T13:28:26[.5][Z]`, or seconds since 1970 `@1584538106`).
public enum TrackTimeText {
    /// The UTC day (days since 1970-01-01, NMEA's `CivilDate` counts them) of a UTC time in nanoseconds.
    public static func utcDay(nanoseconds: Int64) -> Int32 {
        let day = nanoseconds >= 0 ? nanoseconds / 86_400_000_000_000 : (nanoseconds + 1) / 86_400_000_000_000 - 1
        return Int32(clamping: day)
    }

    /// Formats with millisecond precision, the milliseconds truncated (as the exports always wrote them),
    /// through puckd's one time formatter (Console's `TextByteSink.append(isoTime:)`).
    public static func iso8601(nanoseconds: Int64) -> String {
        var text = OutputBuffer(capacity: 40)
        text.append(isoTime: millisecondFloor(nanoseconds: nanoseconds), fractionDigits: 3)
        return text.string
    }

    /// The time cut down to its millisecond (towards the past, before 1970 too): exports and uplink
    /// payloads write the millisecond a fix was in, never a rounded-up one.
    public static func millisecondFloor(nanoseconds: Int64) -> Int64 {
        let belowMillisecond = nanoseconds % 1_000_000
        return nanoseconds - (belowMillisecond < 0 ? belowMillisecond + 1_000_000 : belowMillisecond)
    }

    /// Parses a `--from`/`--to` time; nil when it is none of the accepted forms.
    public static func parse(_ text: String) -> Int64? {
        if text.hasPrefix("@") {
            guard let seconds = Double(text.dropFirst()), seconds.isFinite, abs(seconds) < 9e9 else { return nil }
            return Int64((seconds * 1e9).rounded())
        }
        var s = Substring(text)
        if s.hasSuffix("Z") { s = s.dropLast() }
        let parts = s.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard date.count == 3, date[0].count == 4, date[1].count == 2, date[2].count == 2,
              let year = Int(date[0]), let month = Int(date[1]), let day = Int(date[2]),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        var nanoseconds = CivilDate.daysSinceEpoch(year: Int64(year), month: Int64(month), day: Int64(day)) * 86_400_000_000_000
        if parts.count == 2 {
            let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(clock.count), clock[0].count == 2, clock[1].count == 2,
                  let hours = Int(clock[0]), let minutes = Int(clock[1]), (0..<24).contains(hours), (0..<60).contains(minutes)
            else { return nil }
            var seconds = 0.0
            if clock.count == 3 {
                guard let sec = Double(clock[2]), sec >= 0, sec < 61, clock[2].first != "+" else { return nil }
                seconds = sec
            }
            nanoseconds += Int64(hours * 3600 + minutes * 60) * 1_000_000_000 + Int64((seconds * 1e9).rounded())
        }
        return nanoseconds
    }
}
