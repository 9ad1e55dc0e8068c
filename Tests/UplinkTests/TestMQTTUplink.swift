import TrackLog
@testable import Uplink

/// The pure Uplink types driven over a test TCP connection, the way the device's uplink component
/// will drive them over its socket edge: session + forwarder + backoff, records from a journal.
final class TestMQTTUplink {
    let port: UInt16
    let records: [TrackRecord]
    let clientIdentifier: [UInt8], username: [UInt8], password: [UInt8]
    static let window = 8
    let topic = Array("puckd/puck1/position".utf8), statusTopic = Array("puckd/puck1/status".utf8)
    var session = MQTTSession(keepAliveSeconds: 5, responseTimeoutSeconds: 3)
    var forwarder: UplinkForwarder
    var backoff: ReconnectBackoff
    var connection: TestConnection?
    var retryAtNanoseconds: Int64 = 0
    /// The cursor as the cursor store would hold it (persisted on every move).
    var persistedCursor: UInt64
    var attempts = 0, connections = 0
    var refusals: [MQTTConnectionRefusal] = []
    var sentSequences: [UInt64] = []
    private var packet = [UInt8](repeating: 0, count: 1024)
    private var payload = [UInt8](repeating: 0, count: PositionPayload.maximumByteCount)

    init(port: UInt16, records: [TrackRecord], cursor: UInt64 = 0, password: String = "secret", seed: UInt64 = 1) {
        self.port = port
        self.records = records
        clientIdentifier = Array("puck1".utf8)
        username = Array("fleet".utf8)
        self.password = Array(password.utf8)
        forwarder = UplinkForwarder(cursor: cursor, window: Self.window, backlogMessagesPerSecond: 200)
        backoff = ReconnectBackoff(seed: seed, baseSeconds: 1, maximumSeconds: 4)
        persistedCursor = cursor
    }

    var connected: Bool { session.phase == .connected }

    /// The journal grew to `sequence`.
    func append(upTo sequence: UInt64) { forwarder.appended(newest: sequence) }

    /// One turn of the loop: connect when due, read (up to `waitMilliseconds`), send, keep-alive.
    func step(waitMilliseconds: Int32 = 5) {
        let now = monotonicNanoseconds()
        guard let connection else {
            if now >= retryAtNanoseconds { open(now) } else { sleepMilliseconds(Int(min(Int64(waitMilliseconds), 5))) }
            return
        }
        if let bytes = connection.receive(milliseconds: waitMilliseconds) {
            if bytes.isEmpty { lost(now); return }
            let events = bytes.withUnsafeBytes {
                session.receive($0, nowNanoseconds: now) { sequence in
                    if forwarder.acknowledged(sequence) { persistedCursor = forwarder.cursor }
                }
            }
            if let refusal = events.refusal { refusals.append(refusal) }
            if events.mustClose { lost(now); return }
            if events.becameConnected {
                backoff.succeeded()
                connections += 1
                _ = write { out in
                    statusTopic.withUnsafeBytes { t in Array("online".utf8).withUnsafeBytes { p in
                        session.publishRetained(topic: t, payload: p, nowNanoseconds: now, into: &out)
                    } }
                }
            }
        }
        while session.hasInFlightRoom, let candidate = forwarder.next(nowNanoseconds: now) {
            let record = records[Int(candidate.sequence) - 1]
            var ok = false
            let sentOK = payload.withUnsafeMutableBytes { payloadBuffer in
                var body = UplinkByteWriter(payloadBuffer)
                PositionPayload.write(record, into: &body)
                let bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(payloadBuffer)[0..<body.count])
                return write { out in
                    topic.withUnsafeBytes { t in
                        ok = session.publish(sequence: candidate.sequence, topic: t, payload: bytes, nowNanoseconds: now, into: &out)
                    }
                }
            }
            guard ok else { break }
            guard sentOK else { lost(now); return }
            forwarder.sent(candidate, nowNanoseconds: now)
            sentSequences.append(candidate.sequence)
        }
        var events = MQTTSession.Events()
        guard write({ out in events = session.service(nowNanoseconds: now, into: &out) }), !events.mustClose else { lost(now); return }
    }

    /// A crash: the connection dropped without DISCONNECT, nothing else said.
    func crash() {
        connection = nil
        session.closed()
    }

    private func open(_ now: Int64) {
        attempts += 1
        guard let c = TestConnection(port: port) else { retryAtNanoseconds = now + backoff.failed(); return }
        connection = c
        _ = write { out in
            clientIdentifier.withUnsafeBytes { i in username.withUnsafeBytes { u in password.withUnsafeBytes { p in
                statusTopic.withUnsafeBytes { w in Array("offline".utf8).withUnsafeBytes { o in
                    session.opened(.init(clientIdentifier: i, username: u, password: p, willTopic: w, willMessage: o,
                                         willRetained: true, keepAliveSeconds: 5), nowNanoseconds: now, into: &out)
                } }
            } } }
        }
    }

    private func lost(_ now: Int64) {
        connection = nil
        session.closed()
        forwarder.connectionLost()
        retryAtNanoseconds = now + backoff.failed()
    }

    /// Encodes into the packet buffer and sends it; false when the connection failed.
    private func write(_ encode: (inout UplinkByteWriter) -> Void) -> Bool {
        packet.withUnsafeMutableBytes { raw in
            var out = UplinkByteWriter(raw)
            encode(&out)
            precondition(!out.overflowed)
            guard out.count > 0 else { return true }
            return connection?.send(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(raw)[0..<out.count])) ?? false
        }
    }
}
