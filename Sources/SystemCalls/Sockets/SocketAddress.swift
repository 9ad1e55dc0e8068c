import Glibc

/// An address a stream or datagram socket binds or connects to: IPv4 or IPv6 bytes with a port, or
/// a Unix socket path. The one place `sockaddr_*` structures are built (`withSockaddr`).
public enum SocketAddress: Sendable, Equatable {
    /// IPv4: the address's four bytes in network order and a port.
    case ipv4(address: (UInt8, UInt8, UInt8, UInt8), port: UInt16)
    /// IPv6: the address's sixteen bytes and a port.
    case ipv6(address: [UInt8], port: UInt16)
    /// A Unix socket at a path.
    case unix(path: String)

    public static func == (a: SocketAddress, b: SocketAddress) -> Bool {
        switch (a, b) {
        case (.ipv4(let x, let p), .ipv4(let y, let q)): x == y && p == q
        case (.ipv6(let x, let p), .ipv6(let y, let q)): x == y && p == q
        case (.unix(let x), .unix(let y)): x == y
        default: false
        }
    }

    /// The address family (AF_INET, AF_INET6, AF_UNIX).
    var family: CInt {
        switch self {
        case .ipv4: AF_INET
        case .ipv6: AF_INET6
        case .unix: AF_UNIX
        }
    }

    /// Calls `body` with the address as a `sockaddr` and its length (bind, connect); throws
    /// ENAMETOOLONG for a Unix path that does not fit and EINVAL for an IPv6 address not 16 bytes.
    public func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) throws(Errno) -> R {
        switch self {
        case .ipv4(let a, let port):
            var sa = sockaddr_in()
            sa.sin_family = sa_family_t(AF_INET)
            sa.sin_port = port.bigEndian
            sa.sin_addr.s_addr = UInt32(a.0) | UInt32(a.1) << 8 | UInt32(a.2) << 16 | UInt32(a.3) << 24
            return Self.call(&sa, body)
        case .ipv6(let a, let port):
            guard a.count == 16 else { throw Errno.invalidArgument }
            var sa = sockaddr_in6()
            sa.sin6_family = sa_family_t(AF_INET6)
            sa.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &sa.sin6_addr) { raw in for i in 0..<16 { raw[i] = a[i] } }
            return Self.call(&sa, body)
        case .unix(let path):
            var sa = sockaddr_un()
            sa.sun_family = sa_family_t(AF_UNIX)
            // Byte by byte from the UTF-8 view (no Array: a reconnect runs on the loop).
            let fits: Bool = withUnsafeMutableBytes(of: &sa.sun_path) { raw in
                var i = 0
                for b in path.utf8 {
                    guard i < raw.count - 1 else { return false }
                    raw[i] = b
                    i += 1
                }
                return true
            }
            guard fits else { throw Errno(rawValue: ENAMETOOLONG) }
            return Self.call(&sa, body)
        }
    }

    private static func call<T, R>(_ sa: inout T, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafePointer(to: &sa) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<T>.size)) }
        }
    }

    /// The 16 bytes of an IPv6 address in text (inet_pton), or nil.
    public static func ipv6Bytes(_ text: String) -> [UInt8]? {
        var a = in6_addr()
        guard inet_pton(AF_INET6, text, &a) == 1 else { return nil }
        return withUnsafeBytes(of: &a) { Array($0) }
    }
}
