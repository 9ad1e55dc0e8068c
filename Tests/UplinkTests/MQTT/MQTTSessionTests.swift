import Testing
@testable import Uplink

/// The MQTT client state machine (docs/uplink.md §2): handshake, refusals said clearly, PUBACK matching,
/// keep-alive pings and the dead-broker timeout.
@Suite struct MQTTSessionTests {
    static let second: Int64 = 1_000_000_000
    let id = Array("puck1".utf8), topic = Array("puckd/puck1/position".utf8), empty: [UInt8] = []

    func open(_ session: inout MQTTSession, now: Int64 = 0) -> [UInt8] {
        id.withUnsafeBytes { i in empty.withUnsafeBytes { e in
            written { session.opened(.init(clientIdentifier: i, username: nil, password: nil, willTopic: nil, willMessage: e,
                                           willRetained: false, keepAliveSeconds: 30), nowNanoseconds: now, into: &$0) }
        } }
    }

    func feed(_ session: inout MQTTSession, _ bytes: [UInt8], now: Int64, acked: inout [UInt64]) -> MQTTSession.Events {
        bytes.withUnsafeBytes { session.receive($0, nowNanoseconds: now) { acked.append($0) } }
    }

    func publish(_ session: inout MQTTSession, _ sequence: UInt64, now: Int64) -> [UInt8]? {
        var ok = false
        let bytes = topic.withUnsafeBytes { t in Array("{}".utf8).withUnsafeBytes { p in
            written { ok = session.publish(sequence: sequence, topic: t, payload: p, nowNanoseconds: now, into: &$0) }
        } }
        return ok ? bytes : nil
    }

    @Test func acceptedHandshakeThenAcknowledgementsMapToJournalSequences() {
        var session = MQTTSession(keepAliveSeconds: 30)
        var acked: [UInt64] = []
        #expect(open(&session).first == 0x10)
        #expect(publish(&session, 1, now: 0) == nil, "nothing is published before the CONNACK")
        let events = feed(&session, [0x20, 2, 0, 0], now: 1, acked: &acked)
        #expect(events.becameConnected && !events.mustClose && session.phase == .connected)
        let first = publish(&session, 100, now: 2)!, second = publish(&session, 101, now: 3)!
        #expect(first[0] == 0x32 && Array(first[24..<26]) == [0, 1] && Array(second[24..<26]) == [0, 2])
        #expect(session.inFlightCount == 2)
        _ = feed(&session, [0x40, 2, 0, 2, 0x40, 2, 0, 1, 0x40, 2, 0, 9], now: 4, acked: &acked)
        #expect(acked == [101, 100] && session.inFlightCount == 0 && session.unknownAcknowledgements == 1)
    }

    @Test(arguments: [(1, MQTTConnectionRefusal.unacceptableProtocolVersion), (2, .identifierRejected), (3, .serverUnavailable),
                      (4, .badUsernameOrPassword), (5, .notAuthorized), (77, .unknown)] as [(UInt8, MQTTConnectionRefusal)])
    func refusalsCloseWithTheReasonAndWhatToDo(code: UInt8, refusal: MQTTConnectionRefusal) {
        var session = MQTTSession(keepAliveSeconds: 30)
        var acked: [UInt64] = []
        _ = open(&session)
        let events = feed(&session, [0x20, 2, 0, code], now: 1, acked: &acked)
        #expect(events.refusal == refusal && events.mustClose && !events.becameConnected && session.phase == .closed)
        #expect(refusal.message.description.contains(code == 77 ? "unknown" : "return code \(code)"))
    }

    @Test func aPingAfterAKeepAliveOfSilenceAndTheConnectionDeclaredDeadWithoutAnAnswer() {
        var session = MQTTSession(keepAliveSeconds: 30, responseTimeoutSeconds: 10)
        var acked: [UInt64] = []
        _ = open(&session)
        #expect(session.deadlineNanoseconds == 10 * Self.second, "the CONNACK must come within the response timeout")
        _ = feed(&session, [0x20, 2, 0, 0], now: Self.second, acked: &acked)
        #expect(session.deadlineNanoseconds == 30 * Self.second)
        #expect(written { _ = session.service(nowNanoseconds: 29 * Self.second, into: &$0) }.isEmpty)
        #expect(written { _ = session.service(nowNanoseconds: 30 * Self.second, into: &$0) } == [0xC0, 0])
        _ = feed(&session, [0xD0, 0], now: 31 * Self.second, acked: &acked)
        #expect(written { _ = session.service(nowNanoseconds: 60 * Self.second, into: &$0) } == [0xC0, 0])
        #expect(session.deadlineNanoseconds == 70 * Self.second)
        var events = MQTTSession.Events()
        _ = written { events = session.service(nowNanoseconds: 70 * Self.second, into: &$0) }
        #expect(events.keepAliveTimedOut && events.mustClose && session.phase == .closed)
    }

    @Test func aMissingConnackTimesOutAndGarbageCloses() {
        var session = MQTTSession(keepAliveSeconds: 30, responseTimeoutSeconds: 10)
        var acked: [UInt64] = []
        _ = open(&session)
        var events = MQTTSession.Events()
        _ = written { events = session.service(nowNanoseconds: 10 * Self.second, into: &$0) }
        #expect(events.handshakeTimedOut && session.phase == .closed)
        _ = open(&session, now: 20 * Self.second)
        events = feed(&session, [0x10, 0], now: 21 * Self.second, acked: &acked)
        #expect(events.violation == .unexpectedPacketType && session.phase == .closed)
        _ = open(&session, now: 30 * Self.second)
        events = feed(&session, [0x20, 2, 0, 0, 0x20, 2, 0, 0], now: 31 * Self.second, acked: &acked)
        #expect(events.violation == .malformedPacket, "a second CONNACK is a protocol violation")
    }

    @Test func theWindowIsBoundedAndACloseForgetsItInFlight() {
        var session = MQTTSession(keepAliveSeconds: 0)
        var acked: [UInt64] = []
        _ = open(&session)
        _ = feed(&session, [0x20, 2, 0, 0], now: 1, acked: &acked)
        var sent = 0
        while publish(&session, UInt64(sent + 1), now: 2) != nil { sent += 1 }
        #expect(sent == MQTTSession.inFlightCapacity)
        #expect(session.deadlineNanoseconds == nil, "keep-alive 0: no ping")
        session.closed()
        #expect(session.inFlightCount == 0 && !session.hasInFlightRoom)
    }
}
