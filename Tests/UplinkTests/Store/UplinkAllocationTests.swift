import Testing
import TestSupport
import TrackLog
@testable import Uplink

/// After start-up a message costs no allocation (docs/uplink.md §6): the forwarder's choice, the payload,
/// the PUBLISH, the PUBACK decoded and matched, keep-alive, the OsmAnd request and its response parsed.
/// Counted with TestSupport's thread-local malloc counter, in debug and release builds.
@Suite(.serialized) struct UplinkAllocationTests {
    @Test func aPublishedAndAcknowledgedMessageAllocatesNothing() {
        let topic = Array("puckd/puck1/position".utf8), id = Array("puck1".utf8), host = Array("127.0.0.1:5055".utf8)
        let status = Array("puckd/puck1/status".utf8), offline = Array("offline".utf8)
        var packet = [UInt8](repeating: 0, count: 1024), payload = [UInt8](repeating: 0, count: PositionPayload.maximumByteCount)
        let response = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8)
        var session = MQTTSession(keepAliveSeconds: 30)
        var forwarder = UplinkForwarder(cursor: 0, window: 16)
        var parser = HTTPResponseParser()
        var record = sampleRecord(sequence: 0)
        var now: Int64 = 0
        var sequence: UInt64 = 0
        var acknowledgedTotal: UInt64 = 0, responses = 0
        packet.withUnsafeMutableBytes { packetBuffer in payload.withUnsafeMutableBytes { payloadBuffer in
        topic.withUnsafeBytes { t in id.withUnsafeBytes { i in host.withUnsafeBytes { h in
        status.withUnsafeBytes { s in offline.withUnsafeBytes { o in response.withUnsafeBytes { r in
            var out = UplinkByteWriter(packetBuffer)
            session.opened(.init(clientIdentifier: i, username: i, password: i, willTopic: s, willMessage: o, willRetained: true,
                                 keepAliveSeconds: 30), nowNanoseconds: now, into: &out)
            var ack: (UInt8, UInt8, UInt8, UInt8) = (0x20, 2, 0, 0)
            _ = withUnsafeBytes(of: &ack) { session.receive($0, nowNanoseconds: now) { _ in } }
            func run(_ count: Int) {
                var k = 0
                while k < count {
                    now += 100_000_000
                    sequence += 1
                    record.sequence = sequence
                    record.utcNanoseconds = 1_584_538_099_600_000_000 + now
                    forwarder.appended(newest: sequence)
                    while let c = forwarder.next(nowNanoseconds: now) {
                        var body = UplinkByteWriter(payloadBuffer)
                        PositionPayload.write(record, into: &body)
                        var packetOut = UplinkByteWriter(packetBuffer)
                        let payloadBytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(payloadBuffer)[0..<body.count])
                        guard session.publish(sequence: c.sequence, topic: t, payload: payloadBytes, nowNanoseconds: now,
                                              into: &packetOut) else { break }
                        forwarder.sent(c, nowNanoseconds: now)
                        // The broker's PUBACK for the packet identifier just written.
                        var puback: (UInt8, UInt8, UInt8, UInt8) = (0x40, 2, packetBuffer[packetOut.count - body.count - 2],
                                                                    packetBuffer[packetOut.count - body.count - 1])
                        _ = withUnsafeBytes(of: &puback) {
                            session.receive($0, nowNanoseconds: now) { s in _ = forwarder.acknowledged(s); acknowledgedTotal += 1 }
                        }
                        var request = UplinkByteWriter(packetBuffer)
                        OsmAndRequest.write(record, form: k % 2 == 0 ? .query : .json, deviceIdentifier: i, host: h, into: &request)
                        _ = parser.feed(r) { _ in responses += 1 }
                    }
                    if k % 50 == 0 {
                        var ping = UplinkByteWriter(packetBuffer)
                        _ = session.service(nowNanoseconds: now + 31_000_000_000, into: &ping)
                        var pong: (UInt8, UInt8) = (0xD0, 0)
                        _ = withUnsafeBytes(of: &pong) { session.receive($0, nowNanoseconds: now) { _ in } }
                    }
                    k += 1
                }
            }
            run(1000)
            let before = acknowledgedTotal
            let allocations = allocationCount { run(10_000) }
            #expect(allocations == 0, "\(allocations) allocations for 10 000 messages")
            #expect(acknowledgedTotal - before == 10_000 && forwarder.cursor == sequence)
        } } }
        } } }
        } }
        #expect(responses == 11_000 && session.phase == .connected && session.pingsSent > 0)
    }
}
