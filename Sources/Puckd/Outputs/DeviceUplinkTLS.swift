import Configuration
import TLS
import UplinkClient

/// The TLS side of an uplink's start-up (docs/uplink.md §10): for `mqtts://` and `https://`, the context
/// built from the uplink's own CA file (or the system store) and client certificate/key (`mqtt_*` or
/// `osmand_*`), the key refused when group or others can read it (as the password file). Start-up only:
/// allocates.
enum DeviceUplinkTLS {
    /// One uplink's TLS keys, by the prefix of their names.
    struct Keys {
        let prefix: String, caFile: String, certificateFile: String, keyFile: String, secretName: String

        static func mqtt(_ s: UplinkSettings) -> Keys {
            Keys(prefix: "mqtt", caFile: s.mqttCAFile, certificateFile: s.mqttCertificateFile, keyFile: s.mqttKeyFile,
                 secretName: "the MQTT client key")
        }
        static func osmand(_ s: UplinkSettings) -> Keys {
            Keys(prefix: "osmand", caFile: s.osmandCAFile, certificateFile: s.osmandCertificateFile, keyFile: s.osmandKeyFile,
                 secretName: "the OsmAnd client key")
        }
    }

    /// The security of the connection, or why the uplink cannot start (one sentence naming the key).
    static func security(_ keys: Keys, isTLS: Bool, host: String, report: inout [String]) -> Result<StreamSecurity, MQTTBrokerURLProblem> {
        let p = keys.prefix
        guard isTLS else {
            if !keys.caFile.isEmpty || !keys.certificateFile.isEmpty || !keys.keyFile.isEmpty {
                report.append("uplink: " + p + "_ca_file, " + p + "_cert_file and " + p + "_key_file are used with "
                    + (p == "mqtt" ? "mqtts://" : "https://") + " only; " + p + "_url is plain " + (p == "mqtt" ? "mqtt://" : "http://"))
            }
            return .success(.plain)
        }
        if keys.certificateFile.isEmpty != keys.keyFile.isEmpty {
            return .failure(MQTTBrokerURLProblem("[uplink] " + p + "_cert_file and " + p + "_key_file go together: set both or neither"))
        }
        var key: [UInt8]?
        if !keys.keyFile.isEmpty {
            let path = keys.keyFile
            do throws(WholeFile.Failure) {
                key = try WholeFile.read(path, limitBytes: 64 * 1024,
                                         trust: FileTrust(secretName: keys.secretName, purpose: "read the client key and pose as this tracker"))
            } catch {
                let reason = switch error {
                case .cannotOpen(let code): "cannot open it (" + code.message + ")"
                case .notRegular: "not a regular file"
                case .cannotRead(let code): "cannot read it (" + code.message + ")"
                case .tooLarge: "larger than 64 KiB: not a PEM key"
                case .untrusted(let why): "refused: " + why
                }
                return .failure(MQTTBrokerURLProblem("[uplink] " + p + "_key_file " + path + ": " + reason))
            }
        }
        defer { if key != nil { for k in key!.indices { key![k] = 0 } } }
        do throws(TLSClientContext.SetupError) {
            let context = try TLSClientContext(caFile: keys.caFile.isEmpty ? nil : keys.caFile,
                                               certificateFile: keys.certificateFile.isEmpty ? nil : keys.certificateFile,
                                               keyPEM: key, keyName: "[uplink] " + p + "_key_file " + keys.keyFile)
            report.append("uplink: TLS (" + TLSLibrary.versionText + ", TLS 1.2 minimum), " + host + " checked against "
                + (keys.caFile.isEmpty ? "the system's CA store" : keys.caFile)
                + (context.hasClientCertificate ? ", client certificate " + keys.certificateFile : ""))
            return .success(.tls(context, serverName: host))
        } catch {
            let key = keys.caFile.isEmpty ? "" : " (check [uplink] " + p + "_ca_file)"
            return .failure(MQTTBrokerURLProblem("TLS: " + error.message + key))
        }
    }
}
