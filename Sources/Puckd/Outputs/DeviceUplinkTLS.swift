import Configuration
import TLS
import UplinkClient

/// The TLS side of the MQTT uplink's start-up (docs/uplink.md §10): for `mqtts://`, the context built
/// from `mqtt_ca_file` (or the system store) and `mqtt_cert_file`/`mqtt_key_file`, the key refused when
/// group or others can read it (as the password file). Start-up only: allocates.
enum DeviceUplinkTLS {
    /// The security of the connection, or why the uplink cannot start (one sentence naming the key).
    static func security(_ settings: UplinkSettings, url: MQTTBrokerURL, report: inout [String]) -> Result<StreamSecurity, MQTTBrokerURLProblem> {
        guard url.isTLS else {
            if !settings.mqttCAFile.isEmpty || !settings.mqttCertificateFile.isEmpty || !settings.mqttKeyFile.isEmpty {
                report.append("uplink: mqtt_ca_file, mqtt_cert_file and mqtt_key_file are used with mqtts:// only; mqtt_url is plain mqtt://")
            }
            return .success(.plain)
        }
        if settings.mqttCertificateFile.isEmpty != settings.mqttKeyFile.isEmpty {
            return .failure(MQTTBrokerURLProblem("[uplink] mqtt_cert_file and mqtt_key_file go together: set both or neither"))
        }
        var key: [UInt8]?
        if !settings.mqttKeyFile.isEmpty {
            let path = settings.mqttKeyFile
            do throws(WholeFile.Failure) {
                key = try WholeFile.read(path, limitBytes: 64 * 1024,
                                         trust: FileTrust(secretName: "the MQTT client key", purpose: "read the client key and pose as this tracker"))
            } catch {
                let reason = switch error {
                case .cannotOpen(let code): "cannot open it (" + code.message + ")"
                case .notRegular: "not a regular file"
                case .cannotRead(let code): "cannot read it (" + code.message + ")"
                case .tooLarge: "larger than 64 KiB: not a PEM key"
                case .untrusted(let why): "refused: " + why
                }
                return .failure(MQTTBrokerURLProblem("[uplink] mqtt_key_file " + path + ": " + reason))
            }
        }
        defer { if key != nil { for k in key!.indices { key![k] = 0 } } }
        do throws(TLSClientContext.SetupError) {
            let context = try TLSClientContext(caFile: settings.mqttCAFile.isEmpty ? nil : settings.mqttCAFile,
                                               certificateFile: settings.mqttCertificateFile.isEmpty ? nil : settings.mqttCertificateFile,
                                               keyPEM: key, keyName: "[uplink] mqtt_key_file " + settings.mqttKeyFile)
            report.append("uplink: TLS (" + TLSLibrary.versionText + ", TLS 1.2 minimum), " + url.host + " checked against "
                + (settings.mqttCAFile.isEmpty ? "the system's CA store" : settings.mqttCAFile)
                + (context.hasClientCertificate ? ", client certificate " + settings.mqttCertificateFile : ""))
            return .success(.tls(context, serverName: url.host))
        } catch {
            let key = settings.mqttCAFile.isEmpty ? "" : " (check [uplink] mqtt_ca_file)"
            return .failure(MQTTBrokerURLProblem("TLS: " + error.message + key))
        }
    }
}
