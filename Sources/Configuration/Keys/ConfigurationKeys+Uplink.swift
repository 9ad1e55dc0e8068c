/// The `[uplink]` keys: the fleet uplink from the track journal (docs/uplink.md §9). Restart-only: the
/// connection, its buffers and its cursor are set up at start-up.
extension ConfigurationKeys {
    static let uplink: [ConfigurationKey] = [
        .text("uplink", "device_id", \.uplink.deviceID,
              allowed: "empty (derived from /etc/machine-id) or 1–64 of A–Z a–z 0–9 . _ -",
              doc: "this tracker's name on the server: MQTT client id puckd-<device_id>, topic puckd/<device_id>/…, "
                + "Traccar's device identifier",
              validate: { $0.isEmpty ? nil : UplinkSettings.deviceIDProblem($0) }),
        .text("uplink", "mqtt_url", \.uplink.mqttURL, allowed: "empty (off), mqtt://[user@]host[:port] or mqtts://[user@]host[:port]",
              doc: "the MQTT 3.1.1 broker positions are published to (mqtt:// port 1883; mqtts:// is TLS, port 8883, "
                + "the certificate checked for the host name)",
              validate: { text in
                  if text.isEmpty { return nil }
                  if case .failure(let why) = MQTTBrokerURL.parse(text) { return why.message }
                  return nil
              }),
        .text("uplink", "mqtt_topic", \.uplink.mqttTopic,
              allowed: "empty (puckd/<device_id>/position) or an MQTT topic name without + and #",
              doc: "the topic each position is published to (QoS 1); the retained online/offline status goes to "
                + "puckd/<device_id>/status",
              validate: { text in
                  if text.isEmpty { return nil }
                  if text.contains("+") || text.contains("#") { return "'+' and '#' are subscription wildcards, not part of a topic name" }
                  if text.utf8.count > 1024 { return "longer than 1024 bytes" }
                  return nil
              }),
        .text("uplink", "mqtt_password_file", \.uplink.mqttPasswordFile, allowed: "empty (no password) or an absolute path",
              doc: "a file holding the broker password (first line); it must be readable only by root and puckd's user",
              validate: { $0.isEmpty || $0.hasPrefix("/") ? nil : "not an absolute path, write e.g. /etc/puckd/mqtt.password" }),
        .text("uplink", "mqtt_ca_file", \.uplink.mqttCAFile, allowed: "empty (the system's CA store) or an absolute path",
              doc: "PEM file of the CA certificates a mqtts:// broker's certificate is checked against",
              validate: { $0.isEmpty || $0.hasPrefix("/") ? nil : "not an absolute path, write e.g. /etc/puckd/fleet-ca.pem" }),
        .text("uplink", "mqtt_cert_file", \.uplink.mqttCertificateFile, allowed: "empty (none) or an absolute path",
              doc: "PEM client certificate (chain) sent to a mqtts:// broker that asks for one; needs mqtt_key_file",
              validate: { $0.isEmpty || $0.hasPrefix("/") ? nil : "not an absolute path, write e.g. /etc/puckd/client.crt" }),
        .text("uplink", "mqtt_key_file", \.uplink.mqttKeyFile, allowed: "empty (none) or an absolute path",
              doc: "PEM private key of mqtt_cert_file, unencrypted; it must be readable only by root and puckd's user",
              validate: { $0.isEmpty || $0.hasPrefix("/") ? nil : "not an absolute path, write e.g. /etc/puckd/client.key" }),
        .text("uplink", "osmand_url", \.uplink.osmandURL, allowed: "empty (off), http://host[:port] or https://host[:port]",
              doc: "the Traccar server's OsmAnd endpoint positions are sent to (http:// port 5055; https:// is TLS, port 443, "
                + "the certificate checked for the host name); both uplinks may run at once",
              validate: { text in
                  if text.isEmpty { return nil }
                  if case .failure(let why) = OsmAndServerURL.parse(text) { return why.message }
                  return nil
              }),
        .text("uplink", "osmand_ca_file", \.uplink.osmandCAFile, allowed: "empty (the system's CA store) or an absolute path",
              doc: "PEM file of the CA certificates an https:// OsmAnd server's certificate is checked against (its own key: "
                + "the Traccar server and the broker are usually signed by different CAs)",
              validate: { $0.isEmpty || $0.hasPrefix("/") ? nil : "not an absolute path, write e.g. /etc/puckd/traccar-ca.pem" }),
        .text("uplink", "osmand_cert_file", \.uplink.osmandCertificateFile, allowed: "empty (none) or an absolute path",
              doc: "PEM client certificate (chain) sent to an https:// OsmAnd server that asks for one; needs osmand_key_file",
              validate: { $0.isEmpty || $0.hasPrefix("/") ? nil : "not an absolute path, write e.g. /etc/puckd/client.crt" }),
        .text("uplink", "osmand_key_file", \.uplink.osmandKeyFile, allowed: "empty (none) or an absolute path",
              doc: "PEM private key of osmand_cert_file, unencrypted; it must be readable only by root and puckd's user",
              validate: { $0.isEmpty || $0.hasPrefix("/") ? nil : "not an absolute path, write e.g. /etc/puckd/client.key" }),
        .decimal("uplink", "interval_s", \.uplink.intervalSeconds, 0...86400, unit: "seconds, 0 = off; all three rate keys 0 = every fix",
                 doc: "send a position once this much time passed since the last one sent; with min_distance_m and min_heading_change_deg a position goes out when any is crossed"),
        .decimal("uplink", "min_distance_m", \.uplink.minimumDistanceMeters, 0...1_000_000, unit: "meters, 0 = off",
                 doc: "also send a position once the vehicle has moved this far from the last one sent"),
        .decimal("uplink", "min_heading_change_deg", \.uplink.minimumHeadingChangeDegrees, 0...180, unit: "degrees, 0 = off",
                 doc: "also send a position once the heading (else the course) turned more than this from the last one sent"),
        .integer("uplink", "backlog_limit", \.uplink.backlogLimitRecords, 1...100_000_000, unit: "records",
                 doc: "at most this many unsent records wait for the link; beyond it the oldest are given up (and counted)"),
        .decimal("uplink", "backlog_max_age_s", \.uplink.backlogMaximumAgeSeconds, 1...31_536_000, unit: "seconds",
                 doc: "the fault LED lights and status says so when the oldest unsent position has waited on disk longer than this (cleared below half of it)"),
    ]
}

