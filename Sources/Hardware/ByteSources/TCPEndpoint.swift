import SystemCalls

/// A TCP server's resolved socket addresses and the non-blocking socket calls a TCP source makes.
/// The host is resolved (SystemCalls' `SocketAddress.resolve`, getaddrinfo) on the first attempt (the one call that may block,
/// bounded by the resolver's timeout; a numeric address never does); later reconnects reuse the
/// stored addresses, so they neither block nor allocate.
struct TCPEndpoint {
    let host: String
    let port: UInt16
    /// The addresses the resolver returned, in its order (empty until resolved).
    private(set) var addresses: [SocketAddress] = []

    init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    var isResolved: Bool { !addresses.isEmpty }

    /// "host:port", with brackets around IPv6 literals.
    static func subject(host: String, port: UInt16) -> String {
        (host.contains(":") ? "[" + host + "]" : host) + ":" + String(port)
    }

    /// Resolves the host (TCP, IPv4 and IPv6). Returns nil on success, else the resolver's error
    /// (its EAI_* code; a system error leaves `Errno.current` set).
    mutating func resolve() -> ResolveError? {
        switch SocketAddress.resolve(host, port: port) {
        case .success(let found):
            addresses = found
            return nil
        case .failure(let error):
            return error
        }
    }

    /// How a non-blocking connect started or went on.
    enum ConnectStep {
        /// The connect completed on this descriptor.
        case connected(FileDescriptor)
        /// The connect is in progress on this descriptor: poll it for writable.
        case inProgress(FileDescriptor)
        /// Still in progress (no change since the last look).
        case pending
        /// This address failed (its descriptor, if any, is closed).
        case failed(Errno)
    }

    /// Starts a non-blocking connect to address `index`.
    func startConnect(index: Int) -> ConnectStep {
        let address = addresses[index]
        let fd: FileDescriptor
        do throws(Errno) { fd = try Socket.open(address) } catch { return .failed(error) }
        switch Socket.connectStream(fd, to: address) {
        case .processed: return .connected(fd)
        case .wouldBlock: return .inProgress(fd)
        case .closed:
            fd.closeDroppingError()
            return .failed(.connectionReset)
        case .failed(let error):
            fd.closeDroppingError()
            return .failed(error)
        }
    }

    /// The state of a connect in progress on `fd`: `.pending`, `.connected(fd)` or `.failed` (the
    /// caller closes `fd`).
    static func connectResult(_ fd: FileDescriptor) -> ConnectStep {
        switch fd.readinessNow(.writable) {
        case .success([]): return .pending
        case .failure(let error): return .failed(error)
        case .success: break
        }
        if let error = Socket.pendingError(fd) { return .failed(error) }
        return .connected(fd)
    }
}
