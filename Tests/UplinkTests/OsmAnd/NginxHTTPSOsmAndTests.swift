#if canImport(Glibc)
import Glibc
#endif
import SystemCalls
import Testing
import TestSupport
import TLS
import TrackLog
import Uplink
import UplinkClient

/// The OsmAnd uplink over https:// (docs/uplink.md §10): the device's `OsmAndUplinkClient` over
/// `StreamTransport` against a real nginx with TLS listeners (Debian nginx-light has the ssl module),
/// certificates made by `openssl` in the test, nginx's access log read back: every seq in order; a
/// certificate from another CA, a wrong host name and a server that wants a client certificate.
@Suite(.serialized) struct NginxHTTPSOsmAndTests {
    /// nginx with three TLS servers: `port` (the test CA's localhost certificate), `otherPort` (another
    /// CA's), `clientPort` (wants a client certificate the test CA signed).
    final class HTTPSNginx {
        let directory: String, port: UInt16, otherPort: UInt16, clientPort: UInt16
        let process: BackgroundProcess

        init?(_ pki: TestCertificates) {
            guard runProcess(["sh", "-c", "command -v nginx"])?.status == 0 else { return nil }
            directory = Fixtures.temporaryDirectory(prefix: "puckd-nginx-tls")
            port = freePort()
            otherPort = freePort()
            clientPort = freePort()
            let d = directory
            writeFile(d + "/nginx.conf", """
                daemon off; master_process off; worker_processes 1; pid \(d)/nginx.pid; error_log \(d)/error.log;
                events { worker_connections 64; }
                http {
                  log_format osmand '$server_port $ssl_protocol $status $request_method $request_uri';
                  access_log \(d)/access.log osmand;
                  client_body_temp_path \(d)/body;
                  ssl_protocols TLSv1.2 TLSv1.3;
                  server { listen 127.0.0.1:\(port) ssl; ssl_certificate \(pki.serverCertificate);
                           ssl_certificate_key \(pki.serverKey); location / { return 200 "OK\\n"; } }
                  server { listen 127.0.0.1:\(otherPort) ssl; ssl_certificate \(pki.otherServerCertificate);
                           ssl_certificate_key \(pki.otherServerKey); location / { return 200 "OK\\n"; } }
                  server { listen 127.0.0.1:\(clientPort) ssl; ssl_certificate \(pki.serverCertificate);
                           ssl_certificate_key \(pki.serverKey); ssl_client_certificate \(pki.caFile); ssl_verify_client on;
                           location / { return 200 "OK\\n"; } }
                }

                """)
            guard let p = BackgroundProcess(["nginx", "-p", d, "-c", d + "/nginx.conf", "-e", d + "/error.log"],
                                            outputPath: d + "/nginx.out") else { return nil }
            process = p
            let end = monotonicNanoseconds() + 10_000_000_000
            while TestConnection(port: clientPort) == nil && monotonicNanoseconds() < end { sleepMilliseconds(20) }
        }

        deinit {
            process.stop()
            _ = runProcess(["rm", "-rf", directory])
        }

        /// The access log's lines of one server once it has `count` of them.
        func accessLog(port: UInt16, waitingFor count: Int) -> [String] {
            let end = monotonicNanoseconds() + 3_000_000_000
            func read() -> [String] {
                (runProcess(["cat", directory + "/access.log"])?.output ?? "").split(separator: "\n").map(String.init)
                    .filter { $0.hasPrefix(String(port) + " ") }
            }
            var log = read()
            while log.count < count && monotonicNanoseconds() < end { sleepMilliseconds(20); log = read() }
            return log
        }
    }

    static func setUp() throws -> (TestCertificates, HTTPSNginx) {
        let pki = try MosquittoTLSTests.certificates()
        let nginx = try #require(HTTPSNginx(pki), "nginx is needed (Debian nginx-light; make test installs it)")
        return (pki, nginx)
    }

    static func security(_ pki: TestCertificates, host: String = "localhost", client: Bool = false) throws -> StreamSecurity {
        .tls(try MosquittoTLSTests.context(pki, client: client), serverName: host)
    }

    /// The `seq` of each logged request, in the log's order.
    static func sequences(_ log: [String]) -> [UInt64] {
        log.compactMap { line in line.split(separator: "&").last.flatMap { UInt64($0.dropFirst(4)) } }
    }

