import NMEA
import TrackLog

/// The JSON object puckd publishes per position (docs/uplink.md §3): one journal record, written into a
/// caller-owned buffer without allocating. Absent values are `null`, never 0.
public enum PositionPayload {
    /// Largest payload: every field present at its widest (about 230 bytes).
    public static let maximumByteCount = 320

    /// `{"seq":…,"time":"2020-03-18T13:28:19.600Z","lat":…,"lon":…,"alt":…,"speed":…,"course":…,
    /// "heading":…,"accuracy":…,"mode":"3d","sats":…}`; speed in m/s, angles in degrees from true north.
    public static func write(_ record: TrackRecord, into out: inout UplinkByteWriter) {
        out.text("{\"seq\":")
        out.append(uint: record.sequence)
        out.text(",\"time\":")
        time(record.utcNanoseconds, &out)
        out.text(",\"lat\":")
        out.append(jsonNumber: record.latitudeDegrees, decimals: 7)
        out.text(",\"lon\":")
        out.append(jsonNumber: record.longitudeDegrees, decimals: 7)
        out.text(",\"alt\":")
        optional(record.altitudeMSLMeters, 2, &out)
        out.text(",\"speed\":")
        optional(record.speedMetersPerSecond, 2, &out)
        out.text(",\"course\":")
        optional(record.courseDegrees, 1, &out)
        out.text(",\"heading\":")
        optional(record.heading.degrees, 1, &out)
        out.text(",\"accuracy\":")
        optional(record.horizontalAccuracyMeters, 1, &out)
        out.text(",\"mode\":")
        switch record.mode {
        case .noFix: out.text("\"none\"")
        case .twoD: out.text("\"2d\"")
        case .threeD: out.text("\"3d\"")
        }
        out.text(",\"sats\":")
        if let sats = record.satellitesUsed { out.append(int: Int64(sats)) } else { out.text("null") }
        out.byte(0x7D)
    }

    /// A JSON string of the ISO 8601 UTC time, or `null`.
    static func time(_ utc: Int64?, _ out: inout UplinkByteWriter) {
        guard let utc else { out.text("null"); return }
        out.byte(0x22)
        out.append(isoTime: TrackTimeText.millisecondFloor(nanoseconds: utc), fractionDigits: 3)
        out.byte(0x22)
    }

    static func optional(_ value: Double?, _ digits: Int, _ out: inout UplinkByteWriter) {
        if let value, value.isFinite { out.append(jsonNumber: value, decimals: digits) } else { out.text("null") }
    }
}
