import SystemCalls
import TLS
import TrackLog
import Uplink

/// One OsmAnd (Traccar) uplink on the device (docs/uplink.md §4, §9, §10): a non-blocking HTTP/1.1
/// keep-alive connection (plain, or TLS for https://, through `StreamTransport`) driven from the poll
/// loop (no thread), one request in flight (`OsmAndExchange`), a 2xx advances its own forwarder's
/// cursor; any other status, a timeout or a broken response keeps the record and backs off. Connects only while something waits. Buffers are allocated in `init`; `service`,
/// `appended` and the poll/deadline queries allocate nothing.
public final class OsmAndUplinkClient: UplinkConnection {
    /// Where the connection is (`connecting` covers the TCP connect and the TLS handshake).
    public typealias Phase = UplinkLink.Phase

    public private(set) var settings: OsmAndUplinkSettings
    public var phase: Phase { link.phase }
    public private(set) var exchange: OsmAndExchange
    public private(set) var forwarder: UplinkForwarder
    public var backoff: ReconnectBackoff { link.backoff }
    public private(set) var fault: OsmAndFault?
    public var descriptor: FileDescriptor? { link.descriptor }
    /// The byte stream under the exchange: plain TCP (http://) or TLS (https://).
    public var transport: StreamTransport { link.transport }
    public private(set) var connections: UInt64 = 0
    public var attempts: UInt64 { link.attempts }
    public private(set) var messagesSent: UInt64 = 0
    /// Responses other than 2xx, and requests that timed out.
    public private(set) var refusals: UInt64 = 0
    public private(set) var timeouts: UInt64 = 0
    public private(set) var lastStatusCode: Int?
    public var lastAcknowledgedNanoseconds: Int64? { link.lastAcknowledgedNanoseconds }
    /// The connection, its times, backoff and buffers (shared with the MQTT client).
    private var link: UplinkLink

    /// `cursor`: the persisted one (0 for a new uplink); `seed` for the backoff's jitter.
    public init(settings: OsmAndUplinkSettings, cursor: UInt64, seed: UInt64) {
        self.settings = settings
        exchange = OsmAndExchange(responseTimeoutSeconds: settings.responseTimeoutSeconds)
        forwarder = UplinkForwarder(cursor: cursor, window: 1, backlogLimitRecords: settings.backlogLimitRecords,
                                    backlogMessagesPerSecond: settings.backlogMessagesPerSecond,
                                    inOrderSpan: settings.inOrderSpanRecords)
        link = UplinkLink(security: settings.security,
                          backoff: ReconnectBackoff(seed: seed, baseSeconds: settings.backoffBaseSeconds, maximumSeconds: settings.backoffMaximumSeconds),
                          connectTimeoutSeconds: settings.connectTimeoutSeconds, outputBytes: OsmAndRequest.maximumByteCount + 256)
    }

    deinit { link.deallocate() }

    public var faultMessage: String? { fault?.message }

    /// The server's address for the next connect (the uplink's resolver found it off the loop); the
    /// connection open now, if any, stays. Allocation-free.
    public func use(address: SocketAddress) { settings.address = address }
    public var isConnected: Bool { phase == .open }
    public var isConnecting: Bool { phase == .connecting }

    public func appended(newest sequence: UInt64) { forwarder.appended(newest: sequence) }

    /// Something waits to be sent or answered.
    private var hasWork: Bool { forwarder.backlog > 0 }

    public var pollEvents: PollEvents { link.pollEvents }

    public var deadlineNanoseconds: Int64? {
        switch phase {
        case .waiting: return hasWork ? link.retryAtNanoseconds : nil
        case .connecting: return link.connectDeadlineNanoseconds
        case .open:
            if link.hasBufferedInput { return link.lastNowNanoseconds }
            if let answer = exchange.deadlineNanoseconds { return answer }
            guard hasWork else { return nil }
            if link.retryAtNanoseconds > link.lastNowNanoseconds { return link.retryAtNanoseconds }
            return forwarder.deadlineNanoseconds(nowNanoseconds: link.lastNowNanoseconds)
        }
    }

    /// One wake-up: connect when due, finish a connect, read the response, send the next request.
    public func service<Source: UplinkRecordSource>(nowNanoseconds now: Int64, readable: Bool, writable: Bool,
                                                    source: inout Source) -> UplinkClientEvents {
        link.lastNowNanoseconds = now
        var events = UplinkClientEvents()
        switch phase {
        case .waiting:
            if hasWork && now >= link.retryAtNanoseconds {
                progress(link.startConnecting(to: settings.address, nowNanoseconds: now), now, &events)
            }
        case .connecting:
            progress(link.advanceConnect(ready: readable || writable, nowNanoseconds: now), now, &events)
        case .open:
            break
        }
        guard phase == .open else { return events }
        if readable || link.hasBufferedInput { read(now, &events) }
        guard phase == .open else { return events }
        if exchange.service(nowNanoseconds: now) == .timedOut {
            timeouts &+= 1
            fail(.serverSilent, now, &events)
            return events
        }
        sendNextRequest(now, &source)
        if let loss = link.flush() { fail(Self.fault(loss), now, &events) }
        return events
    }

