import SystemCalls
import TrackLog
import Uplink

/// One OsmAnd (Traccar) uplink on the device (docs/uplink.md §4, §9): a non-blocking HTTP/1.1 keep-alive
/// connection driven from the poll loop (no thread), one request in flight (`OsmAndExchange`), a 2xx
/// advances its own forwarder's cursor; any other status, a timeout or a broken response keeps the record
/// and backs off. Connects only while something waits. Buffers are allocated in `init`; `service`,
/// `appended` and the poll/deadline queries allocate nothing.
public final class OsmAndUplinkClient: UplinkConnection {
    /// Where the connection is.
    public enum Phase: Equatable, Sendable { case waiting, connecting, open }

    public private(set) var settings: OsmAndUplinkSettings
    public private(set) var phase = Phase.waiting
    public private(set) var exchange: OsmAndExchange
    public private(set) var forwarder: UplinkForwarder
    public private(set) var backoff: ReconnectBackoff
    public private(set) var fault: OsmAndFault?
    public private(set) var descriptor: FileDescriptor?
    public private(set) var connections: UInt64 = 0
    public private(set) var attempts: UInt64 = 0
    public private(set) var messagesSent: UInt64 = 0
    /// Responses other than 2xx, and requests that timed out.
    public private(set) var refusals: UInt64 = 0
    public private(set) var timeouts: UInt64 = 0
    public private(set) var lastStatusCode: Int?
    public private(set) var lastAcknowledgedNanoseconds: Int64?
    private var retryAtNanoseconds: Int64 = 0
    private var connectStartedNanoseconds: Int64 = 0
    private var lastNowNanoseconds: Int64 = 0
    private let output: UnsafeMutableRawBufferPointer
    private var outputStart = 0, outputEnd = 0
    private let input: UnsafeMutableRawBufferPointer

    /// `cursor`: the persisted one (0 for a new uplink); `seed` for the backoff's jitter.
    public init(settings: OsmAndUplinkSettings, cursor: UInt64, seed: UInt64) {
        self.settings = settings
        exchange = OsmAndExchange(responseTimeoutSeconds: settings.responseTimeoutSeconds)
        forwarder = UplinkForwarder(cursor: cursor, window: 1, backlogLimitRecords: settings.backlogLimitRecords,
                                    backlogMessagesPerSecond: settings.backlogMessagesPerSecond,
                                    inOrderSpan: settings.inOrderSpanRecords)
        backoff = ReconnectBackoff(seed: seed, baseSeconds: settings.backoffBaseSeconds, maximumSeconds: settings.backoffMaximumSeconds)
        output = .allocate(byteCount: OsmAndRequest.maximumByteCount + 256, alignment: 8)
        input = .allocate(byteCount: 4096, alignment: 8)
    }

    deinit {
        close()
        output.deallocate()
        input.deallocate()
    }

    public var faultMessage: String? { fault?.message }

    /// The server's address for the next connect (the uplink's resolver found it off the loop); the
    /// connection open now, if any, stays. Allocation-free.
    public func use(address: SocketAddress) { settings.address = address }
    public var isConnected: Bool { phase == .open }
    public var isConnecting: Bool { phase == .connecting }

    public func appended(newest sequence: UInt64) { forwarder.appended(newest: sequence) }

    /// Something waits to be sent or answered.
    private var hasWork: Bool { forwarder.backlog > 0 }

    public var pollEvents: PollEvents {
        switch phase {
        case .waiting: return []
        case .connecting: return .writable
        case .open: return outputEnd > outputStart ? [.readable, .writable] : .readable
        }
    }

    public var deadlineNanoseconds: Int64? {
        switch phase {
        case .waiting: return hasWork ? retryAtNanoseconds : nil
        case .connecting: return connectStartedNanoseconds + Int64(settings.connectTimeoutSeconds) * 1_000_000_000
        case .open:
            if let answer = exchange.deadlineNanoseconds { return answer }
            guard hasWork else { return nil }
            if retryAtNanoseconds > lastNowNanoseconds { return retryAtNanoseconds }
            return forwarder.deadlineNanoseconds(nowNanoseconds: lastNowNanoseconds)
        }
    }

    /// One wake-up: connect when due, finish a connect, read the response, send the next request.
    public func service<Source: UplinkRecordSource>(nowNanoseconds now: Int64, readable: Bool, writable: Bool,
                                                    source: inout Source) -> UplinkClientEvents {
        lastNowNanoseconds = now
        var events = UplinkClientEvents()
        switch phase {
        case .waiting:
            if hasWork && now >= retryAtNanoseconds { startConnecting(now, &events) }
        case .connecting:
            if readable || writable, let fd = descriptor {
                if let error = Socket.pendingError(fd) { fail(.connectFailed(error), now, &events) } else { opened(&events) }
            } else if now >= connectStartedNanoseconds + Int64(settings.connectTimeoutSeconds) * 1_000_000_000 {
                fail(.connectTimedOut, now, &events)
            }
        case .open:
            break
        }
        guard phase == .open else { return events }
        if readable { read(now, &events) }
        guard phase == .open else { return events }
        if exchange.service(nowNanoseconds: now) == .timedOut {
            timeouts &+= 1
            fail(.serverSilent, now, &events)
            return events
        }
        sendNextRequest(now, &source)
        flush(now, &events)
        return events
    }

