import Testing
import TestSupport
import Console
import TrackLog
@testable import Uplink

/// The position JSON (docs/uplink.md §3), Traccar's OsmAnd requests (§4) and the HTTP/1.1 response parser.
@Suite struct PayloadAndOsmAndTests {
    @Test func theJSONPayloadHasEveryDocumentedField() {
        let json = text(written { PositionPayload.write(sampleRecord(), into: &$0) })
        #expect(json == #"{"seq":42,"time":"2020-03-18T13:28:19.600Z","lat":41.5749658,"lon":-93.7505719,"alt":278.16,"#
            + #""speed":0.08,"course":124.9,"heading":259.4,"accuracy":1.8,"mode":"3d","sats":10}"#)
        var bare = sampleRecord(sequence: 1)
        bare.utcNanoseconds = nil; bare.altitudeMSLMeters = nil; bare.speedMetersPerSecond = nil; bare.courseDegrees = nil
        bare.heading = TrackHeading(); bare.horizontalAccuracyMeters = nil; bare.satellitesUsed = nil; bare.mode = .twoD
        #expect(text(written { PositionPayload.write(bare, into: &$0) }) == #"{"seq":1,"time":null,"lat":41.5749658,"#
            + #""lon":-93.7505719,"alt":null,"speed":null,"course":null,"heading":null,"accuracy":null,"mode":"2d","sats":null}"#)
    }

    @Test func thePayloadIsJSONForPython() throws {
        var record = sampleRecord(sequence: 18_446_744_073_709_551_000)
        record.latitudeDegrees = -0.00000004
        record.longitudeDegrees = 179.99999996
        let json = written { PositionPayload.write(record, into: &$0) }
        #expect(json.count <= PositionPayload.maximumByteCount)
        let check = try #require(runProcess(["python3", "-c", "import json,sys; d=json.load(sys.stdin); print(d['seq'], d['lat'], d['lon'])"],
                                            input: json))
        #expect(check.status == 0, "\(check.errorOutput)")
        #expect(check.output == "18446744073709551000 0.0 180.0\n", "\(check.output)")
    }

    @Test func isoTimesAcrossDatesAndBeforeTheEpoch() {
        #expect(text(written { $0.append(isoTime: 0, fractionDigits: 3) }) == "1970-01-01T00:00:00.000Z")
        #expect(text(written { $0.append(isoTime: -1_000_000, fractionDigits: 3) }) == "1969-12-31T23:59:59.999Z")
        #expect(text(written { $0.append(isoTime: 951_782_400_000_000_000, fractionDigits: 0) }) == "2000-02-29T00:00:00Z")
        // The payload's time is the millisecond the fix was in, never rounded up to the next one.
        var late = sampleRecord()
        late.utcNanoseconds = 1_584_538_099_999_900_000
        #expect(text(written { PositionPayload.write(late, into: &$0) }).contains(#""time":"2020-03-18T13:28:19.999Z""#))
    }

    @Test func theOsmAndQueryRequest() {
        let id = Array("puck1".utf8), host = Array("traccar.example:5055".utf8)
        let request = text(id.withUnsafeBytes { i in host.withUnsafeBytes { h in
            written { OsmAndRequest.write(sampleRecord(), form: .query, deviceIdentifier: i, host: h, into: &$0) }
        } })
        #expect(request == "GET /?id=puck1&lat=41.5749658&lon=-93.7505719&timestamp=1584538099&speed=0.15&bearing=259.4"
            + "&altitude=278.16&accuracy=1.8&hdop=0.90&sat=10&seq=42 HTTP/1.1\r\nHost: traccar.example:5055\r\n"
            + "User-Agent: puckd\r\nConnection: keep-alive\r\n\r\n")
    }

    @Test func theOsmAndJSONRequestHasAMatchingContentLength() throws {
        let id = Array("puck1".utf8), host = Array("h".utf8)
        let request = text(id.withUnsafeBytes { i in host.withUnsafeBytes { h in
            written { OsmAndRequest.write(sampleRecord(), form: .json, deviceIdentifier: i, host: h, into: &$0) }
        } })
        let parts = request.split(separator: "\r\n\r\n", maxSplits: 1).map(String.init)
        #expect(parts[0].hasPrefix("POST / HTTP/1.1\r\n") && parts[0].contains("Content-Type: application/json"))
        #expect(parts[0].contains("Content-Length: 0\(parts[1].utf8.count)"))
        #expect(parts[1] == #"{"device_id":"puck1","location":{"timestamp":"2020-03-18T13:28:19.600Z","coords":{"latitude":41.5749658,"#
            + #""longitude":-93.7505719,"accuracy":1.8,"speed":0.08,"heading":259.4,"altitude":278.16},"is_moving":false,"extras":{"seq":42}}}"#)
    }

    func parse(_ response: String, chunk: Int = 1000, closeAtEnd: Bool = false) -> ([HTTPResponseHead], HTTPResponseError?) {
        var parser = HTTPResponseParser()
        var heads: [HTTPResponseHead] = []
        let bytes = Array(response.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(start + chunk, bytes.count)
            if let error = bytes[start..<end].withUnsafeBytes({ parser.feed($0) { heads.append($0) } }) { return (heads, error) }
            start = end
        }
        if closeAtEnd { parser.connectionClosed { heads.append($0) } }
        return (heads, nil)
    }

    @Test func responsesByLengthByChunksAndByCloseWhateverTheReadBoundaries() {
        let pipelined = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
            + "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"
            + "HTTP/1.1 500 Internal Server Error\r\ntransfer-encoding: chunked\r\nX-Long: " + String(repeating: "x", count: 300)
            + "\r\n\r\n4\r\noops\r\n1a;ext=1\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nTrailer: t\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
        for chunk in [1, 2, 3, 7, 100, 5000] {
            let (heads, error) = parse(pipelined, chunk: chunk)
            #expect(error == nil)
            #expect(heads == [HTTPResponseHead(statusCode: 200, keepAlive: true), HTTPResponseHead(statusCode: 204, keepAlive: true),
                              HTTPResponseHead(statusCode: 500, keepAlive: true), HTTPResponseHead(statusCode: 200, keepAlive: false)],
                    "chunk \(chunk)")
        }
        let (closeDelimited, _) = parse("HTTP/1.0 200 OK\r\n\r\nbody until the close", closeAtEnd: true)
        #expect(closeDelimited == [HTTPResponseHead(statusCode: 200, keepAlive: false)])
        let (http10, _) = parse("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\nok")
        #expect(http10 == [HTTPResponseHead(statusCode: 200, keepAlive: true)])
    }

    @Test func garbageIsAnError() {
        #expect(parse("SSH-2.0-OpenSSH_9.2\r\n").1 == .malformedStatusLine)
        #expect(parse("HTTP/1.1 2x0 OK\r\n").1 == .malformedStatusLine)
        #expect(parse("HTTP/1.1 200 OK\r\nno colon here\r\n").1 == .malformedHeader)
        #expect(parse("HTTP/1.1 200 OK\r\nContent-Length: 12a\r\n").1 == .malformedHeader)
        #expect(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n").1 == .malformedChunk)
        var random = SeededRandom(seed: 3)
        for _ in 0..<2000 {
            var parser = HTTPResponseParser()
            let bytes = (0..<random.below(200)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            _ = bytes.withUnsafeBytes { parser.feed($0) { _ in } }
        }
    }
}