    public func shutdown(nowNanoseconds now: Int64) { link.close() }

    // MARK: the connection

    private func progress(_ step: UplinkLink.ConnectProgress, _ now: Int64, _ events: inout UplinkClientEvents) {
        switch step {
        case .pending: break
        case .opened:
            exchange.opened()
            connections &+= 1
            events.connected = true
        case .failed(.connect(let error)): fail(.connectFailed(error), now, &events)
        case .failed(.tls(let failure)): fail(.tls(failure), now, &events)
        case .timedOut(let handshaking): fail(handshaking ? .tls(.handshakeTimedOut) : .connectTimedOut, now, &events)
        }
    }

    private func read(_ now: Int64, _ events: inout UplinkClientEvents) {
        var reads = 0
        while reads < 8 && phase == .open {
            reads += 1
            let outcome: OsmAndExchange.Outcome?
            switch link.receive() {
            case .wouldBlock: return
            case .closed, .processed(0):
                // The server closed an idle keep-alive connection: reconnect when something waits, no fault.
                guard exchange.inFlight != nil else { idleClosed(now); return }
                outcome = exchange.receive(UnsafeRawBufferPointer(start: nil, count: 0), closed: true)
            case .processed(let n):
                outcome = exchange.receive(link.received(n))
            case let failed:
                fail(Self.fault(link.loss(failed)), now, &events)
                return
            }
            guard let outcome else { continue }
            handle(outcome, now, &events)
        }
    }

    private func handle(_ outcome: OsmAndExchange.Outcome, _ now: Int64, _ events: inout UplinkClientEvents) {
        switch outcome {
        case .acknowledged(let sequence, let keepAlive):
            lastStatusCode = 200
            if forwarder.acknowledged(sequence) { events.cursorMoved = true }
            link.lastAcknowledgedNanoseconds = now
            link.succeeded()
            if fault != nil { fault = nil; events.faultChanged = true }
            if !keepAlive { idleClosed(now) }
        case .refused(_, let status, let keepAlive):
            // The record stays in the journal; the next attempt waits for the backoff.
            lastStatusCode = status
            refusals &+= 1
            forwarder.connectionLost()
            link.backOff(nowNanoseconds: now)
            if fault != .status(status) { fault = .status(status); events.faultChanged = true }
            if !keepAlive { link.close() }
        case .broken(let error):
            fail(error == nil ? .connectionLost(nil) : .notHTTP, now, &events)
        case .timedOut:
            timeouts &+= 1
            fail(.serverSilent, now, &events)
        }
    }

    private func sendNextRequest<Source: UplinkRecordSource>(_ now: Int64, _ source: inout Source) {
        guard exchange.inFlight == nil && !link.hasPendingOutput && now >= link.retryAtNanoseconds else { return }
        while let candidate = forwarder.next(nowNanoseconds: now) {
            guard let record = source.record(sequence: candidate.sequence) else { forwarder.skipped(candidate); continue }
            var out = link.outputWriter()
            // The journal's own sequence goes on the wire (`seq`), as in the MQTT payload.
            settings.deviceIdentifier.withUnsafeBytes { id in
                settings.host.withUnsafeBytes { host in
                    OsmAndRequest.write(record, form: settings.form, deviceIdentifier: id, host: host, into: &out)
                }
            }
            guard !out.overflowed else { forwarder.skipped(candidate); continue }
            link.commit(out)
            forwarder.sent(candidate, nowNanoseconds: now)
            exchange.sent(sequence: candidate.sequence, nowNanoseconds: now)
            messagesSent &+= 1
            return
        }
    }

    private static func fault(_ loss: UplinkLink.Loss) -> OsmAndFault {
        switch loss {
        case .closed: return .connectionLost(nil)
        case .error(let error): return .connectionLost(error)
        case .tls(let failure): return .tls(failure)
        }
    }

    private func idleClosed(_ now: Int64) {
        forwarder.connectionLost()
        link.closedQuietly(nowNanoseconds: now)
    }

    private func fail(_ reason: OsmAndFault, _ now: Int64, _ events: inout UplinkClientEvents) {
        forwarder.connectionLost()
        link.failed(nowNanoseconds: now)
        if fault != reason { fault = reason; events.faultChanged = true }
    }
}