    public func shutdown(nowNanoseconds now: Int64) {
        close()
        phase = .waiting
    }

    // MARK: the connection

    private func startConnecting(_ now: Int64, _ events: inout UplinkClientEvents) {
        attempts &+= 1
        let fd: FileDescriptor
        do throws(Errno) { fd = try Socket.open(settings.address) } catch { fail(.connectFailed(error), now, &events); return }
        Socket.setNoDelay(fd)
        descriptor = fd
        connectStartedNanoseconds = now
        switch Socket.connectStream(fd, to: settings.address) {
        case .processed: opened(&events)
        case .wouldBlock: phase = .connecting
        case .closed: fail(.connectFailed(.connectionRefused), now, &events)
        case .failed(let error): fail(.connectFailed(error), now, &events)
        }
    }

    private func opened(_ events: inout UplinkClientEvents) {
        phase = .open
        outputStart = 0
        outputEnd = 0
        exchange.opened()
        connections &+= 1
        events.connected = true
    }

    private func read(_ now: Int64, _ events: inout UplinkClientEvents) {
        guard let fd = descriptor else { return }
        var reads = 0
        while reads < 8 && phase == .open {
            reads += 1
            let outcome: OsmAndExchange.Outcome?
            switch Socket.receive(fd, into: input) {
            case .wouldBlock: return
            case .closed, .processed(0):
                // The server closed an idle keep-alive connection: reconnect when something waits, no fault.
                guard exchange.inFlight != nil else { idleClosed(now); return }
                outcome = exchange.receive(UnsafeRawBufferPointer(start: nil, count: 0), closed: true)
            case .processed(let n):
                outcome = exchange.receive(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(input)[0..<n]))
            case .failed(let error):
                fail(.connectionLost(error), now, &events)
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
            lastAcknowledgedNanoseconds = now
            backoff.succeeded()
            if fault != nil { fault = nil; events.faultChanged = true }
            if !keepAlive { idleClosed(now) }
        case .refused(_, let status, let keepAlive):
            // The record stays in the journal; the next attempt waits for the backoff.
            lastStatusCode = status
            refusals &+= 1
            forwarder.connectionLost()
            retryAtNanoseconds = now + backoff.failed()
            if fault != .status(status) { fault = .status(status); events.faultChanged = true }
            if !keepAlive { close(); phase = .waiting }
        case .broken(let error):
            fail(error == nil ? .connectionLost(nil) : .notHTTP, now, &events)
        case .timedOut:
            timeouts &+= 1
            fail(.serverSilent, now, &events)
        }
    }

    private func sendNextRequest<Source: UplinkRecordSource>(_ now: Int64, _ source: inout Source) {
        guard exchange.inFlight == nil && outputEnd == outputStart && now >= retryAtNanoseconds else { return }
        while let candidate = forwarder.next(nowNanoseconds: now) {
            guard let record = source.record(sequence: candidate.sequence) else { forwarder.skipped(candidate); continue }
            var out = UplinkByteWriter(output)
            // The journal's own sequence goes on the wire (`seq`), as in the MQTT payload.
            settings.deviceIdentifier.withUnsafeBytes { id in
                settings.host.withUnsafeBytes { host in
                    OsmAndRequest.write(record, form: settings.form, deviceIdentifier: id, host: host, into: &out)
                }
            }
            guard !out.overflowed else { forwarder.skipped(candidate); continue }
            outputStart = 0
            outputEnd = out.count
            forwarder.sent(candidate, nowNanoseconds: now)
            exchange.sent(sequence: candidate.sequence, nowNanoseconds: now)
            messagesSent &+= 1
            return
        }
    }

    private func flush(_ now: Int64, _ events: inout UplinkClientEvents) {
        guard let fd = descriptor else { return }
        while outputEnd > outputStart {
            switch Socket.send(fd, UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(output)[outputStart..<outputEnd])) {
            case .wouldBlock: return
            case .processed(let n): outputStart += n
            case .closed: fail(.connectionLost(nil), now, &events); return
            case .failed(let error): fail(.connectionLost(error), now, &events); return
            }
        }
        outputStart = 0
        outputEnd = 0
    }

    private func idleClosed(_ now: Int64) {
        close()
        forwarder.connectionLost()
        phase = .waiting
        retryAtNanoseconds = now
    }

    private func fail(_ reason: OsmAndFault, _ now: Int64, _ events: inout UplinkClientEvents) {
        close()
        forwarder.connectionLost()
        phase = .waiting
        retryAtNanoseconds = now + backoff.failed()
        if fault != reason { fault = reason; events.faultChanged = true }
    }

    private func close() {
        if let fd = descriptor { Socket.close(fd) }
        descriptor = nil
        outputStart = 0
        outputEnd = 0
    }
}