    @Test func aRecordedDriveArrivesOverHTTPSInOrder() throws {
        let (pki, nginx) = try Self.setUp()
        defer { _ = runProcess(["rm", "-rf", pki.directory]) }
        let records = Array(try MosquittoUplinkTests.driveRecords().prefix(200))
        let uplink = OsmAndClientHarness(port: nginx.port, records: records, security: try Self.security(pki))
        uplink.deliverOneByOne(records.count)
        #expect(uplink.client.forwarder.cursor == UInt64(records.count) && uplink.client.fault == nil)
        #expect(uplink.client.connections == 1 && uplink.client.transport.isTLS, "one keep-alive TLS connection")
        let log = nginx.accessLog(port: nginx.port, waitingFor: records.count)
        #expect(Self.sequences(log) == Array(1...UInt64(records.count)), "every seq, in order, once")
        #expect(log.allSatisfy { $0.contains(" TLSv1.3 200 GET /?id=puck1&lat=") }, "\(log.prefix(2))")
    }

    /// Runs `uplink` for 6 s against a server it must refuse, and returns its one fault.
    static func refusedFor6Seconds(_ uplink: OsmAndClientHarness) -> OsmAndFault? {
        uplink.append(upTo: 1)
        uplink.run(seconds: 6) { false }
        // Backoff 1 s doubling with equal jitter: attempts at 0, 0.5–1, 1.5–3, 3.5–7 s: no retry storm.
        #expect(uplink.client.attempts >= 2 && uplink.client.attempts <= 4, "\(uplink.client.attempts) attempts in 6 s")
        #expect(uplink.faultsSaid.count == 1, "said once, not once per attempt: \(uplink.faultsSaid)")
        #expect(uplink.client.connections == 0 && uplink.client.forwarder.cursor == 0)
        return uplink.client.fault
    }

    @Test func aServerCertificateFromAnotherCAIsNotTrustedAndNamesOsmandCAFile() throws {
        let (pki, nginx) = try Self.setUp()
        defer { _ = runProcess(["rm", "-rf", pki.directory]) }
        let uplink = OsmAndClientHarness(port: nginx.otherPort, records: [sampleRecord(sequence: 1)], security: try Self.security(pki))
        let fault = Self.refusedFor6Seconds(uplink)
        guard case .tls(.notTrusted)? = fault else { Issue.record("fault: \(String(describing: fault))"); return }
        let message = fault?.message ?? ""
        #expect(message.contains("not trusted") && message.contains("osmand_ca_file") && !message.contains("mqtt"), "\(message)")
        #expect(nginx.accessLog(port: nginx.otherPort, waitingFor: 0).isEmpty, "no request went out")
    }

    @Test func aWrongHostNameIsAMismatch() throws {
        let (pki, nginx) = try Self.setUp()
        defer { _ = runProcess(["rm", "-rf", pki.directory]) }
        let uplink = OsmAndClientHarness(port: nginx.port, records: [sampleRecord(sequence: 1)],
                                         security: try Self.security(pki, host: "traccar.elsewhere.example"))
        let fault = Self.refusedFor6Seconds(uplink)
        #expect(fault == .tls(.hostNameMismatch), "\(String(describing: fault))")
        #expect(fault?.message.contains("osmand_url") ?? false, "\(fault?.message ?? "")")
    }

    @Test func aServerWantingAClientCertificateTakesOsmandCertFile() throws {
        let (pki, nginx) = try Self.setUp()
        defer { _ = runProcess(["rm", "-rf", pki.directory]) }
        // Without one nginx completes the handshake and answers 400 (its "No required SSL certificate was sent").
        let without = OsmAndClientHarness(port: nginx.clientPort, records: [sampleRecord(sequence: 1)], security: try Self.security(pki))
        without.append(upTo: 1)
        without.run(seconds: 3) { without.client.fault != nil }
        #expect(without.client.fault == .status(400) && without.client.forwarder.cursor == 0, "\(String(describing: without.client.fault))")
        // With osmand_cert_file and osmand_key_file: the records arrive.
        let records = [sampleRecord(sequence: 1), sampleRecord(sequence: 2)]
        let with = OsmAndClientHarness(port: nginx.clientPort, records: records, seed: 2, security: try Self.security(pki, client: true))
        with.deliverOneByOne(records.count)
        #expect(with.client.forwarder.cursor == 2 && with.client.fault == nil && with.client.connections == 1)
        let log = nginx.accessLog(port: nginx.clientPort, waitingFor: 3)
        #expect(log.count == 3 && log[0].contains(" 400 GET ") && Self.sequences(Array(log.dropFirst())) == [1, 2], "\(log)")
    }
}
