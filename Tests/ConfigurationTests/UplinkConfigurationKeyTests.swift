import Testing
@testable import Configuration

/// The `[uplink]` keys (the names scripts rely on, docs/uplink.md §9): names, defaults, the URL rules, the
/// derived device id.
struct UplinkConfigurationKeyTests {
    func load(_ text: String, overrides: [String] = []) throws(ConfigurationError) -> PuckdConfiguration {
        try ConfigurationLoader.load(documents: [ConfigurationDocument(name: "/etc/puckd.conf", text: text)],
                                     overrides: overrides).configuration
    }

    @Test func defaultsAndValues() throws {
        let defaults = try load("")
        #expect(defaults.uplink == UplinkSettings())
        #expect(defaults.uplink.mqttURL.isEmpty && defaults.uplink.osmandURL.isEmpty && defaults.uplink.intervalSeconds == 0)
        #expect(ConfigurationKeys.keys(in: "uplink").map(\.name) == [
            "device_id", "mqtt_url", "mqtt_topic", "mqtt_password_file", "mqtt_ca_file", "mqtt_cert_file", "mqtt_key_file",
            "osmand_url", "osmand_ca_file", "osmand_cert_file", "osmand_key_file", "interval_s", "min_distance_m", "min_heading_change_deg", "backlog_limit", "backlog_max_age_s"])
        let c = try load("""
            [uplink]
            device_id = van-7
            mqtt_url = mqtt://fleet@10.0.0.5:1884
            mqtt_topic = fleet/van-7/pos
            mqtt_password_file = /etc/puckd/mqtt.password
            interval_s = 10
            min_distance_m = 50
            min_heading_change_deg = 30
            osmand_url = http://traccar.example
            backlog_limit = 5000
            backlog_max_age_s = 120
            """)
        #expect(c.uplink.deviceID == "van-7" && c.uplink.mqttTopic == "fleet/van-7/pos" && c.uplink.intervalSeconds == 10
            && c.uplink.minimumDistanceMeters == 50 && c.uplink.backlogLimitRecords == 5000 && c.uplink.backlogMaximumAgeSeconds == 120
            && c.uplink.minimumHeadingChangeDegrees == 30)
        #expect(OsmAndServerURL.parse(c.uplink.osmandURL) == .success(OsmAndServerURL(host: "traccar.example", port: 5055)))
        #expect(OsmAndServerURL.parse("http://10.0.0.5:8080/") == .success(OsmAndServerURL(host: "10.0.0.5", port: 8080)))
        #expect(OsmAndServerURL.parse("http://[::1]:5055").map(\.hostHeader) == .success("[::1]:5055"))
        #expect(OsmAndServerURL.parse("http://t.example:80").map(\.hostHeader) == .success("t.example"))
        // https:// is TLS on 443 unless a port is given; the Host header leaves out the scheme's own port.
        #expect(OsmAndServerURL.parse("https://t.example") == .success(OsmAndServerURL(host: "t.example", port: 443, isTLS: true)))
        #expect(OsmAndServerURL.parse("https://t.example").map(\.hostHeader) == .success("t.example"))
        #expect(OsmAndServerURL.parse("https://t.example:5055").map(\.hostHeader) == .success("t.example:5055"))
        let https = try load("[uplink]\nosmand_url = https://t\nosmand_ca_file = /etc/puckd/t.pem\nosmand_cert_file = /etc/puckd/c.crt\n"
            + "osmand_key_file = /etc/puckd/c.key\n")
        #expect(https.uplink.osmandCAFile == "/etc/puckd/t.pem" && https.uplink.osmandCertificateFile == "/etc/puckd/c.crt"
            && https.uplink.osmandKeyFile == "/etc/puckd/c.key" && https.uplink.mqttCAFile.isEmpty)
        #expect(MQTTBrokerURL.parse(c.uplink.mqttURL) == .success(MQTTBrokerURL(user: "fleet", host: "10.0.0.5", port: 1884)))
        #expect(MQTTBrokerURL.parse("mqtt://broker.example") == .success(MQTTBrokerURL(user: nil, host: "broker.example", port: 1883)))
        #expect(MQTTBrokerURL.parse("mqtt://[::1]:2000") == .success(MQTTBrokerURL(user: nil, host: "::1", port: 2000)))
        #expect(c.uplink.resolvedTopic(deviceID: "van-7") == "fleet/van-7/pos")
        // mqtts:// is TLS on 8883 unless a port is given.
        #expect(MQTTBrokerURL.parse("mqtts://broker.example") == .success(MQTTBrokerURL(user: nil, host: "broker.example", port: 8883, isTLS: true)))
        #expect(MQTTBrokerURL.parse("mqtts://fleet@broker.example:9883")
            == .success(MQTTBrokerURL(user: "fleet", host: "broker.example", port: 9883, isTLS: true)))
        let tls = try load("[uplink]\nmqtt_url = mqtts://b\nmqtt_ca_file = /etc/puckd/ca.pem\nmqtt_cert_file = /etc/puckd/c.crt\n"
            + "mqtt_key_file = /etc/puckd/c.key\n")
        #expect(tls.uplink.mqttCAFile == "/etc/puckd/ca.pem" && tls.uplink.mqttCertificateFile == "/etc/puckd/c.crt"
            && tls.uplink.mqttKeyFile == "/etc/puckd/c.key")
        #expect(UplinkSettings().resolvedTopic(deviceID: "x") == "puckd/x/position")
        #expect(try load("", overrides: ["uplink.mqtt_url=mqtt://127.0.0.1:4000"]).uplink.mqttURL == "mqtt://127.0.0.1:4000")
    }

    @Test func deviceIDIsDerivedFromTheMachineIDWithoutExposingIt() {
        let id = "0123456789abcdef0123456789abcdef"
        let derived = UplinkSettings.derivedDeviceID(machineID: id + "\n")
        #expect(derived.hasPrefix("puckd-") && derived.count == 18 && !derived.contains("0123456789ab"))
        #expect(derived == UplinkSettings.derivedDeviceID(machineID: id))
        #expect(derived != UplinkSettings.derivedDeviceID(machineID: "fedcba9876543210fedcba9876543210"))
        #expect(UplinkSettings.derivedDeviceID(machineID: nil) == "puckd-unknown")
        var s = UplinkSettings()
        #expect(s.resolvedDeviceID(machineID: id) == derived)
        s.deviceID = "van-7"
        #expect(s.resolvedDeviceID(machineID: id) == "van-7")
    }

    @Test func badValuesNameTheKeyAndWhatToDo() {
        for (text, says) in [("[uplink]\nmqtt_url = http://broker\n", "does not start with mqtt:// or mqtts://"),
                             ("[uplink]\nmqtt_key_file = client.key\n", "not an absolute path"),
                             ("[uplink]\nmqtt_url = mqtt://u:secret@broker\n", "put it in mqtt_password_file"),
                             ("[uplink]\nmqtt_url = mqtt://broker:0\n", "port must be 1–65535"),
                             ("[uplink]\nmqtt_topic = a/+/b\n", "wildcards"),
                             ("[uplink]\ndevice_id = a/b\n", "goes into MQTT topics"),
                             ("[uplink]\nmqtt_password_file = mqtt.pw\n", "not an absolute path"),
                             ("[uplink]\nosmand_url = ftp://traccar:5055\n", "does not start with http:// or https://"),
                             ("[uplink]\nosmand_ca_file = ca.pem\n", "not an absolute path"),
                             ("[uplink]\nosmand_url = traccar:5055\n", "does not start with http://"),
                             ("[uplink]\nosmand_url = http://traccar:5055/api\n", "has a path"),
                             ("[uplink]\nosmand_url = http://traccar:99999\n", "port must be 1–65535"),
                             ("[uplink]\nmin_heading_change_deg = 200\n", "out of range"),
                             ("[uplink]\ninterval_s = -1\n", "interval_s = -1: out of range")] {
            do throws(ConfigurationError) {
                _ = try load(text)
                Issue.record("\(text) was accepted")
            } catch {
                #expect("\(error)".contains(says), "\(error)")
            }
        }
    }
}
