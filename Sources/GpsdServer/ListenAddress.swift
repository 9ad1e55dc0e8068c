import SystemCalls

/// One address the gpsd-protocol server listens on: `127.0.0.1:2947`, `[::1]:2947`, `0.0.0.0:2947`,
/// `[::]:2947` (port 0: any free port, for tests), or a Unix socket path (docs/gpsd-protocol.md §4).
public enum ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// IPv4: the address's four bytes in network order and a port.
    case ipv4(address: (UInt8, UInt8, UInt8, UInt8), port: UInt16)
    /// IPv6: the address's sixteen bytes and a port (the socket is IPv6-only).
    case ipv6(address: [UInt8], port: UInt16)
    /// A Unix stream socket at a path.
    case unix(path: String)

    public static func == (a: ListenAddress, b: ListenAddress) -> Bool { a.description == b.description }

    /// The gpsd default: loopback only, on both IP versions.
    public static let loopbackDefaults: [ListenAddress] = [.ipv4(address: (127, 0, 0, 1), port: 2947),
                                                           .ipv6(address: [UInt8](repeating: 0, count: 15) + [1], port: 2947)]

    /// The address for the socket layer.
    public var socketAddress: SocketAddress {
        switch self {
        case .ipv4(let a, let port): .ipv4(address: a, port: port)
        case .ipv6(let a, let port): .ipv6(address: a, port: port)
        case .unix(let path): .unix(path: path)
        }
    }

    /// The address a socket is bound to, as a listen address (a passed socket's, `SocketActivation`).
    public init(socketAddress: SocketAddress) {
        switch socketAddress {
        case .ipv4(let a, let port): self = .ipv4(address: a, port: port)
        case .ipv6(let a, let port): self = .ipv6(address: a, port: port)
        case .unix(let path): self = .unix(path: path)
        }
    }

    /// True when only this machine can reach it (loopback or a Unix socket).
    public var isLocalOnly: Bool {
        switch self {
        case .ipv4(let a, _): a.0 == 127
        case .ipv6(let a, _): a == [UInt8](repeating: 0, count: 15) + [1]
        case .unix: true
        }
    }

    public var description: String {
        switch self {
        case .ipv4(let a, let port): "\(a.0).\(a.1).\(a.2).\(a.3):\(port)"
        case .ipv6(let a, let port): "[" + Self.ipv6Text(a) + "]:\(port)"
        case .unix(let path): path
        }
    }

    /// Parses `HOST:PORT` (IPv4 dotted quad, or an IPv6 address in brackets) or an absolute path.
    /// Returns nil with no explanation; `parse(_:)` says what is wrong.
    public init?(_ text: String) {
        guard case .success(let a) = Self.parse(text) else { return nil }
        self = a
    }

    /// The address in `text`, or a sentence saying what is wrong with it.
    public static func parse(_ text: String) -> Result<ListenAddress, ListenAddressError> {
        if text.hasPrefix("/") { return .success(.unix(path: text)) }
        guard let colon = text.lastIndex(of: ":") else { return .failure(ListenAddressError(text: text, reason: "no :PORT")) }
        let host = String(text[..<colon])
        guard let port = UInt16(text[text.index(after: colon)...]) else {
            return .failure(ListenAddressError(text: text, reason: "the port is not a number 0...65535"))
        }
        if host.hasPrefix("[") && host.hasSuffix("]") {
            guard let bytes = SocketAddress.ipv6Bytes(String(host.dropFirst().dropLast())) else {
                return .failure(ListenAddressError(text: text, reason: "not an IPv6 address"))
            }
            return .success(.ipv6(address: bytes, port: port))
        }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, let a = UInt8(parts[0]), let b = UInt8(parts[1]), let c = UInt8(parts[2]), let d = UInt8(parts[3])
        else { return .failure(ListenAddressError(text: text, reason: "not an IPv4 address (an IPv6 one goes in brackets: [::1]:2947)")) }
        return .success(.ipv4(address: (a, b, c, d), port: port))
    }

    static func ipv6Text(_ a: [UInt8]) -> String {
        if a == [UInt8](repeating: 0, count: 15) + [1] { return "::1" }
        if a == [UInt8](repeating: 0, count: 16) { return "::" }
        var groups: [String] = []
        for i in stride(from: 0, to: 16, by: 2) { groups.append(String(UInt16(a[i]) << 8 | UInt16(a[i + 1]), radix: 16)) }
        return groups.joined(separator: ":")
    }
}

/// Why a `[server] listen` entry is not an address.
public struct ListenAddressError: Error, Sendable, Equatable {
    public let text: String
    public let reason: String
    /// One sentence for the configuration error.
    public var message: String { "'" + text + "' is not a listen address: " + reason + " (e.g. 127.0.0.1:2947, [::1]:2947)" }
}
