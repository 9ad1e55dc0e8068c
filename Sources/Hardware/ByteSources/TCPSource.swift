import SystemCalls

/// Raw NMEA from a TCP server (`tcp://host:port`), as phone apps ("NMEA over TCP") and network
/// receivers serve it. The connect is non-blocking: `.connecting` polls for POLLOUT until it
/// completes or `connectTimeoutNanoseconds` passes. A closed, reset or silent connection is
/// reported once and retried with backoff, every address of the host in turn.
public struct TCPSource: ByteSource, ~Copyable {
    /// The server's host name or address.
    public var host: String { endpoint.host }
    /// The server's TCP port.
    public var port: UInt16 { endpoint.port }
    /// "host:port", the subject of error messages.
    public let subject: String
    /// How long a connect may stay in progress (default 10 s).
    public var connectTimeoutNanoseconds: Int64
    /// An open connection that delivers nothing for this long is dropped and retried; nil = never.
    public var silenceTimeoutNanoseconds: Int64?
    private let origin: SourceOrigin
    private var endpoint: TCPEndpoint
    private var addressIndex = 0
    private var fd: FileDescriptor?
    private var connectDeadlineNanoseconds: Int64 = .max
    private var lifecycle: SourceLifecycle

    /// A source connecting to `host:port` on the first `read`.
    public init(host: String, port: UInt16, policy: ReconnectPolicy = ReconnectPolicy(),
                connectTimeoutNanoseconds: Int64 = 10_000_000_000,
                silenceTimeoutNanoseconds: Int64? = 30_000_000_000) {
        self.init(host: host, port: port, origin: .tcp, policy: policy,
                  connectTimeoutNanoseconds: connectTimeoutNanoseconds, silenceTimeoutNanoseconds: silenceTimeoutNanoseconds)
    }

    public init(host: String, port: UInt16, origin: SourceOrigin, policy: ReconnectPolicy,
         connectTimeoutNanoseconds: Int64, silenceTimeoutNanoseconds: Int64?) {
        self.endpoint = TCPEndpoint(host: host, port: port)
        self.subject = TCPEndpoint.subject(host: host, port: port)
        self.origin = origin
        self.connectTimeoutNanoseconds = connectTimeoutNanoseconds
        self.silenceTimeoutNanoseconds = silenceTimeoutNanoseconds
        self.lifecycle = SourceLifecycle(policy: policy)
    }

    deinit { fd?.closeDroppingError() }

    public var status: SourceStatus { lifecycle.status }
    public var counters: SourceCounters { lifecycle.counters }

    /// The connected socket, nil when not connected (for the gpsd source's command).
    var connectedDescriptor: FileDescriptor? {
        if case .open = lifecycle.status { return fd }
        return nil
    }

    public var pollRequest: PollRequest {
        switch lifecycle.status {
        case .open:
            let silence = silenceTimeoutNanoseconds.map { lifecycle.lastActivityNanoseconds &+ $0 } ?? .max
            return .input(fd, deadlineNanoseconds: silence)
        case .connecting where fd != nil:
            return PollRequest(fileDescriptor: fd, events: .writable, deadlineNanoseconds: connectDeadlineNanoseconds)
        default:
            let deadline = lifecycle.retryDeadlineNanoseconds
            return deadline == .max ? .never : .wake(atNanoseconds: deadline)
        }
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer, nowNanoseconds now: Int64) throws(SourceError) -> Int {
        if fd == nil {
            guard lifecycle.attemptDue(nowNanoseconds: now) else { return 0 }
            try startConnecting(nowNanoseconds: now)
        }
        if case .connecting = lifecycle.status {
            try finishConnecting(nowNanoseconds: now)
            guard case .open = lifecycle.status else { return 0 }
        }
        guard let open = fd else { return 0 }
        switch open.readOutcome(into: buffer) {
        case .processed(let n) where n > 0:
            lifecycle.delivered(n, nowNanoseconds: now)
            return n
        case .processed:
            if buffer.count == 0 { return 0 }
            throw fail(SourceError(.connectionClosed, origin: origin, subject: subject), nowNanoseconds: now)
        case .wouldBlock:
            if let silence = silenceTimeoutNanoseconds, now &- lifecycle.lastActivityNanoseconds >= silence {
                throw fail(SourceError(.silent, origin: origin, subject: subject, detail: silence / 1_000_000),
                           nowNanoseconds: now)
            }
            return 0
        case .failed(let error):
            throw fail(SourceError.classifying(error, origin: origin, subject: subject, whileOpen: true),
                       nowNanoseconds: now)
        }
    }

    /// Closes the connection, counts `error` and schedules the reconnect; returns it for throwing.
    mutating func fail(_ error: SourceError, nowNanoseconds now: Int64) -> SourceError {
        fd?.closeDroppingError()
        fd = nil
        addressIndex = 0
        return lifecycle.fail(error, nowNanoseconds: now)
    }

    private mutating func startConnecting(nowNanoseconds now: Int64) throws(SourceError) {
        if !endpoint.isResolved, let failure = endpoint.resolve() {
            let systemError: Errno? = failure.isSystemError ? Errno.current : nil
            throw fail(SourceError(.hostNotFound, origin: origin, subject: subject, systemError: systemError,
                                   detail: Int64(failure.code)), nowNanoseconds: now)
        }
        while true {
            switch endpoint.startConnect(index: addressIndex) {
            case .connected(let socket):
                fd = socket
                lifecycle.opened(nowNanoseconds: now)
                return
            case .inProgress(let socket):
                fd = socket
                lifecycle.status = .connecting
                connectDeadlineNanoseconds = now &+ connectTimeoutNanoseconds
                return
            case .pending:
                return
            case .failed(let error):
                try nextAddressOrFail(error, nowNanoseconds: now)
            }
        }
    }

    private mutating func finishConnecting(nowNanoseconds now: Int64) throws(SourceError) {
        while case .connecting = lifecycle.status, let socket = fd {
            switch TCPEndpoint.connectResult(socket) {
            case .pending, .inProgress:
                if now >= connectDeadlineNanoseconds {
                    throw fail(SourceError(.connectTimedOut, origin: origin, subject: subject,
                                           detail: connectTimeoutNanoseconds / 1_000_000), nowNanoseconds: now)
                }
                return
            case .connected:
                lifecycle.opened(nowNanoseconds: now)
                return
            case .failed(let error):
                socket.closeDroppingError()
                fd = nil
                try nextAddressOrFail(error, nowNanoseconds: now)
                try startConnecting(nowNanoseconds: now)
            }
        }
    }

    /// Moves to the host's next address, or fails the round when every address failed.
    private mutating func nextAddressOrFail(_ error: Errno, nowNanoseconds now: Int64) throws(SourceError) {
        if addressIndex + 1 < endpoint.addresses.count {
            addressIndex += 1
            return
        }
        throw fail(SourceError.classifying(error, origin: origin, subject: subject), nowNanoseconds: now)
    }
}
