import Testing
import TestSupport
@testable import Uplink

/// MQTT 3.1.1 packets byte for byte (OASIS MQTT 3.1.1 §2–3) and the frame decoder on split and broken
/// input (docs/uplink.md §2).
@Suite struct MQTTCodecTests {
    @Test func connectCarriesKeepAliveClientIdCredentialsAndTheRetainedWill() {
        let id = Array("puck1".utf8), user = Array("fleet".utf8), password = Array("s3cret".utf8)
        let will = Array("puckd/puck1/status".utf8), offline = Array("offline".utf8)
        let bytes = id.withUnsafeBytes { i in user.withUnsafeBytes { u in password.withUnsafeBytes { p in
            will.withUnsafeBytes { w in offline.withUnsafeBytes { o in
                written { out in
                    MQTTPacketEncoder.connect(.init(clientIdentifier: i, username: u, password: p, willTopic: w, willMessage: o,
                                                    willRetained: true, keepAliveSeconds: 60), into: &out)
                }
            } }
        } } }
        let body = 10 + 2 + 5 + 2 + 18 + 2 + 7 + 2 + 5 + 2 + 6
        #expect(bytes[0] == 0x10 && Int(bytes[1]) == body && bytes.count == body + 2)
        #expect(Array(bytes[2..<10]) == [0, 4, 0x4D, 0x51, 0x54, 0x54, 4, 0xE6])   // user, password, will retain, will, clean
        #expect(bytes[10] == 0 && bytes[11] == 60)
        #expect(text(Array(bytes[14..<19])) == "puck1")
        #expect(text(bytes).hasSuffix("offline\u{0}\u{5}fleet\u{0}\u{6}s3cret"))
    }

    @Test func connectWithoutCredentialsOrWill() {
        let id = Array("a".utf8), empty: [UInt8] = []
        let bytes = id.withUnsafeBytes { i in empty.withUnsafeBytes { e in
            written { MQTTPacketEncoder.connect(.init(clientIdentifier: i, username: nil, password: nil, willTopic: nil,
                                                      willMessage: e, willRetained: false, keepAliveSeconds: 0), into: &$0) }
        } }
        #expect(bytes == [0x10, 13, 0, 4, 0x4D, 0x51, 0x54, 0x54, 4, 0x02, 0, 0, 0, 1, 0x61])
    }

    @Test func publishAtQoS1AndRetainedQoS0() {
        let topic = Array("a/b".utf8), payload = Array("hi".utf8)
        let qos1 = topic.withUnsafeBytes { t in payload.withUnsafeBytes { p in
            written { MQTTPacketEncoder.publish(topic: t, payload: p, packetIdentifier: 0x1234, retain: false, into: &$0) }
        } }
        #expect(qos1 == [0x32, 9, 0, 3, 0x61, 0x2F, 0x62, 0x12, 0x34, 0x68, 0x69])
        let retained = topic.withUnsafeBytes { t in payload.withUnsafeBytes { p in
            written { MQTTPacketEncoder.publish(topic: t, payload: p, packetIdentifier: nil, retain: true, into: &$0) }
        } }
        #expect(retained == [0x31, 7, 0, 3, 0x61, 0x2F, 0x62, 0x68, 0x69])
        #expect(written { MQTTPacketEncoder.pingRequest(into: &$0) } == [0xC0, 0])
        #expect(written { MQTTPacketEncoder.disconnect(into: &$0) } == [0xE0, 0])
    }

    @Test(arguments: [(0, [0x00]), (127, [0x7F]), (128, [0x80, 0x01]), (16_383, [0xFF, 0x7F]),
                      (16_384, [0x80, 0x80, 0x01]), (2_097_152, [0x80, 0x80, 0x80, 0x01]),
                      (268_435_455, [0xFF, 0xFF, 0xFF, 0x7F])] as [(Int, [UInt8])])
    func remainingLengthBoundaries(length: Int, expected: [UInt8]) {
        #expect(written { MQTTPacketEncoder.remainingLength(length, into: &$0) } == expected)
    }

    /// CONNACK, PUBACK ×2, a 300-byte PUBLISH from the broker (ignored), PINGRESP.
    static let stream: [UInt8] = [0x20, 2, 0, 0, 0x40, 2, 0x00, 0x07, 0x40, 2, 0x12, 0x34, 0x30, 0xAC, 0x02]
        + [UInt8](repeating: 0x41, count: 300) + [0xD0, 0]
    static let expected: [MQTTIncomingPacket] = [
        .connectAcknowledgement(sessionPresent: false, returnCode: 0), .publishAcknowledgement(packetIdentifier: 7),
        .publishAcknowledgement(packetIdentifier: 0x1234), .ignored(packetType: 3), .pingResponse,
    ]

    @Test func theDecoderGivesTheSamePacketsWhateverTheReadBoundaries() {
        for chunk in [1, 2, 3, 5, 7, 64, 1000] {
            var decoder = MQTTFrameDecoder()
            var packets: [MQTTIncomingPacket] = []
            var start = 0
            while start < Self.stream.count {
                let end = min(start + chunk, Self.stream.count)
                let violation = Self.stream[start..<end].withUnsafeBytes { decoder.feed($0) { packets.append($0) } }
                #expect(violation == nil)
                start = end
            }
            #expect(packets == Self.expected, "chunk \(chunk)")
            #expect(decoder.skippedBytes == 300)
        }
    }

    @Test func garbageIsAViolationNotACrash() {
        let cases: [([UInt8], MQTTProtocolViolation)] = [
            ([0x10, 0], .unexpectedPacketType),                 // CONNECT from a server
            ([0x00, 0], .unexpectedPacketType),                 // reserved type 0
            ([0xF0, 0], .unexpectedPacketType),                 // reserved type 15
            ([0x21, 2, 0, 0], .malformedPacket),                // CONNACK with flags
            ([0x20, 3, 0, 0, 0], .malformedPacket),             // CONNACK of 3 bytes
            ([0xD0, 1, 0], .malformedPacket),                   // PINGRESP with a body
            ([0x36, 2, 0, 0], .malformedPacket),                // PUBLISH at QoS 3
            ([0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], .malformedRemainingLength),
        ]
        for (bytes, violation) in cases {
            var decoder = MQTTFrameDecoder()
            let result = bytes.withUnsafeBytes { decoder.feed($0) { _ in } }
            #expect(result == violation, "\(bytes)")
        }
        // Random bytes: never a crash; a violation or packets (or waiting for more).
        var random = SeededRandom(seed: 7)
        for _ in 0..<2000 {
            var decoder = MQTTFrameDecoder()
            let bytes = (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            _ = bytes.withUnsafeBytes { decoder.feed($0) { _ in } }
        }
    }
}