/// `[uplink]`: the fleet uplink (docs/uplink.md §9).
public struct UplinkSettings: Sendable, Equatable {
    /// Empty: derived from /etc/machine-id (`derivedDeviceID`).
    public var deviceID = ""
    /// Empty: no MQTT uplink.
    public var mqttURL = ""
    /// Empty: `puckd/<device_id>/position`.
    public var mqttTopic = ""
    public var mqttPasswordFile = ""
    /// Empty: the system's CA store.
    public var mqttCAFile = ""
    /// Empty: no client certificate.
    public var mqttCertificateFile = ""
    public var mqttKeyFile = ""
    /// Empty: no OsmAnd uplink.
    public var osmandURL = ""
    /// Empty: the system's CA store (https:// only).
    public var osmandCAFile = ""
    /// Empty: no client certificate (https:// only).
    public var osmandCertificateFile = ""
    public var osmandKeyFile = ""
    /// 0: every fix, seconds.
    public var intervalSeconds = 0.0
    /// 0: off, meters.
    public var minimumDistanceMeters = 0.0
    /// 0: off, degrees.
    public var minimumHeadingChangeDegrees = 0.0
    public var backlogLimitRecords = 1_000_000
    /// The backlog fault's age, seconds.
    public var backlogMaximumAgeSeconds = 600.0

    public init() {}

    /// The device id to use: the configured one, else one derived from the machine id's text.
    public func resolvedDeviceID(machineID: String?) -> String {
        if !deviceID.isEmpty { return deviceID }
        return Self.derivedDeviceID(machineID: machineID)
    }

