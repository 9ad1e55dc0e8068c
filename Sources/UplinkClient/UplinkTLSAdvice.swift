import TLS

/// What to change after a TLS failure, in the words of one uplink's keys (docs/uplink.md §10): the MQTT
/// uplink's `mqtt_*` keys and its broker's TLS listener, the OsmAnd uplink's `osmand_*` keys and its
/// server's HTTPS port. Fault path only: allocates.
public struct UplinkTLSAdvice: Sendable {
    /// The keys' prefix ("mqtt", "osmand"), the peer ("broker", "server") and its usual TLS port.
    public let prefix: String, peer: String, tlsPort: String, plainPort: String

    public static let mqtt = UplinkTLSAdvice(prefix: "mqtt", peer: "broker", tlsPort: "8883", plainPort: "1883")
    public static let osmand = UplinkTLSAdvice(prefix: "osmand", peer: "server", tlsPort: "443", plainPort: "5055")

    public func text(_ failure: TLSFailure) -> String {
        let url = "[uplink] " + prefix + "_url"
        let listener = prefix == "mqtt" ? "the broker's TLS listener" : "the server's HTTPS (TLS) port"
        switch failure {
        case .notTrusted:
            return "set [uplink] " + prefix + "_ca_file to the CA that signed the " + peer + "'s certificate (empty: the system store)"
        case .hostNameMismatch:
            return "use the host name the " + peer + "'s certificate names in " + url
                + (prefix == "mqtt" ? " (mqtts://host:port)" : " (https://host:port)")
        case .outsideValidity: return "renew the " + peer + "'s certificate or set this board's clock"
        case .clientCertificateRefused:
            return "set [uplink] " + prefix + "_cert_file and " + prefix + "_key_file to a client certificate the " + peer + "'s CA signed"
        case .protocolError: return "check that " + url + "'s port is " + listener + " (" + tlsPort + ")"
        case .handshakeTimedOut: return "check the network and that the port in " + url + " is " + listener
        case .closedDuringHandshake: return "check that the port in " + url + " is " + listener + " (" + tlsPort + "), not " + plainPort
        }
    }
}
