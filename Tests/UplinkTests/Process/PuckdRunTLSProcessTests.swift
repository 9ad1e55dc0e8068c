#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// `puckd run --board sim` publishing over mqtts:// into a real mosquitto that requires a client
/// certificate (docs/uplink.md §10): the [uplink] TLS keys from the command line to the connection; the
/// client key refused while others can read it, with the chmod to run; then every sequence, in order.
@Suite(.serialized) struct PuckdRunTLSProcessTests {
    @Test func puckdRunPublishesOverMQTTSWithAClientCertificate() throws {
        let pki = try MosquittoTLSTests.certificates()
        defer { _ = runProcess(["rm", "-rf", pki.directory]) }
        let broker = try MosquittoTLSTests.broker(pki, requireCertificate: true)
        writeFile(broker.directory + "/mqtt.password", "secret\n")
        _ = runProcess(["chmod", "0600", broker.directory + "/mqtt.password"])
        let state = broker.directory + "/state"
        func run(_ log: String) -> BackgroundProcess? {
            BackgroundProcess([puckdExecutable, "run", "--board", "sim", "--console", "none",
                               "--set", "state.directory=" + state, "--set", "server.enabled=false",
                               "--set", "console.status_interval_s=0", "--set", "track.flush_interval_s=0.5",
                               "--set", "uplink.mqtt_url=mqtts://fleet@localhost:" + String(broker.tlsPort),
                               "--set", "uplink.mqtt_password_file=" + broker.directory + "/mqtt.password",
                               "--set", "uplink.mqtt_ca_file=" + pki.caFile, "--set", "uplink.mqtt_cert_file=" + pki.clientCertificate,
                               "--set", "uplink.mqtt_key_file=" + pki.clientKey, "--set", "uplink.device_id=puck1"],
                              outputPath: broker.directory + "/" + log)
        }
        _ = runProcess(["chmod", "0644", pki.clientKey])
        let refused = try #require(run("refused.log"))
        #expect(refused.waitFor("no fleet uplink", seconds: 20), "\(refused.output)")
        refused.stop()
        #expect(refused.output.contains("mqtt_key_file " + pki.clientKey) && refused.output.contains("chmod 0600 " + pki.clientKey),
                "\(refused.output)")
        _ = runProcess(["rm", "-rf", state])
        _ = runProcess(["chmod", "0600", pki.clientKey])

        let sub = try #require(broker.subscribe())
        let puckd = try #require(run("run.log"))
        #expect(puckd.waitFor("uplink: TLS (OpenSSL ", seconds: 20), "\(puckd.output)")
        var waited = 0
        while waited < 400 && MosquittoBroker.sequences(sub.output).count < 40 { sleepMilliseconds(50); waited += 1 }
        puckd.stop()
        sleepMilliseconds(300)
        sub.stop()
        let seen = MosquittoBroker.sequences(sub.output)
        #expect(seen.count >= 40 && seen == Array(0..<UInt64(seen.count)), "in order from 0, no gap: \(seen.prefix(50))")
        #expect(!puckd.output.contains("uplink: the server"), "no TLS fault: \(puckd.output)")
    }
}
