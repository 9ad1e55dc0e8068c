import Glibc

/// A numeric IPv4 or IPv6 address and a TCP port: what a client socket connects to. Host names are
/// resolved before, at start-up (`resolve`), never in the loop.
public struct SocketAddress: Sendable, Equatable {
    public enum Family: Sendable, Equatable { case ipv4, ipv6 }
    public let family: Family
    /// The address in network byte order (4 or 16 bytes used).
    public let bytes: InlineArray<16, UInt8>
    public let port: UInt16

    public init(ipv4 a: (UInt8, UInt8, UInt8, UInt8), port: UInt16) {
        var b = InlineArray<16, UInt8>(repeating: 0)
        b[0] = a.0; b[1] = a.1; b[2] = a.2; b[3] = a.3
        family = .ipv4
        bytes = b
        self.port = port
    }

    init(family: Family, bytes: InlineArray<16, UInt8>, port: UInt16) {
        self.family = family
        self.bytes = bytes
        self.port = port
    }

    public static func == (a: SocketAddress, b: SocketAddress) -> Bool {
        guard a.family == b.family, a.port == b.port else { return false }
        var k = 0
        while k < 16 { if a.bytes[k] != b.bytes[k] { return false }; k += 1 }
        return true
    }

    /// A literal address ("192.0.2.7", "2001:db8::1"); nil for a host name.
    public static func numeric(_ host: String, port: UInt16) -> SocketAddress? {
        var b = InlineArray<16, UInt8>(repeating: 0)
        var raw = in6_addr()
        if inet_pton(AF_INET, host, &raw) == 1 {
            withUnsafeBytes(of: &raw) { for k in 0..<4 { b[k] = $0[k] } }
            return SocketAddress(family: .ipv4, bytes: b, port: port)
        }
        if inet_pton(AF_INET6, host, &raw) == 1 {
            withUnsafeBytes(of: &raw) { for k in 0..<16 { b[k] = $0[k] } }
            return SocketAddress(family: .ipv6, bytes: b, port: port)
        }
        return nil
    }

    /// Why a host name did not resolve (getaddrinfo's EAI_* code and its text).
    public struct ResolveError: Error, Sendable, Equatable {
        public let code: CInt
        public var message: String { String(cString: gai_strerror(code)) }
    }

    /// The addresses of `host` (numeric or a name, via getaddrinfo: /etc/hosts and DNS). It blocks: call
    /// it at start-up or from a helper thread, never from the loop. Allocates.
    public static func resolve(_ host: String, port: UInt16) -> Result<[SocketAddress], ResolveError> {
        if let numeric = numeric(host, port: port) { return .success([numeric]) }
        var hints = addrinfo()
        hints.ai_socktype = CInt(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, nil, &hints, &list)
        guard rc == 0 else { return .failure(ResolveError(code: rc)) }
        defer { freeaddrinfo(list) }
        var result: [SocketAddress] = []
        var node = list
        while let n = node {
            var b = InlineArray<16, UInt8>(repeating: 0)
            if n.pointee.ai_family == AF_INET, let sa = n.pointee.ai_addr {
                sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { p in
                    var a = p.pointee.sin_addr
                    withUnsafeBytes(of: &a) { for k in 0..<4 { b[k] = $0[k] } }
                }
                result.append(SocketAddress(family: .ipv4, bytes: b, port: port))
            } else if n.pointee.ai_family == AF_INET6, let sa = n.pointee.ai_addr {
                sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in
                    var a = p.pointee.sin6_addr
                    withUnsafeBytes(of: &a) { for k in 0..<16 { b[k] = $0[k] } }
                }
                result.append(SocketAddress(family: .ipv6, bytes: b, port: port))
            }
            node = n.pointee.ai_next
        }
        return result.isEmpty ? .failure(ResolveError(code: EAI_NONAME)) : .success(result)
    }
}

