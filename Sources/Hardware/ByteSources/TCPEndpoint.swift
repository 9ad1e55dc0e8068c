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

    /// Starts a non-blocking connect to address `index`: (descriptor, connected now?) or the error
    /// number (descriptor -1).
    func startConnect(index: Int) -> (fd: Int32, connected: Bool, errorCode: Int32) {
        let address = addresses[index]
        let fd: FileDescriptor
        do throws(Errno) { fd = try Socket.open(address) } catch { return (-1, false, error.rawValue) }
        switch Socket.connectStream(fd, to: address) {
        case .processed: return (fd.rawValue, true, 0)
        case .wouldBlock: return (fd.rawValue, false, 0)
        case .closed:
            fd.closeDroppingError()
            return (-1, false, Errno.connectionReset.rawValue)
        case .failed(let error):
            fd.closeDroppingError()
            return (-1, false, error.rawValue)
        }
    }

    /// The state of a connect in progress: nil while pending, 0 when connected, else its error number.
    static func connectResult(_ fd: Int32) -> Int32? {
        switch FileDescriptor(known: fd).readinessNow(.writable) {
        case .success([]): return nil
        case .failure(let error): return error.rawValue
        case .success: break
        }
        return Socket.pendingError(FileDescriptor(known: fd))?.rawValue ?? 0
    }

    /// send(2) without blocking and without SIGPIPE: bytes sent, or minus the error number (EAGAIN:
    /// no room now; EPIPE: the peer closed or reset the connection).
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        guard bytes.count > 0 else { return 0 }
        switch Socket.send(FileDescriptor(known: fd), bytes) {
        case .processed(let n): return n
        case .wouldBlock: return -Int(Errno.wouldBlock.rawValue)
        case .closed: return -Int(Errno.brokenPipe.rawValue)
        case .failed(let error): return -Int(error.rawValue)
        }
    }
}
