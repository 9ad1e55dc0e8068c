#if canImport(Glibc)
import Glibc
#endif
import Configuration
@testable import Puckd
import Testing
import TestSupport
import TLS

/// The uplink's TLS start-up (docs/uplink.md §10): mqtts:// builds the context from mqtt_ca_file,
/// mqtt_cert_file and mqtt_key_file (certificates made by the openssl command line); the key is refused
/// when others can read it, like the password file; a certificate without its key, a missing CA file.
@Suite struct DeviceUplinkTLSTests {
    static func settings(_ pki: TestCertificates, client: Bool) -> UplinkSettings {
        var s = UplinkSettings()
        s.mqttURL = "mqtts://localhost"
        s.mqttCAFile = pki.caFile
        if client {
            s.mqttCertificateFile = pki.clientCertificate
            s.mqttKeyFile = pki.clientKey
        }
        return s
    }

    /// The MQTT uplink's security from `settings` (as DeviceUplink+Build calls it).
    static func security(_ settings: UplinkSettings, _ text: String, report: inout [String]) throws -> Result<StreamSecurity, MQTTBrokerURLProblem> {
        guard case .success(let url) = MQTTBrokerURL.parse(text) else { throw Failure() }
        return DeviceUplinkTLS.security(.mqtt(settings), isTLS: url.isTLS, host: url.host, report: &report)
    }

    struct Failure: Error {}

    static func problem(_ settings: UplinkSettings) throws -> String? {
        var report: [String] = []
        switch try security(settings, settings.mqttURL, report: &report) {
        case .success: return nil
        case .failure(let why): return why.message
        }
    }

    @Test func mqttsBuildsTheContextWithTheClientCertificate() throws {
        let pki = try #require(TestCertificates(directory: Fixtures.temporaryDirectory(prefix: "puckd-tls-setup")))
        defer { _ = runProcess(["rm", "-rf", pki.directory]) }
        var report: [String] = []
        let result = try Self.security(Self.settings(pki, client: true), "mqtts://localhost", report: &report)
        guard case .success(.tls(let context, let name)) = result else { Issue.record("\(result)"); return }
        #expect(name == "localhost" && context.hasClientCertificate)
        #expect(report.contains { $0.contains("TLS (OpenSSL ") && $0.contains(pki.caFile) && $0.contains("client certificate") }, "\(report)")
        // Plain mqtt:// stays plain, and says the TLS keys are unused.
        var plain = Self.settings(pki, client: false)
        plain.mqttURL = "mqtt://localhost"
        var plainReport: [String] = []
        guard case .success(.plain) = try Self.security(plain, plain.mqttURL, report: &plainReport) else {
            Issue.record("mqtt:// was not plain")
            return
        }
        #expect(plainReport.contains { $0.contains("used with mqtts:// only") })
    }

    @Test func aKeyOthersCanReadIsRefusedWithTheChmod() throws {
        let pki = try #require(TestCertificates(directory: Fixtures.temporaryDirectory(prefix: "puckd-tls-setup")))
        defer { _ = runProcess(["rm", "-rf", pki.directory]) }
        #expect(chmod(pki.clientKey, 0o644) == 0)
        let why = try Self.problem(Self.settings(pki, client: true)) ?? ""
        #expect(why.contains("mqtt_key_file") && why.contains("readable by every user") && why.contains("chmod 0600"), "\(why)")
        #expect(chmod(pki.clientKey, 0o600) == 0)
        #expect(try Self.problem(Self.settings(pki, client: true)) == nil)
    }

    @Test func aCertificateWithoutItsKeyAndAMissingCAFileAreRefused() throws {
        let pki = try #require(TestCertificates(directory: Fixtures.temporaryDirectory(prefix: "puckd-tls-setup")))
        defer { _ = runProcess(["rm", "-rf", pki.directory]) }
        var s = Self.settings(pki, client: true)
        s.mqttKeyFile = ""
        #expect(try Self.problem(s)?.contains("go together") ?? false)
        s = Self.settings(pki, client: false)
        s.mqttCAFile = pki.directory + "/nowhere.pem"
        let why = try Self.problem(s) ?? ""
        #expect(why.contains("nowhere.pem") && why.contains("mqtt_ca_file"), "\(why)")
    }

    @Test func httpsTakesTheOsmAndUplinksOwnKeys() throws {
        let pki = try #require(TestCertificates(directory: Fixtures.temporaryDirectory(prefix: "puckd-tls-setup")))
        defer { _ = runProcess(["rm", "-rf", pki.directory]) }
        var s = UplinkSettings()
        s.osmandURL = "https://localhost"
        s.osmandCAFile = pki.caFile
        s.osmandCertificateFile = pki.clientCertificate
        s.osmandKeyFile = pki.clientKey
        var report: [String] = []
        let result = DeviceUplinkTLS.security(.osmand(s), isTLS: true, host: "localhost", report: &report)
        guard case .success(.tls(let context, let name)) = result else { Issue.record("\(result)"); return }
        #expect(name == "localhost" && context.hasClientCertificate)
        // The MQTT uplink's keys are not the OsmAnd uplink's.
        s.mqttCAFile = pki.caFile
        s.osmandKeyFile = ""
        guard case .failure(let why) = DeviceUplinkTLS.security(.osmand(s), isTLS: true, host: "localhost", report: &report) else {
            Issue.record("a certificate without its key was accepted")
            return
        }
        #expect(why.message.contains("osmand_cert_file and osmand_key_file go together"), "\(why.message)")
        #expect(chmod(pki.clientKey, 0o644) == 0)
        s.osmandKeyFile = pki.clientKey
        guard case .failure(let open) = DeviceUplinkTLS.security(.osmand(s), isTLS: true, host: "localhost", report: &report) else {
            Issue.record("a key others can read was accepted")
            return
        }
        #expect(open.message.contains("osmand_key_file") && open.message.contains("chmod 0600"), "\(open.message)")
    }
}
