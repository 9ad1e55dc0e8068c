import Glibc

/// The client side of stream sockets (the uplink's broker and HTTP connections): a non-blocking
/// connect and its outcome, and host names resolved before the loop runs.
extension Socket {
    /// connect(2) on a non-blocking socket from `Socket.open`: `.processed(0)` when connected at once,
    /// `.wouldBlock` for EINPROGRESS (poll for writable, then `pendingError`), else `.failed`.
    public static func connectStream(_ fd: FileDescriptor, to address: SocketAddress) -> SocketOutcome {
        do throws(Errno) {
            while true {
                let rc = try address.withSockaddr { sa, length in Glibc.connect(fd.rawValue, sa, length) }
                if rc == 0 { return .processed(0) }
                let e = Errno.current.rawValue
                if e == EINTR { continue }
                if e == EINPROGRESS || e == EALREADY { return .wouldBlock }
                return .failed(Errno(rawValue: e))
            }
        } catch {
            return .failed(error)
        }
    }

    /// After a non-blocking connect became writable: nil when it is connected, else why it failed
    /// (SO_ERROR: ECONNREFUSED, ETIMEDOUT, EHOSTUNREACH…).
    public static func pendingError(_ fd: FileDescriptor) -> Errno? {
        var value: CInt = 0
        var length = socklen_t(MemoryLayout<CInt>.size)
        guard getsockopt(fd.rawValue, SOL_SOCKET, SO_ERROR, &value, &length) == 0 else { return Errno.current }
        return value == 0 ? nil : Errno(rawValue: value)
    }

    /// TCP_NODELAY: small packets (an MQTT PUBLISH) leave at once instead of waiting for an ACK.
    public static func setNoDelay(_ fd: FileDescriptor) {
        var one: CInt = 1
        _ = setsockopt(fd.rawValue, CInt(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<CInt>.size))
    }
}

/// Why a host name did not resolve: getaddrinfo's EAI_* code and its text.
public struct ResolveError: Error, Sendable, Equatable {
    public let code: CInt
    public init(code: CInt) { self.code = code }
    /// EAI_NONAME: the name is not known (no such host).
    public static let noName = ResolveError(code: EAI_NONAME)
    /// EAI_AGAIN: a temporary failure (no answer from the DNS server).
    public static let temporaryFailure = ResolveError(code: EAI_AGAIN)
    public var message: String { String(cString: gai_strerror(code)) }
    /// EAI_SYSTEM: the failure is a system error, in `Errno.current` right after the call.
    public var isSystemError: Bool { code == EAI_SYSTEM }
}

extension SocketAddress {
    /// A literal address ("192.0.2.7", "2001:db8::1"); nil for a host name.
    public static func numeric(_ host: String, port: UInt16) -> SocketAddress? {
        var a = in_addr()
        if inet_pton(AF_INET, host, &a) == 1 {
            let b = withUnsafeBytes(of: &a) { ($0[0], $0[1], $0[2], $0[3]) }
            return .ipv4(address: b, port: port)
        }
        return ipv6Bytes(host).map { .ipv6(address: $0, port: port) }
    }

    /// The addresses of `host` (numeric, or a name through getaddrinfo: /etc/hosts and DNS). It
    /// blocks: call it at start-up or from a helper thread, never from the loop. Allocates.
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
        while let n = node, let sa = n.pointee.ai_addr {
            if n.pointee.ai_family == AF_INET {
                var a = sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                result.append(.ipv4(address: withUnsafeBytes(of: &a) { ($0[0], $0[1], $0[2], $0[3]) }, port: port))
            } else if n.pointee.ai_family == AF_INET6 {
                var a = sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                result.append(.ipv6(address: withUnsafeBytes(of: &a) { Array($0) }, port: port))
            }
            node = n.pointee.ai_next
        }
        return result.isEmpty ? .failure(ResolveError(code: EAI_NONAME)) : .success(result)
    }
}
