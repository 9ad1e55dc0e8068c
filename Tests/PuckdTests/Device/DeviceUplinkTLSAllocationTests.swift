#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import TLS
@testable import Puckd

/// The fixed-allocation rule with both fleet uplinks over TLS (docs/uplink.md §10): a real mosquitto with
/// a TLS listener and a real nginx with an `ssl` listener, certificates made by `openssl` in the test;
/// the device's MQTT (mqtts://) and OsmAnd (https://) clients connected, each durable record published
/// and acknowledged on both — 100 000 wake-ups allocate nothing (debug and release). Then both
/// connections are cut and the reconnect (TCP connect, TLS handshake, CONNACK) is counted: it allocates,
/// and the figure is printed, not hidden.
@Suite(.serialized) struct DeviceUplinkTLSAllocationTests {
    /// Steps the device `count` wake-ups of 1 ms, real time passing so the servers' answers arrive.
    static func run(_ h: SimulatedDeviceHarness, wakeUps count: Int, until done: () -> Bool = { false }) {
        var steps = 0
        while steps < count && !done() {
            h.now += 1_000_000
            _ = h.device.step(gps: &h.source, nowNanoseconds: h.now, ready: .all)
            steps += 1
            if steps % 100 == 0 { usleep(1000) }
        }
    }

    @Test func hundredThousandWakeUpsWithBothUplinksOverTLSAllocateNothing() throws {
        let scratch = Fixtures.temporaryDirectory(prefix: "puckd-uplink-tls-alloc")
        defer { _ = runProcess(["rm", "-rf", scratch]) }
        let pki = try #require(TestCertificates(directory: Fixtures.temporaryDirectory(prefix: "puckd-uplink-tls-pki")),
                               "openssl is needed (make test installs it)")
        defer { _ = runProcess(["rm", "-rf", pki.directory]) }
        let broker = try #require(DeviceUplinkAllocationTests.startBroker(in: scratch, tls: pki), "mosquitto is needed")
        defer { kill(broker.pid, SIGKILL) }
        let nginx = try #require(DeviceUplinkAllocationTests.startNginx(in: scratch, tls: pki), "nginx is needed (nginx-light)")
        defer { kill(nginx.pid, SIGTERM) }
        // Address literals: checked against the certificate's IP:127.0.0.1 (no resolver, no ::1 surprise).
        let h = try SimulatedDeviceHarness(overrides: ["track.flush_interval_s=1", "uplink.device_id=alloc",
                                                       "uplink.mqtt_url=mqtts://127.0.0.1:" + String(broker.port),
                                                       "uplink.mqtt_ca_file=" + pki.caFile,
                                                       "uplink.osmand_url=https://127.0.0.1:" + String(nginx.port),
                                                       "uplink.osmand_ca_file=" + pki.caFile])
        defer { h.removeDirectory() }
        let mqtt = try #require(h.device.uplink.mqtt, "the MQTT uplink is on: \(h.device.uplink.reportLines)")
        let osmand = try #require(h.device.uplink.osmand, "the OsmAnd uplink is on: \(h.device.uplink.reportLines)")
        let client = mqtt.client, http = osmand.client
        Self.run(h, wakeUps: 20_000)
        #expect(client.transport.isTLS && http.transport.isTLS)
        #expect(client.connections == 1 && client.fault == nil, "\(String(describing: client.fault))")
        #expect(http.connections >= 1 && http.fault == nil, "\(String(describing: http.fault))")
        let sent0 = client.messagesSent, acknowledged0 = client.forwarder.acknowledgedCount
        let httpAcknowledged0 = http.forwarder.acknowledgedCount, httpConnections0 = http.connections
        let pool0 = TLSLibrary.recordPoolStatistics
        let allocations = allocationCount { Self.run(h, wakeUps: 100_000) }
        let pool1 = TLSLibrary.recordPoolStatistics
        #expect(allocations == 0, "\(allocations) allocations in 100 000 wake-ups over TLS")
        #expect(client.messagesSent - sent0 > 500 && client.forwarder.acknowledgedCount - acknowledged0 > 500)
        #expect(http.forwarder.acknowledgedCount - httpAcknowledged0 > 500 && http.fault == nil)
        #expect(client.connections == 1 && http.connections == httpConnections0, "no reconnect inside the measured run")
        #expect(pool1.served > pool0.served && pool1.fallbacks == pool0.fallbacks, "\(pool0) → \(pool1)")

        // A reconnect: both connections cut under the clients (the peer sees a close), then counted
        // from the loss (the fault said once) to both connected again (backoff, connect, handshake).
        if let fd = client.descriptor { _ = Glibc.shutdown(fd.rawValue, CInt(SHUT_RDWR)) }
        if let fd = http.descriptor { _ = Glibc.shutdown(fd.rawValue, CInt(SHUT_RDWR)) }
        let lossAllocations = allocationCount { Self.run(h, wakeUps: 200) { client.phase != .open } }
        let reconnectAllocations = allocationCount {
            Self.run(h, wakeUps: 20_000) { client.connections == 2 && client.isConnected && http.isConnected && http.connections > httpConnections0 }
        }
        #expect(client.connections == 2 && http.connections > httpConnections0, "both reconnected")
        #expect(reconnectAllocations > 0, "a TLS handshake allocates (SSL_new, certificates, keys): not served from fixed memory")
        print("TLS reconnect: \(lossAllocations) allocations for the loss (fault said), \(reconnectAllocations) for the MQTT "
            + "and the HTTPS reconnect together (backoff, TCP connect, TLS 1.3 handshake, CONNACK, fault cleared)")
    }
}
