import SystemCalls
import TLS
import Uplink

/// What an OsmAnd (Traccar) uplink connects to and sends (`[uplink] osmand_url`, resolved at start-up):
/// the server's address, the Host header, the device identifier, the request form, the timeouts.
public struct OsmAndUplinkSettings: Sendable {
    public var address: SocketAddress
    /// Plain TCP (http://) or TLS with its context and the host name to check (https://).
    public var security: StreamSecurity = .plain
    /// The `id` parameter: Traccar's device identifier (`[uplink] device_id`).
    public var deviceIdentifier: [UInt8]
    /// The Host header value: `host` or `host:port`.
    public var host: [UInt8]
    public var form: OsmAndRequest.Form
    public var responseTimeoutSeconds: Int
    public var connectTimeoutSeconds: Int
    public var backlogMessagesPerSecond: Int
    public var backlogLimitRecords: UInt64
    /// The forwarder's in-order span (`UplinkForwarder.inOrderSpan`).
    public var inOrderSpanRecords: UInt64 = 0
    public var backoffBaseSeconds: Int
    public var backoffMaximumSeconds: Int

    public init(address: SocketAddress, deviceIdentifier: String, host: String, form: OsmAndRequest.Form = .query,
                responseTimeoutSeconds: Int = 10, connectTimeoutSeconds: Int = 10, backlogMessagesPerSecond: Int = 20,
                backlogLimitRecords: UInt64 = 1_000_000, backoffBaseSeconds: Int = 1, backoffMaximumSeconds: Int = 300) {
        self.address = address
        self.deviceIdentifier = Array(deviceIdentifier.utf8)
        self.host = Array(host.utf8)
        self.form = form
        self.responseTimeoutSeconds = responseTimeoutSeconds
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.backlogMessagesPerSecond = backlogMessagesPerSecond
        self.backlogLimitRecords = backlogLimitRecords
        self.backoffBaseSeconds = backoffBaseSeconds
        self.backoffMaximumSeconds = backoffMaximumSeconds
    }
}

/// The last thing that went wrong on an OsmAnd uplink, said once (with what to do) when it changes.
public enum OsmAndFault: Sendable, Equatable {
    case connectFailed(Errno)
    case connectTimedOut
    /// The server answered with a status other than 2xx: the record stays in the journal.
    case status(Int)
    /// The server's bytes are not an HTTP/1.1 response.
    case notHTTP
    /// No response within the response timeout.
    case serverSilent
    case connectionLost(Errno?)
    /// TLS failed (https://): the certificate, the host name, the client certificate, the handshake's time.
    case tls(TLSFailure)

    /// One sentence for the log and the console (fault path: may allocate).
    public var message: String {
        switch self {
        case .connectFailed(let e):
            return "cannot connect to the OsmAnd server: \(e.description); check [uplink] osmand_url and that Traccar runs; retrying with backoff"
        case .connectTimedOut:
            return "the OsmAnd server did not accept the connection in time; check the network and [uplink] osmand_url; retrying with backoff"
        case .status(let code):
            let hint = code == 404 ? "; is [uplink] osmand_url Traccar's OsmAnd port (5055), not its web port (8082)?"
                : code == 400 ? "; Traccar refuses positions of an unknown device: add a device with identifier [uplink] device_id" : ""
            return "the OsmAnd server answered HTTP \(code), the position stays in the journal" + hint + "; retrying with backoff"
        case .notHTTP: return "the OsmAnd server sent bytes that are not HTTP/1.1; is [uplink] osmand_url Traccar's OsmAnd port (5055)?"
        case .serverSilent: return "the OsmAnd server did not answer a request in time (response timeout); reconnecting with backoff"
        case .connectionLost(let e):
            return "the connection to the OsmAnd server was lost" + (e.map { ": " + $0.description } ?? "") + "; reconnecting with backoff"
        case .tls(let failure): return failure.message + "; " + UplinkTLSAdvice.osmand.text(failure) + "; retrying with backoff"
        }
    }
}
