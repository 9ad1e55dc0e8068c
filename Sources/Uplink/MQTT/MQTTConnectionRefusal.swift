/// A CONNACK return code other than 0 (OASIS MQTT 3.1.1 §3.2.2.3), as the sentence puckd logs once:
/// what the broker said and what the user does about it.
public enum MQTTConnectionRefusal: UInt8, Error, Sendable, Equatable {
    case unacceptableProtocolVersion = 1
    case identifierRejected = 2
    case serverUnavailable = 3
    case badUsernameOrPassword = 4
    case notAuthorized = 5
    /// A return code the 3.1.1 specification does not define (6…255).
    case unknown = 255

    public init(returnCode: UInt8) {
        self = MQTTConnectionRefusal(rawValue: returnCode) ?? .unknown
    }

    /// One sentence: the broker's reason and the fix.
    public var message: StaticString {
        switch self {
        case .unacceptableProtocolVersion:
            return "the broker refused MQTT 3.1.1 (return code 1): use a broker that speaks MQTT 3.1.1 (mosquitto does)"
        case .identifierRejected:
            return "the broker rejected the client identifier (return code 2): set [uplink] device_id to 1-23 letters and digits"
        case .serverUnavailable:
            return "the broker is unavailable (return code 3): puckd retries with backoff; check the broker's log"
        case .badUsernameOrPassword:
            return "the broker refused the username or password (return code 4): check the user in [uplink] mqtt_url and the file mqtt_password_file"
        case .notAuthorized:
            return "the broker says this client is not authorised (return code 5): give the user access in the broker's password/ACL files"
        case .unknown:
            return "the broker refused the connection with an unknown return code: check the broker's log"
        }
    }
}
