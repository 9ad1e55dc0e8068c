import NMEA
import TestSupport

/// Fixes from a gpsd `gpsdecode -j` JSON-lines reference decode (`Tests/Fixtures/nmea/gpsd`): the TPV
/// reports that carry a time and a 2D/3D position, with their UTC time as the log time.
/// Test-only: a minimal scanner for the flat `"key":value` lines gpsd writes.
enum GpsdTPVLog {
    struct Entry {
        var logTimeNanoseconds: Int64
        var fix: Fix
    }

    static func load(_ name: String) -> [Entry] {
        guard let bytes = Fixtures.xzBytes("nmea/gpsd/\(name).gpsdecode.json.xz") else { return [] }
        var entries: [Entry] = []
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
            guard line.contains("\"class\":\"TPV\""), let time = string(line, "time"), let utc = parseISO(time),
                  let mode = number(line, "mode"), mode >= 2,
                  let lat = number(line, "lat"), let lon = number(line, "lon") else { continue }
            var fix = Fix(timeOfDayNanoseconds: utc % (86_400 * 1_000_000_000))
            fix.mode = mode >= 3 ? .threeD : .twoD
            fix.quality = .gps
            fix.latitudeDegrees = lat
            fix.longitudeDegrees = lon
            fix.utcNanoseconds = utc
            fix.speedMetersPerSecond = number(line, "speed")
            fix.courseDegrees = number(line, "track")
            fix.horizontalAccuracyMeters = number(line, "eph")
            entries.append(Entry(logTimeNanoseconds: utc, fix: fix))
        }
        return entries
    }

    private static func raw(_ line: Substring, _ key: String) -> Substring? {
        guard let r = line.firstRange(of: "\"\(key)\":") else { return nil }
        let rest = line[r.upperBound...]
        let end = rest.firstIndex(where: { $0 == "," || $0 == "}" }) ?? rest.endIndex
        return rest[..<end]
    }

    static func number(_ line: Substring, _ key: String) -> Double? { raw(line, key).flatMap { Double($0) } }

    static func string(_ line: Substring, _ key: String) -> String? {
        guard let v = raw(line, key), v.hasPrefix("\""), v.hasSuffix("\""), v.count >= 2 else { return nil }
        return String(v.dropFirst().dropLast())
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ` → nanoseconds since 1970.
    static func parseISO(_ s: String) -> Int64? {
        let parts = s.split(whereSeparator: { "-T:Z".contains($0) })
        guard parts.count >= 6, let y = Int64(parts[0]), let mo = Int64(parts[1]), let d = Int64(parts[2]),
              let h = Int64(parts[3]), let mi = Int64(parts[4]), let sec = Double(parts[5]) else { return nil }
        let days = CivilDate.daysSinceEpoch(year: y, month: mo, day: d)
        return (days * 86_400 + h * 3600 + mi * 60) * 1_000_000_000 + Int64((sec * 1e9).rounded())
    }
}
