import NMEA

/// One JSON line per epoch, in the format `compare_fixes.py` scores against gpsd's TPV reports:
/// `{"time":"2019-04-12T03:14:15.250Z","lat":-45.877591500,"lon":170.500124833,"alt":12.3000,
///   "speed":0.0510,"track":271.5000,"mode":3,"eph":2.100,"epv":3.400}`
///
/// `time` is ISO 8601 UTC with milliseconds; `lat`/`lon` degrees with 9 decimals (gpsd's precision,
/// 0.1 mm); `alt` metres above mean sea level with 4 decimals; `speed` m/s and `track` degrees true with
/// 4 decimals; `mode` 1 no fix, 2 2D, 3 3D; `eph`/`epv` metres with 3 decimals (see `AccuracyModel`).
/// Unknown values are left out, never written as zero. Allocation-free.
public enum FixJSON {
    /// Appends the line for `fix` (with a trailing newline) and returns true, or returns false and
    /// appends nothing when the fix has no date yet (the format requires a full UTC time).
    @discardableResult
    public static func append(_ fix: borrowing Fix, to out: inout OutputBuffer) -> Bool {
        guard let utc = fix.utcNanoseconds else { return false }
        out.append("{\"time\":\"")
        out.append(isoTime: utc, fractionDigits: 3)
        out.append(UInt8(ascii: "\""))
        if fix.mode != .noFix {
            number("lat", fix.latitudeDegrees, decimals: 9, to: &out)
            number("lon", fix.longitudeDegrees, decimals: 9, to: &out)
            number("alt", fix.altitudeMSLMeters, decimals: 4, to: &out)
            number("speed", fix.speedMetersPerSecond, decimals: 4, to: &out)
            number("track", fix.courseDegrees, decimals: 4, to: &out)
        }
        out.append(",\"mode\":")
        out.append(int: Int64(fix.mode.rawValue))
        number("eph", fix.horizontalAccuracyMeters, decimals: 3, to: &out)
        number("epv", fix.verticalAccuracyMeters, decimals: 3, to: &out)
        out.append("}\n")
        return true
    }

    private static func number(_ key: StaticString, _ value: Double?, decimals: Int, to out: inout OutputBuffer) {
        guard let value, value.isFinite else { return }
        out.append(",\"")
        out.append(key)
        out.append("\":")
        out.append(value, decimals: decimals)
    }
}
