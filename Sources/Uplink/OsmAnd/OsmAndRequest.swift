import TrackLog

/// Traccar's OsmAnd protocol requests (docs/uplink.md §4), written into a caller-owned buffer: the query
/// form every Traccar version accepts, and the JSON body newer servers accept (their phone client's).
public enum OsmAndRequest {
    /// Which form of the request.
    public enum Form: Sendable, Equatable {
        /// `GET /?id=…&lat=…&lon=…&timestamp=…&speed=…&bearing=…&altitude=…&accuracy=…&hdop=…&seq=…`.
        case query
        /// `POST /` with `Content-Type: application/json` and the `{"device_id":…,"location":{…}}` body.
        case json
    }

    /// Largest request for a device id and host of up to 64 bytes each.
    public static let maximumByteCount = 768
    static let metersPerSecondToKnots = 3600.0 / 1852.0

    /// One request for one record. `host` is the Host header value (`host` or `host:port`).
    public static func write(_ record: TrackRecord, form: Form, deviceIdentifier: UnsafeRawBufferPointer,
                             host: UnsafeRawBufferPointer, into out: inout UplinkByteWriter) {
        switch form {
        case .query: query(record, deviceIdentifier, host, &out)
        case .json: json(record, deviceIdentifier, host, &out)
        }
    }

    static func query(_ r: TrackRecord, _ id: UnsafeRawBufferPointer, _ host: UnsafeRawBufferPointer, _ out: inout UplinkByteWriter) {
        out.text("GET /?id=")
        out.bytes(id)
        out.text("&lat=")
        out.append(jsonNumber: r.latitudeDegrees, decimals: 7)
        out.text("&lon=")
        out.append(jsonNumber: r.longitudeDegrees, decimals: 7)
        if let utc = r.utcNanoseconds {
            out.text("&timestamp=")
            out.append(int: utc >= 0 ? utc / 1_000_000_000 : (utc - 999_999_999) / 1_000_000_000)
        }
        if let speed = r.speedMetersPerSecond, speed.isFinite {
            out.text("&speed=")
            out.append(jsonNumber: speed * metersPerSecondToKnots, decimals: 2)
        }
        if let bearing = r.heading.degrees ?? r.courseDegrees, bearing.isFinite {
            out.text("&bearing=")
            out.append(jsonNumber: bearing, decimals: 1)
        }
        if let altitude = r.altitudeMSLMeters, altitude.isFinite {
            out.text("&altitude=")
            out.append(jsonNumber: altitude, decimals: 2)
        }
        if let accuracy = r.horizontalAccuracyMeters, accuracy.isFinite {
            out.text("&accuracy=")
            out.append(jsonNumber: accuracy, decimals: 1)
        }
        if let hdop = r.hdop, hdop.isFinite {
            out.text("&hdop=")
            out.append(jsonNumber: hdop, decimals: 2)
        }
        if let sats = r.satellitesUsed {
            out.text("&sat=")
            out.append(int: Int64(sats))
        }
        out.text("&seq=")
        out.append(uint: r.sequence)
        out.text(" HTTP/1.1\r\nHost: ")
        out.bytes(host)
        out.text("\r\nUser-Agent: puckd\r\nConnection: keep-alive\r\n\r\n")
    }

    static func json(_ r: TrackRecord, _ id: UnsafeRawBufferPointer, _ host: UnsafeRawBufferPointer, _ out: inout UplinkByteWriter) {
        out.text("POST / HTTP/1.1\r\nHost: ")
        out.bytes(host)
        out.text("\r\nUser-Agent: puckd\r\nContent-Type: application/json\r\nConnection: keep-alive\r\nContent-Length: ")
        // Four digits, patched once the body is written (RFC 9110 §8.6: 1*DIGIT, leading zeros allowed).
        let lengthAt = out.count
        out.text("0000\r\n\r\n")
        let bodyStart = out.count
        out.text("{\"device_id\":\"")
        out.bytes(id)
        out.text("\",\"location\":{\"timestamp\":")
        PositionPayload.time(r.utcNanoseconds, &out)
        out.text(",\"coords\":{\"latitude\":")
        out.append(jsonNumber: r.latitudeDegrees, decimals: 7)
        out.text(",\"longitude\":")
        out.append(jsonNumber: r.longitudeDegrees, decimals: 7)
        out.text(",\"accuracy\":")
        PositionPayload.optional(r.horizontalAccuracyMeters, 1, &out)
        out.text(",\"speed\":")
        PositionPayload.optional(r.speedMetersPerSecond, 2, &out)
        out.text(",\"heading\":")
        PositionPayload.optional(r.heading.degrees ?? r.courseDegrees, 1, &out)
        out.text(",\"altitude\":")
        PositionPayload.optional(r.altitudeMSLMeters, 2, &out)
        out.text("},\"is_moving\":")
        if (r.speedMetersPerSecond ?? 0) > 0.5 { out.text("true") } else { out.text("false") }
        out.text(",\"extras\":{\"seq\":")
        out.append(uint: r.sequence)
        out.text("}}}")
        guard !out.overflowed else { return }
        var length = out.count - bodyStart
        var k = 3
        while k >= 0 {
            out.patch(0x30 + UInt8(length % 10), at: lengthAt + k)
            length /= 10
            k -= 1
        }
    }
}
