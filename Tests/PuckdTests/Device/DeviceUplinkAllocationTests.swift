#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import Puckd

/// The fixed-allocation rule with both fleet uplinks on (docs/uplink.md §9): a real mosquitto and a real
/// nginx (standing in for Traccar's OsmAnd port) on free loopback ports, the device's MQTT and OsmAnd
/// clients connected, each durable record published and acknowledged on both, the cursors saved every
/// 5 s — 100 000 wake-ups allocate nothing (debug and release).
@Suite(.serialized) struct DeviceUplinkAllocationTests {
    /// A mosquitto of this test (daemonized, its pid file read back; killed by that pid).
    /// With `tls`: a TLS listener with the test CA's server certificate (mosquitto.conf(5) certfile/keyfile).
    static func startBroker(in directory: String, tls: TestCertificates? = nil) -> (port: Int, pid: pid_t)? {
        guard runProcess(["sh", "-c", "command -v mosquitto"])?.status == 0 else { return nil }
        let port = freeLoopbackPort()
        let user = runProcess(["id", "-un"])?.output.split(separator: "\n").first.map(String.init) ?? "mosquitto"
        let conf = directory + "/mosquitto.conf"
        var text = "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\npid_file \(directory)/mosquitto.pid\nuser \(user)\n"
        if let tls { text += "certfile \(tls.serverCertificate)\nkeyfile \(tls.serverKey)\n" }
        guard runProcess(["sh", "-c", "cat > " + conf], input: Array(text.utf8))?.status == 0,
              runProcess(["mosquitto", "-d", "-c", conf])?.status == 0 else { return nil }
        for _ in 0..<100 {
            if let pidText = Fixtures.readFile(directory + "/mosquitto.pid"),
               let pid = pid_t(String(decoding: pidText, as: UTF8.self).split(separator: "\n").first ?? "") { return (port, pid) }
            usleep(20_000)
        }
        return nil
    }

    /// A free loopback TCP port (bound once, released).
    static func freeLoopbackPort() -> Int {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(probe, $0, &length) } }
        close(probe)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// An nginx of this test answering 200 to every request (daemonized, killed by its pid file's pid).
    /// With `tls`: an `ssl` listener with the test CA's server certificate.
    static func startNginx(in directory: String, port: Int = freeLoopbackPort(), tls: TestCertificates? = nil) -> (port: Int, pid: pid_t)? {
        guard runProcess(["sh", "-c", "command -v nginx"])?.status == 0 else { return nil }
        let d = directory
        let ssl = tls.map { " ssl; ssl_protocols TLSv1.2 TLSv1.3; ssl_certificate \($0.serverCertificate); ssl_certificate_key \($0.serverKey)" } ?? ""
        let text = """
            pid \(d)/nginx.pid; error_log \(d)/nginx-error.log; worker_processes 1;
            events { worker_connections 64; }
            http { log_format osmand '$status $request_method $request_uri'; access_log \(d)/access.log osmand; client_body_temp_path \(d)/body;
              server { listen 127.0.0.1:\(port)\(ssl); location / { return 200 "OK\\n"; } } }

            """
        guard runProcess(["sh", "-c", "cat > " + d + "/nginx.conf"], input: Array(text.utf8))?.status == 0,
              runProcess(["nginx", "-p", d, "-c", d + "/nginx.conf", "-e", d + "/nginx-error.log"])?.status == 0 else { return nil }
        for _ in 0..<100 {
            if let pidText = Fixtures.readFile(d + "/nginx.pid"),
               let pid = pid_t(String(decoding: pidText, as: UTF8.self).split(separator: "\n").first ?? "") { return (port, pid) }
            usleep(20_000)
        }
        return nil
    }

    @Test func hundredThousandWakeUpsWithBothUplinksConnectedAllocateNothing() throws {
        let scratch = Fixtures.temporaryDirectory(prefix: "puckd-uplink-alloc")
        defer { _ = runProcess(["rm", "-rf", scratch]) }
        let broker = try #require(Self.startBroker(in: scratch), "mosquitto is needed (make test installs it)")
        defer { kill(broker.pid, SIGKILL) }
        let nginx = try #require(Self.startNginx(in: scratch), "nginx is needed (Debian nginx-light; make test installs it)")
        defer { kill(nginx.pid, SIGTERM) }
        let h = try SimulatedDeviceHarness(overrides: ["track.flush_interval_s=1", "uplink.device_id=alloc",
                                                       "uplink.mqtt_url=mqtt://127.0.0.1:" + String(broker.port),
                                                       "uplink.osmand_url=http://127.0.0.1:" + String(nginx.port)])
        defer { h.removeDirectory() }
        let mqtt = try #require(h.device.uplink.mqtt, "the MQTT uplink is on: \(h.device.uplink.reportLines)")
        let osmand = try #require(h.device.uplink.osmand, "the OsmAnd uplink is on: \(h.device.uplink.reportLines)")
        let client = mqtt.client, http = osmand.client
        // Warm-up: connect, publish, acknowledge, save the cursor (20 s of the drive); real time passes
        // between steps so the broker's answers arrive.
        var steps = 0
        while steps < 20_000 {
            h.now += 1_000_000
            _ = h.device.step(gps: &h.source, nowNanoseconds: h.now, ready: .all)
            steps += 1
            if steps % 100 == 0 { usleep(1000) }
        }
        #expect(client.connections == 1 && client.fault == nil, "\(String(describing: client.fault))")
        #expect(http.connections >= 1 && http.fault == nil, "\(String(describing: http.fault))")
        let sent0 = client.messagesSent, acknowledged0 = client.forwarder.acknowledgedCount
        let httpSent0 = http.messagesSent, httpAcknowledged0 = http.forwarder.acknowledgedCount
        let writes0 = mqtt.cursorStore.writes, httpWrites0 = osmand.cursorStore.writes
        var wakeUps = 0
        let allocations = allocationCount {
            while wakeUps < 100_000 {
                h.now += 1_000_000
                _ = h.device.step(gps: &h.source, nowNanoseconds: h.now, ready: .all)
                wakeUps += 1
                if wakeUps % 100 == 0 { usleep(1000) }
            }
        }
        #expect(allocations == 0)
        // The uplink worked during the measured run: about ten fixes a second published and acknowledged.
        #expect(client.messagesSent - sent0 > 500)
        #expect(client.forwarder.acknowledgedCount - acknowledged0 > 500)
        #expect(mqtt.cursorStore.writes - writes0 >= 10, "the cursor saved about every 5 s")
        #expect(client.connections == 1 && client.fault == nil)
        // The OsmAnd uplink too: one request in flight, each answered 200 by nginx (keep-alive).
        #expect(http.messagesSent - httpSent0 > 500)
        #expect(http.forwarder.acknowledgedCount - httpAcknowledged0 > 500)
        #expect(osmand.cursorStore.writes - httpWrites0 >= 10)
        #expect(http.fault == nil, "\(String(describing: http.fault))")
    }
}
