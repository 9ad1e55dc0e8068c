import SystemCalls
import TLS
import TrackLog
import Uplink

/// One MQTT uplink on the device: a non-blocking connection to the broker (TCP, or TLS for mqtts://,
/// through `StreamTransport`) driven from the poll loop (no thread), the pure `MQTTSession` and
/// `UplinkForwarder` over it, reconnects with seeded backoff.
/// Buffers are allocated in `init`; `service`, `appended` and the poll/deadline queries allocate nothing.
public final class MQTTUplinkClient: UplinkConnection {
    /// Where the connection is (`connecting` covers the TCP connect and the TLS handshake).
    public typealias Phase = UplinkLink.Phase

    /// What one `service` call changed, for the router.
    public typealias Events = UplinkClientEvents

    public private(set) var settings: MQTTUplinkSettings
    public var phase: Phase { link.phase }
    public private(set) var session: MQTTSession
    public private(set) var forwarder: UplinkForwarder
    public var backoff: ReconnectBackoff { link.backoff }
    public private(set) var fault: UplinkFault?
    /// The connection's socket (nil while waiting to reconnect).
    public var descriptor: FileDescriptor? { link.descriptor }
    /// The byte stream under the session: plain TCP or TLS (`settings.security`).
    public var transport: StreamTransport { link.transport }
    public private(set) var connections: UInt64 = 0
    public var attempts: UInt64 { link.attempts }
    public private(set) var messagesSent: UInt64 = 0
    public var lastAcknowledgedNanoseconds: Int64? { link.lastAcknowledgedNanoseconds }
    /// The connection, its times, backoff and buffers (shared with the OsmAnd client).
    private var link: UplinkLink
    private let payload: UnsafeMutableRawBufferPointer
    private static let outputCapacity = 8192
    private static let largestPacket = 512

    /// `cursor`: the persisted one (0 for a new uplink); `seed` for the backoff's jitter.
    public init(settings: MQTTUplinkSettings, cursor: UInt64, seed: UInt64) {
        self.settings = settings
        session = MQTTSession(keepAliveSeconds: settings.keepAliveSeconds, responseTimeoutSeconds: settings.responseTimeoutSeconds)
        forwarder = UplinkForwarder(cursor: cursor, window: min(settings.window, MQTTSession.inFlightCapacity),
                                    backlogLimitRecords: settings.backlogLimitRecords,
                                    backlogMessagesPerSecond: settings.backlogMessagesPerSecond,
                                    inOrderSpan: settings.inOrderSpanRecords)
        link = UplinkLink(security: settings.security,
                          backoff: ReconnectBackoff(seed: seed, baseSeconds: settings.backoffBaseSeconds, maximumSeconds: settings.backoffMaximumSeconds),
                          connectTimeoutSeconds: settings.connectTimeoutSeconds, outputBytes: Self.outputCapacity)
        payload = .allocate(byteCount: PositionPayload.maximumByteCount, alignment: 8)
    }

    public var faultMessage: String? { fault?.message }

    /// The server's address for the next connect (the uplink's resolver found it off the loop); the
    /// connection open now, if any, stays. Allocation-free.
    public func use(address: SocketAddress) { settings.address = address }
    public var isConnected: Bool { phase == .open && session.phase == .connected }
    public var isConnecting: Bool { phase == .connecting || (phase == .open && session.phase != .connected) }

    deinit {
        link.deallocate()
        payload.deallocate()
    }

    /// The journal's newest durable record (the router's input after each flush).
    public func appended(newest sequence: UInt64) { forwarder.appended(newest: sequence) }

    /// What to wait for in poll(): connecting → writable (TLS handshake: what OpenSSL wants); open →
    /// readable, and writable with output pending (or when TLS must write to go on reading).
    public var pollEvents: PollEvents {
        link.pollEvents
    }

    /// When `service` must run even without readiness.
    public var deadlineNanoseconds: Int64? {
        switch phase {
        case .waiting: return link.retryAtNanoseconds
        case .connecting: return link.connectDeadlineNanoseconds
        case .open:
            if link.hasBufferedInput { return link.lastNowNanoseconds }
            let a = session.deadlineNanoseconds, b = forwarder.deadlineNanoseconds(nowNanoseconds: link.lastNowNanoseconds)
            if let a, let b { return min(a, b) }
            return a ?? b
        }
    }

    /// One wake-up: connect when due, finish a connect, read, publish from `source`, keep-alive, flush.
    public func service<Source: UplinkRecordSource>(nowNanoseconds now: Int64, readable: Bool, writable: Bool,
                                                    source: inout Source) -> Events {
        link.lastNowNanoseconds = now
        var events = Events()
        switch phase {
        case .waiting:
            if now >= link.retryAtNanoseconds { progress(link.startConnecting(to: settings.address, nowNanoseconds: now), now, &events) }
        case .connecting:
            progress(link.advanceConnect(ready: readable || writable, nowNanoseconds: now), now, &events)
        case .open:
            break
        }
        guard phase == .open else { return events }
        if readable || link.hasBufferedInput { read(now, &events) }
        guard phase == .open else { return events }
        let timers = session.service(nowNanoseconds: now, into: &outputWriterRef)
        commitOutput()
        if timers.mustClose {
            fail(timers.keepAliveTimedOut ? .brokerSilent : .connectTimedOut, now, &events)
            return events
        }
        publish(now, &source)
        flush(now, &events)
        return events
    }

