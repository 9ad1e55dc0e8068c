/// A parsed `osmand_url`: `http://host[:port]` (host a name, an IPv4 literal or [IPv6]; port 5055 by
/// default, Traccar's OsmAnd port) or `https://host[:port]` (TLS, port 443 by default: Traccar behind
/// a TLS reverse proxy; docs/uplink.md §10).
public struct OsmAndServerURL: Sendable, Equatable {
    public var host: String
    public var port: Int
    /// https://: TLS, the certificate checked against `host`.
    public var isTLS = false

    public init(host: String, port: Int, isTLS: Bool = false) {
        self.host = host
        self.port = port
        self.isTLS = isTLS
    }

    /// The Host header's value: the host, with `:port` unless it is the scheme's own (80, 443; RFC 9110 §7.2).
    public var hostHeader: String {
        let h = host.contains(":") ? "[" + host + "]" : host
        return port == (isTLS ? 443 : 80) ? h : h + ":" + String(port)
    }

    /// The URL's parts, or why it is refused (one sentence with what to write instead).
    public static func parse(_ text: String) -> Result<OsmAndServerURL, MQTTBrokerURLProblem> {
        let isTLS = text.hasPrefix("https://")
        guard isTLS || text.hasPrefix("http://") else {
            return .failure(MQTTBrokerURLProblem("'" + text + "' does not start with http:// or https://; write http(s)://host[:port]"))
        }
        var rest = Substring(text.dropFirst(isTLS ? "https://".count : "http://".count))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        if rest.contains("/") || rest.contains("?") || rest.contains("@") {
            return .failure(MQTTBrokerURLProblem("'" + text + "' has a path, query or user; write http(s)://host[:port] "
                + "(Traccar's OsmAnd endpoint is the server's root)"))
        }
        var host = rest, port = isTLS ? 443 : 5055
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return .failure(MQTTBrokerURLProblem("'" + text + "': [ without ]")) }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let tail = rest[rest.index(after: close)...]
            if !tail.isEmpty {
                guard tail.hasPrefix(":") else { return .failure(MQTTBrokerURLProblem("'" + text + "': write [address]:port")) }
                portText = tail.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        }
        if let portText {
            guard let p = Int(portText), (1...65535).contains(p) else {
                return .failure(MQTTBrokerURLProblem("'" + text + "': the port must be 1–65535"))
            }
            port = p
        }
        if host.isEmpty { return .failure(MQTTBrokerURLProblem("'" + text + "' has no host")) }
        return .success(OsmAndServerURL(host: String(host), port: port, isTLS: isTLS))
    }
}
