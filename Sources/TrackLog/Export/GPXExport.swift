import NMEA

/// The journal as GPX 1.1 (docs/track-log.md §6): one `trk`, one `trkseg` per segment, a `trkpt` per
/// record with `ele`, `time`, `fix`, `sat`, `hdop`, `vdop`, `pdop`; speed (m/s) and course (degrees)
/// in Garmin's TrackPointExtension v2 (the extension other GPX tools read), heading and sequence in
/// puckd's own namespace. Validates against the GPX 1.1 schema. Pure.
public enum GPXExport {
    public static let gpxNamespace = "http://www.topografix.com/GPX/1/1"
    public static let garminNamespace = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"
    public static let puckdNamespace = "https://github.com/puckd/puckd/xmlns/track/1"

    /// The GPX document of `segments`; `creator` names the program (`puckd 0.1.0`).
    public static func document(_ segments: [TrackSegmentContents], creator: String) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="\(escape(creator))" xmlns="\(gpxNamespace)"
                 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                 xmlns:gpxtpx="\(garminNamespace)" xmlns:puckd="\(puckdNamespace)"
                 xsi:schemaLocation="\(gpxNamespace) http://www.topografix.com/GPX/1/1/gpx.xsd \(garminNamespace) https://www8.garmin.com/xmlschemas/TrackPointExtensionv2.xsd">

            """
        if let first = segments.first?.records.first?.utcNanoseconds {
            out += "  <metadata><time>" + TrackTimeText.iso8601(nanoseconds: first) + "</time></metadata>\n"
        }
        out += "  <trk>\n    <name>puckd track</name>\n    <src>" + escape(creator) + "</src>\n"
        for segment in segments where !segment.records.isEmpty {
            out += "    <trkseg>\n"
            for r in segment.records { out += point(r) }
            out += "    </trkseg>\n"
        }
        out += "  </trk>\n</gpx>\n"
        return out
    }

    /// One `trkpt`, its children in the schema's order (wptType).
    static func point(_ r: TrackRecord) -> String {
        var s = "      <trkpt lat=\"" + TrackNumberText.fixed(r.latitudeDegrees, decimals: 9) + "\" lon=\""
            + TrackNumberText.fixed(r.longitudeDegrees, decimals: 9) + "\">"
        if let alt = r.altitudeMSLMeters { s += "<ele>" + TrackNumberText.fixed(alt, decimals: 3) + "</ele>" }
        if let t = r.utcNanoseconds { s += "<time>" + TrackTimeText.iso8601(nanoseconds: t) + "</time>" }
        s += "<fix>" + fixText(r) + "</fix>"
        if let sats = r.satellitesUsed { s += "<sat>" + String(sats) + "</sat>" }
        if let v = r.hdop { s += "<hdop>" + TrackNumberText.fixed(v, decimals: 2) + "</hdop>" }
        if let v = r.vdop { s += "<vdop>" + TrackNumberText.fixed(v, decimals: 2) + "</vdop>" }
        if let v = r.pdop { s += "<pdop>" + TrackNumberText.fixed(v, decimals: 2) + "</pdop>" }
        s += "<extensions>"
        if r.speedMetersPerSecond != nil || r.courseDegrees != nil {
            s += "<gpxtpx:TrackPointExtension>"
            if let v = r.speedMetersPerSecond { s += "<gpxtpx:speed>" + TrackNumberText.fixed(v, decimals: 3) + "</gpxtpx:speed>" }
            if let v = r.courseDegrees { s += "<gpxtpx:course>" + TrackNumberText.fixed(v, decimals: 2) + "</gpxtpx:course>" }
            s += "</gpxtpx:TrackPointExtension>"
        }
        s += "<puckd:seq>" + String(r.sequence) + "</puckd:seq>"
        if let h = r.heading.degrees {
            s += "<puckd:heading source=\"" + sourceText(r.heading.source) + "\">" + TrackNumberText.fixed(h, decimals: 2)
                + "</puckd:heading>"
        }
        if let a = r.horizontalAccuracyMeters { s += "<puckd:accuracy>" + TrackNumberText.fixed(a, decimals: 2) + "</puckd:accuracy>" }
        s += "</extensions></trkpt>\n"
        return s
    }

    /// GPX's fixType: none, 2d, 3d, dgps, pps.
    static func fixText(_ r: TrackRecord) -> String {
        switch r.quality {
        case .dgps, .rtkFixed, .rtkFloat: return "dgps"
        case .pps: return "pps"
        default: return r.mode == .threeD ? "3d" : "2d"
        }
    }

    /// The names the exports use for a heading's source.
    public static func sourceText(_ source: TrackHeadingSource) -> String {
        switch source {
        case .none: return "none"
        case .imu: return "imu"
        case .gnssTrueHeading: return "gnss"
        case .course: return "course"
        }
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
