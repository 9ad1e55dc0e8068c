import NMEA

/// The journal as GeoJSON (RFC 7946, docs/track-log.md §6): a FeatureCollection with one Feature per
/// segment, its geometry a LineString of `[lon, lat(, alt)]` (a Point for a one-record segment, as a
/// LineString needs two positions), its properties the segment's sequence range and times and, per
/// position, the arrays `times`, `seq`, `speed`, `course`, `heading`, `accuracy`, `mode`, `sats`, `hdop`
/// (null where unknown). Pure.
public enum GeoJSONExport {
    public static func document(_ segments: [TrackSegmentContents]) -> String {
        var out = "{\"type\":\"FeatureCollection\",\"features\":["
        var firstFeature = true
        for segment in segments where !segment.records.isEmpty {
            if !firstFeature { out += "," }
            firstFeature = false
            out += feature(segment)
        }
        out += "]}\n"
        return out
    }

    static func feature(_ segment: TrackSegmentContents) -> String {
        let records = segment.records
        func position(_ r: TrackRecord) -> String {
            "[" + TrackNumberText.fixed(r.longitudeDegrees, decimals: 9) + "," + TrackNumberText.fixed(r.latitudeDegrees, decimals: 9)
                + (r.altitudeMSLMeters.map { "," + TrackNumberText.fixed($0, decimals: 3) } ?? "") + "]"
        }
        // RFC 7946 §3.1.1: all positions of a geometry have the same number of elements.
        let allAltitudes = records.allSatisfy { $0.altitudeMSLMeters != nil }
        func positionConsistent(_ r: TrackRecord) -> String {
            if allAltitudes { return position(r) }
            return "[" + TrackNumberText.fixed(r.longitudeDegrees, decimals: 9) + "," + TrackNumberText.fixed(r.latitudeDegrees, decimals: 9) + "]"
        }
        var s = "\n{\"type\":\"Feature\",\"geometry\":"
        if records.count == 1 {
            s += "{\"type\":\"Point\",\"coordinates\":" + positionConsistent(records[0]) + "}"
        } else {
            s += "{\"type\":\"LineString\",\"coordinates\":[" + records.map(positionConsistent).joined(separator: ",") + "]}"
        }
        s += ",\"properties\":{\"segment\":\"" + segment.name.fileName() + "\""
        s += ",\"firstSeq\":" + String(records[0].sequence) + ",\"lastSeq\":" + String(records[records.count - 1].sequence)
        s += ",\"start\":" + time(records.first!.utcNanoseconds) + ",\"end\":" + time(records.last!.utcNanoseconds)
        s += ",\"times\":" + array(records) { time($0.utcNanoseconds) }
        s += ",\"seq\":" + array(records) { String($0.sequence) }
        s += ",\"speed\":" + array(records) { number($0.speedMetersPerSecond, 3) }
        s += ",\"course\":" + array(records) { number($0.courseDegrees, 2) }
        s += ",\"heading\":" + array(records) { number($0.heading.degrees, 2) }
        s += ",\"headingSource\":" + array(records) { "\"" + GPXExport.sourceText($0.heading.source) + "\"" }
        s += ",\"accuracy\":" + array(records) { number($0.horizontalAccuracyMeters, 2) }
        s += ",\"mode\":" + array(records) { String($0.mode.rawValue) }
        s += ",\"sats\":" + array(records) { $0.satellitesUsed.map { String($0) } ?? "null" }
        s += ",\"hdop\":" + array(records) { number($0.hdop, 2) }
        s += "}}"
        return s
    }

    static func array(_ records: [TrackRecord], _ item: (TrackRecord) -> String) -> String {
        "[" + records.map(item).joined(separator: ",") + "]"
    }

    static func number(_ value: Double?, _ decimals: Int) -> String {
        value.map { TrackNumberText.fixed($0, decimals: decimals) } ?? "null"
    }

    static func time(_ t: Int64?) -> String { t.map { "\"" + TrackTimeText.iso8601(nanoseconds: $0) + "\"" } ?? "null" }
}