/// How far a non-blocking connect got.
public enum ConnectProgress: Sendable, Equatable {
    case connected
    /// EINPROGRESS: wait for the socket to become writable, then read `pendingSocketError()`.
    case inProgress
}

extension FileDescriptor {
    /// A non-blocking, close-on-exec TCP socket (TCP_NODELAY) connecting to `address`. Allocates nothing.
    public static func connectingStream(to address: SocketAddress) throws(Errno) -> (FileDescriptor, ConnectProgress) {
        let family = address.family == .ipv4 ? AF_INET : AF_INET6
        let fd = try FileDescriptor.check(minusOne: socket(family, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_NONBLOCK.rawValue)
                                                          | CInt(SOCK_CLOEXEC.rawValue), 0))
        var one: CInt = 1
        _ = setsockopt(fd.rawValue, CInt(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<CInt>.size))
        var rc: CInt
        repeat {
            switch address.family {
            case .ipv4:
                var sa = sockaddr_in()
                sa.sin_family = sa_family_t(AF_INET)
                sa.sin_port = address.port.bigEndian
                withUnsafeMutableBytes(of: &sa.sin_addr) { for k in 0..<4 { $0[k] = address.bytes[k] } }
                rc = withUnsafePointer(to: &sa) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd.rawValue, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
            case .ipv6:
                var sa = sockaddr_in6()
                sa.sin6_family = sa_family_t(AF_INET6)
                sa.sin6_port = address.port.bigEndian
                withUnsafeMutableBytes(of: &sa.sin6_addr) { for k in 0..<16 { $0[k] = address.bytes[k] } }
                rc = withUnsafePointer(to: &sa) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd.rawValue, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
                }
            }
        } while rc < 0 && errno == EINTR
        if rc == 0 { return (fd, .connected) }
        let error = errno
        if error == EINPROGRESS { return (fd, .inProgress) }
        _ = Glibc.close(fd.rawValue)
        throw Errno(rawValue: error)
    }

    /// After a non-blocking connect became writable: nil when it is connected, else why it failed
    /// (SO_ERROR: ECONNREFUSED, ETIMEDOUT, EHOSTUNREACH…).
    public func pendingSocketError() -> Errno? {
        var value: CInt = 0
        var length = socklen_t(MemoryLayout<CInt>.size)
        guard getsockopt(rawValue, SOL_SOCKET, SO_ERROR, &value, &length) == 0 else { return Errno(rawValue: errno) }
        return value == 0 ? nil : Errno(rawValue: value)
    }

    /// send(2) with MSG_NOSIGNAL (a closed peer is EPIPE, not SIGPIPE) on a non-blocking socket:
    /// `.wouldBlock` for EAGAIN. Returns the error instead of throwing (it runs in the loop).
    public func sendNonBlocking(_ bytes: UnsafeRawBufferPointer) -> Result<IOResult, Errno> {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return .success(.processed(0)) }
        while true {
            let n = send(rawValue, base, bytes.count, CInt(MSG_NOSIGNAL))
            if n >= 0 { return .success(.processed(n)) }
            let e = errno
            if e == EINTR { continue }
            if e == EAGAIN || e == EWOULDBLOCK { return .success(.wouldBlock) }
            return .failure(Errno(rawValue: e))
        }
    }

    /// recv(2) on a non-blocking socket: `.processed(0)` is the peer's close; `.wouldBlock` for EAGAIN.
    public func receiveNonBlocking(into buffer: UnsafeMutableRawBufferPointer) -> Result<IOResult, Errno> {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return .success(.processed(0)) }
        while true {
            let n = recv(rawValue, base, buffer.count, 0)
            if n >= 0 { return .success(.processed(n)) }
            let e = errno
            if e == EINTR { continue }
            if e == EAGAIN || e == EWOULDBLOCK { return .success(.wouldBlock) }
            return .failure(Errno(rawValue: e))
        }
    }
}