    /// The topic positions go to.
    public func resolvedTopic(deviceID: String) -> String {
        mqttTopic.isEmpty ? "puckd/" + deviceID + "/position" : mqttTopic
    }

    /// `puckd-` + 12 hex digits of a 64-bit FNV-1a hash of "puckd-uplink:" + machine id: stable per
    /// machine, and not the machine id itself (machine-id(5): do not expose it to the network).
    /// Without a machine id: `puckd-unknown`.
    public static func derivedDeviceID(machineID: String?) -> String {
        var trimmed = Substring(machineID ?? "")
        while let l = trimmed.last, l == "\n" || l == " " || l == "\r" { trimmed = trimmed.dropLast() }
        guard !trimmed.isEmpty else { return "puckd-unknown" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in Array("puckd-uplink:".utf8) + Array(trimmed.utf8) { hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        let digits = Array("0123456789abcdef".utf8)
        var out = "puckd-"
        for k in 0..<12 { out.append(Character(Unicode.Scalar(digits[Int((hash >> UInt64(60 - 4 * k)) & 15)]))) }
        return out
    }

    /// nil when `id` is a valid device id, else why not.
    public static func deviceIDProblem(_ id: String) -> String? {
        if id.utf8.count > 64 { return "longer than 64 characters" }
        for b in id.utf8 {
            let ok = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E || b == 0x5F || b == 0x2D
            if !ok { return "'" + id + "' has a character other than A–Z a–z 0–9 . _ - (it goes into MQTT topics)" }
        }
        return nil
    }
}

/// A parsed `mqtt_url`: `mqtt://[user@]host[:port]` or `mqtts://…` (TLS) (host a name, an IPv4 literal or [IPv6]).
public struct MQTTBrokerURL: Sendable, Equatable {
    public var user: String?
    public var host: String
    public var port: Int
    /// mqtts://: TLS, the certificate checked against `host`.
    public var isTLS = false

    /// The URL's parts, or why it is refused.
    public static func parse(_ text: String) -> Result<MQTTBrokerURL, MQTTBrokerURLProblem> {
        let isTLS = text.hasPrefix("mqtts://")
        guard isTLS || text.hasPrefix("mqtt://") else {
            return .failure(MQTTBrokerURLProblem("'" + text + "' does not start with mqtt:// or mqtts://"))
        }
        var rest = Substring(text.dropFirst(isTLS ? "mqtts://".count : "mqtt://".count))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        if rest.contains("/") || rest.contains("?") { return .failure(MQTTBrokerURLProblem("'" + text + "' has a path or query; write mqtt[s]://[user@]host[:port]")) }
        var user: String?
        if let at = rest.lastIndex(of: "@") {
            let u = rest[..<at]
            if u.contains(":") { return .failure(MQTTBrokerURLProblem("no password in mqtt_url: put it in mqtt_password_file")) }
            if u.isEmpty { return .failure(MQTTBrokerURLProblem("'" + text + "': empty user before @")) }
            user = String(u)
            rest = rest[rest.index(after: at)...]
        }
        var host = rest, port = isTLS ? 8883 : 1883
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return .failure(MQTTBrokerURLProblem("'" + text + "': [ without ]")) }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let tail = rest[rest.index(after: close)...]
            if !tail.isEmpty {
                guard tail.hasPrefix(":"), let p = Int(tail.dropFirst()), (1...65535).contains(p) else {
                    return .failure(MQTTBrokerURLProblem("'" + text + "': the port must be 1–65535"))
                }
                port = p
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            guard let p = Int(rest[rest.index(after: colon)...]), (1...65535).contains(p) else {
                return .failure(MQTTBrokerURLProblem("'" + text + "': the port must be 1–65535"))
            }
            port = p
        }
        if host.isEmpty { return .failure(MQTTBrokerURLProblem("'" + text + "' has no host")) }
        return .success(MQTTBrokerURL(user: user, host: String(host), port: port, isTLS: isTLS))
    }
}

/// Why an `mqtt_url` is refused, as one sentence with what to write instead.
public struct MQTTBrokerURLProblem: Error, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
