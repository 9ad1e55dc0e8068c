import SystemCalls

/// How a `StreamTransport` talks to its server: plain TCP, or TLS from a context built at start-up,
/// with the host name to send (SNI) and check in the certificate.
public enum StreamSecurity: Sendable {
    case plain
    case tls(TLSClientContext, serverName: String)
}

/// The byte stream a client runs over (the MQTT uplink, the OsmAnd HTTPS uplink): a non-blocking TCP
/// connection, plain or TLS, driven from the poll loop. One concrete class, the TLS branch an enum
/// case: no existential on the path. `connect`, then `advance` on readiness until `.open`, then
/// `receive`/`send` (SocketOutcome, as SystemCalls' sockets); `pollEvents` says what to wait for.
/// Connected, it allocates nothing per call (docs/uplink.md §10).
public final class StreamTransport {
    /// Where the connection is.
    public enum Phase: Equatable, Sendable { case closed, connecting, handshaking, open }

    /// What `connect`/`advance` did.
    public enum Step: Equatable, Sendable {
        /// Not open yet: poll for `pollEvents(wantsToSend:)`, then `advance`.
        case inProgress
        case open
        case failed(StreamFailure)
    }

    public let security: StreamSecurity
    public private(set) var phase = Phase.closed
    public private(set) var descriptor: FileDescriptor?
    private var session: TLSClientSession?
    private let isAddressLiteral: Bool

    public init(security: StreamSecurity) {
        self.security = security
        if case .tls(_, let name) = security { isAddressLiteral = SocketAddress.numeric(name, port: 0) != nil } else { isAddressLiteral = false }
    }

    deinit { close() }

    public var isTLS: Bool { if case .tls = security { return true } else { return false } }

    /// Opens a socket and starts the connect (and, once connected, the TLS handshake).
    public func connect(to address: SocketAddress) -> Step {
        close()
        let fd: FileDescriptor
        do throws(Errno) { fd = try Socket.open(address) } catch { return .failed(.connect(error)) }
        Socket.setNoDelay(fd)
        descriptor = fd
        switch Socket.connectStream(fd, to: address) {
        case .processed: return connected()
        case .wouldBlock: phase = .connecting; return .inProgress
        case .closed: close(); return .failed(.connect(.connectionRefused))
        case .failed(let error): close(); return .failed(.connect(error))
        }
    }

    /// After poll() reported the descriptor (or to retry): finishes the connect, then the handshake.
    public func advance() -> Step {
        switch phase {
        case .closed: return .failed(.connect(.badFileDescriptor))
        case .open: return .open
        case .connecting:
            guard let fd = descriptor else { return .failed(.connect(.badFileDescriptor)) }
            if let error = Socket.pendingError(fd) { close(); return .failed(.connect(error)) }
            return connected()
        case .handshaking:
            return handshake()
        }
    }

    /// Reads what arrived (for TLS: decrypted bytes).
    public func receive(into buffer: UnsafeMutableRawBufferPointer) -> SocketOutcome {
        guard let fd = descriptor, phase == .open else { return .closed }
        if let session { return session.receive(into: buffer) }
        return Socket.receive(fd, into: buffer)
    }

    /// Writes what it can of `bytes` now.
    public func send(_ bytes: UnsafeRawBufferPointer) -> SocketOutcome {
        guard let fd = descriptor, phase == .open else { return .closed }
        if let session { return session.send(bytes) }
        return Socket.send(fd, bytes)
    }

    /// Why the last `.failed` of `receive`/`send` was a TLS error (an alert, a bad record), if it was.
    public var tlsFailure: TLSFailure? { session?.failure }

    /// Bytes already decrypted inside OpenSSL: read again now, poll() will not report them.
    public var hasBufferedInput: Bool { session?.hasBufferedInput ?? false }

    /// What poll() must wait for: connecting → writable; the handshake → what OpenSSL wants; open →
    /// readable, plus writable when the caller has bytes to send or TLS must write to go on reading.
    public func pollEvents(wantsToSend: Bool) -> PollEvents {
        switch phase {
        case .closed: return []
        case .connecting: return .writable
        case .handshaking: return session?.waitsFor ?? .writable
        case .open:
            var events: PollEvents = .readable
            if wantsToSend || session?.waitsFor == .writable { events.insert(.writable) }
            return events
        }
    }

    /// Closes the connection (a TLS close_notify first, without waiting for the answer).
    public func close() {
        if phase == .open { session?.shutdown() }
        session = nil
        if let fd = descriptor { Socket.close(fd) }
        descriptor = nil
        phase = .closed
    }

    private func connected() -> Step {
        guard case .tls(let context, let name) = security else { phase = .open; return .open }
        guard let fd = descriptor,
              let s = TLSClientSession(context: context, descriptor: fd, serverName: name, isAddressLiteral: isAddressLiteral) else {
            close()
            return .failed(.tls(.protocolError(library: 0, reason: 0)))
        }
        session = s
        phase = .handshaking
        return handshake()
    }

    private func handshake() -> Step {
        guard let session else { return .failed(.connect(.badFileDescriptor)) }
        switch session.handshake() {
        case .done: phase = .open; return .open
        case .waiting: return .inProgress
        case .failed(let failure): close(); return .failed(.tls(failure))
        }
    }
}

/// Why a `StreamTransport` could not connect: the TCP connect, or TLS.
public enum StreamFailure: Equatable, Sendable {
    case connect(Errno)
    case tls(TLSFailure)
}
