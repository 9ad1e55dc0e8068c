import SystemCalls
import TLS
import Uplink

/// What an MQTT uplink connects to and says (the `[uplink]` keys, resolved at start-up): the broker's
/// address, the client id, credentials, topics, keep-alive, window and backlog rate.
public struct MQTTUplinkSettings: Sendable {
    public var address: SocketAddress
    /// Plain TCP (mqtt://) or TLS with its context and the host name to check (mqtts://).
    public var security: StreamSecurity = .plain
    public var clientIdentifier: [UInt8]
    public var username: [UInt8]?
    public var password: [UInt8]?
    /// `puckd/<device_id>/position` by default.
    public var positionTopic: [UInt8]
    /// `puckd/<device_id>/status`: retained `online`, and the will `offline`.
    public var statusTopic: [UInt8]
    public var keepAliveSeconds: Int
    public var responseTimeoutSeconds: Int
    public var connectTimeoutSeconds: Int
    public var window: Int
    public var backlogMessagesPerSecond: Int
    public var backlogLimitRecords: UInt64
    /// The forwarder's in-order span (`UplinkForwarder.inOrderSpan`).
    public var inOrderSpanRecords: UInt64 = 0
    public var backoffBaseSeconds: Int
    public var backoffMaximumSeconds: Int

    public init(address: SocketAddress, deviceIdentifier: String, username: String? = nil, password: String? = nil,
                positionTopic: String? = nil, keepAliveSeconds: Int = 60, responseTimeoutSeconds: Int = 10,
                connectTimeoutSeconds: Int = 10, window: Int = 16, backlogMessagesPerSecond: Int = 20,
                backlogLimitRecords: UInt64 = 1_000_000, backoffBaseSeconds: Int = 1, backoffMaximumSeconds: Int = 300) {
        self.address = address
        clientIdentifier = Array(("puckd-" + deviceIdentifier).utf8)
        self.username = username.map { Array($0.utf8) }
        self.password = password.map { Array($0.utf8) }
        self.positionTopic = Array((positionTopic ?? "puckd/" + deviceIdentifier + "/position").utf8)
        statusTopic = Array(("puckd/" + deviceIdentifier + "/status").utf8)
        self.keepAliveSeconds = keepAliveSeconds
        self.responseTimeoutSeconds = responseTimeoutSeconds
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.window = window
        self.backlogMessagesPerSecond = backlogMessagesPerSecond
        self.backlogLimitRecords = backlogLimitRecords
        self.backoffBaseSeconds = backoffBaseSeconds
        self.backoffMaximumSeconds = backoffMaximumSeconds
    }
}

/// The last thing that went wrong on an uplink, said once (with what to do) when it changes.
public enum UplinkFault: Sendable, Equatable {
    case connectFailed(Errno)
    case connectTimedOut
    case refused(MQTTConnectionRefusal)
    case protocolViolation(MQTTProtocolViolation)
    case brokerSilent
    case connectionLost(Errno?)
    /// TLS failed: the certificate, the host name, the client certificate, the handshake's time.
    case tls(TLSFailure)

    /// One sentence for the log and the console (start-up/fault path: may allocate).
    public var message: String {
        switch self {
        case .connectFailed(let e):
            return "cannot connect to the broker: \(e.description); check [uplink] mqtt_url and that the broker runs; retrying with backoff"
        case .connectTimedOut:
            return "the broker did not accept the connection in time; check the network and [uplink] mqtt_url; retrying with backoff"
        case .refused(let r): return r.message.description
        case .protocolViolation(let v):
            return "the broker sent bytes that are not MQTT 3.1.1 (\(v)); is [uplink] mqtt_url the broker's MQTT port?"
        case .brokerSilent: return "the broker stopped answering (keep-alive timeout); reconnecting with backoff"
        case .connectionLost(let e):
            return "the connection to the broker was lost" + (e.map { ": " + $0.description } ?? "") + "; reconnecting with backoff"
        case .tls(let failure): return failure.message + "; " + UplinkTLSAdvice.mqtt.text(failure) + "; retrying with backoff"
        }
    }
}