    /// A clean stop: retained `offline`, DISCONNECT, close (shutdown).
    public func shutdown(nowNanoseconds now: Int64) {
        if phase == .open && session.phase == .connected {
            settings.statusTopic.withUnsafeBytes { t in
                let offline: StaticString = "offline"
                session.publishRetained(topic: t, payload: UnsafeRawBufferPointer(start: offline.utf8Start, count: offline.utf8CodeUnitCount),
                                        nowNanoseconds: now, into: &outputWriterRef)
            }
            commitOutput()
            session.disconnect(into: &outputWriterRef)
            commitOutput()
            var events = Events()
            flush(now, &events)
        }
        close()
    }

    // MARK: the connection

    private func progress(_ step: UplinkLink.ConnectProgress, _ now: Int64, _ events: inout Events) {
        switch step {
        case .pending: break
        case .opened: opened(now)
        case .failed(.connect(let error)): fail(.connectFailed(error), now, &events)
        case .failed(.tls(let failure)): fail(.tls(failure), now, &events)
        case .timedOut(let handshaking): fail(handshaking ? .tls(.handshakeTimedOut) : .connectTimedOut, now, &events)
        }
    }

    private func opened(_ now: Int64) {
        settings.clientIdentifier.withUnsafeBytes { id in
            settings.statusTopic.withUnsafeBytes { will in
                let offline: StaticString = "offline"
                let message = UnsafeRawBufferPointer(start: offline.utf8Start, count: offline.utf8CodeUnitCount)
                withCredentials { user, password in
                    session.opened(.init(clientIdentifier: id, username: user, password: password, willTopic: will, willMessage: message,
                                         willRetained: true, keepAliveSeconds: UInt16(clamping: settings.keepAliveSeconds)),
                                   nowNanoseconds: now, into: &outputWriterRef)
                }
            }
        }
        commitOutput()
    }

    private func withCredentials(_ body: (UnsafeRawBufferPointer?, UnsafeRawBufferPointer?) -> Void) {
        guard let user = settings.username else { body(nil, nil); return }
        user.withUnsafeBytes { u in
            if let password = settings.password { password.withUnsafeBytes { p in body(u, p) } } else { body(u, nil) }
        }
    }

    private func read(_ now: Int64, _ events: inout Events) {
        var reads = 0
        while reads < 8 && phase == .open {
            reads += 1
            switch link.receive() {
            case .wouldBlock: return
            case .closed, .processed(0): fail(.connectionLost(nil), now, &events); return
            case .processed(let n):
                var moved = false
                let result = session.receive(link.received(n), nowNanoseconds: now) { s in
                    if forwarder.acknowledged(s) { moved = true }
                }
                if moved { events.cursorMoved = true; link.lastAcknowledgedNanoseconds = now }
                if result.becameConnected {
                    connections += 1
                    link.succeeded()
                    events.connected = true
                    if fault != nil { fault = nil; events.faultChanged = true }
                    settings.statusTopic.withUnsafeBytes { t in
                        let online: StaticString = "online"
                        session.publishRetained(topic: t, payload: UnsafeRawBufferPointer(start: online.utf8Start, count: online.utf8CodeUnitCount),
                                                nowNanoseconds: now, into: &outputWriterRef)
                    }
                    commitOutput()
                }
                if result.mustClose {
                    if let refusal = result.refusal { fail(.refused(refusal), now, &events) }
                    else if let violation = result.violation { fail(.protocolViolation(violation), now, &events) }
                    else { fail(.connectionLost(nil), now, &events) }
                    return
                }
            case let failed:
                fail(Self.fault(link.loss(failed)), now, &events)
                return
            }
        }
    }

    private func publish<Source: UplinkRecordSource>(_ now: Int64, _ source: inout Source) {
        while session.hasInFlightRoom && link.freeOutputBytes >= Self.largestPacket,
              let candidate = forwarder.next(nowNanoseconds: now) {
            guard let record = source.record(sequence: candidate.sequence) else { forwarder.skipped(candidate); continue }
            var body = UplinkByteWriter(payload)
            PositionPayload.write(record, into: &body)
            let bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(payload)[0..<body.count])
            let ok = settings.positionTopic.withUnsafeBytes { t in
                session.publish(sequence: candidate.sequence, topic: t, payload: bytes, nowNanoseconds: now, into: &outputWriterRef)
            }
            commitOutput()
            guard ok else { return }
            forwarder.sent(candidate, nowNanoseconds: now)
            messagesSent += 1
        }
    }

    private func flush(_ now: Int64, _ events: inout Events) {
        if let loss = link.flush() { fail(Self.fault(loss), now, &events) }
    }

    private static func fault(_ loss: UplinkLink.Loss) -> UplinkFault {
        switch loss {
        case .closed: return .connectionLost(nil)
        case .error(let error): return .connectionLost(error)
        case .tls(let failure): return .tls(failure)
        }
    }

    private func fail(_ reason: UplinkFault, _ now: Int64, _ events: inout Events) {
        link.failed(nowNanoseconds: now)
        session.closed()
        forwarder.connectionLost()
        if fault != reason { fault = reason; events.faultChanged = true }
    }

    private func close() { link.close() }

    // MARK: the output buffer

    /// A writer over the free tail of the output buffer; `commitOutput` keeps what was written.
    private var pendingWriter: UplinkByteWriter?
    private var outputWriterRef: UplinkByteWriter {
        get { link.outputWriter() }
        set { pendingWriter = newValue }
    }

    private func commitOutput() {
        if let w = pendingWriter { link.commit(w) }
        pendingWriter = nil
    }
}
