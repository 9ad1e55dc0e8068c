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

/// The uplink over TLS (mqtts://) against a real mosquitto with a TLS listener (docs/uplink.md §10): a CA,
/// server and client certificates made by the `openssl` command line in a scratch directory; records
/// arrive; a certificate from another CA, a wrong host name, a missing client certificate and a server
/// that never answers the handshake are each one clear fault, retried with backoff.
@Suite(.serialized) struct MosquittoTLSTests {
    static func certificates() throws -> TestCertificates {
        try #require(TestCertificates(directory: Fixtures.temporaryDirectory(prefix: "puckd-tls")), "openssl is needed (make test installs it)")
    }

    static func broker(_ pki: TestCertificates, other: Bool = false, requireCertificate: Bool = false) throws -> MosquittoBroker {
        let listener = MosquittoTLSListener(certificateFile: other ? pki.otherServerCertificate : pki.serverCertificate,
                                            keyFile: other ? pki.otherServerKey : pki.serverKey, caFile: pki.caFile,
                                            requireCertificate: requireCertificate)
        let broker = try #require(MosquittoBroker(tls: listener), "mosquitto, mosquitto_sub and mosquitto_passwd are needed")
        #expect(broker.start())
        return broker
    }

    static func context(_ pki: TestCertificates, client: Bool = false) throws -> TLSClientContext {
        var key: [UInt8]?
        if client {
            let text = try #require(runProcess(["cat", pki.clientKey])).output
            key = Array(text.utf8)
        }
        return try TLSClientContext(caFile: pki.caFile, certificateFile: client ? pki.clientCertificate : nil, keyPEM: key)
    }

    /// Publishes `records` one by one through `uplink` and returns what the consumer saw.
    static func deliver(_ records: [TrackRecord], _ uplink: MQTTClientHarness, _ sub: BackgroundProcess) -> [UInt64] {
        for s in 1...UInt64(records.count) {
            uplink.append(upTo: s)
            MosquittoUplinkTests.run(uplink, seconds: 10) { uplink.client.forwarder.cursor == s }
        }
        return MosquittoUplinkTests.consumed(sub, last: UInt64(records.count))
    }

    @Test func aRecordedDriveArrivesOverMQTTS() throws {
        let pki = try Self.certificates()
        defer { _ = runProcess(["rm", "-rf", pki.directory]) }
        let records = Array(try MosquittoUplinkTests.driveRecords().prefix(200))
        let broker = try Self.broker(pki)
        let sub = try #require(broker.subscribe())
        let uplink = MQTTClientHarness(port: broker.tlsPort, records: records, security: .tls(try Self.context(pki), serverName: "localhost"))
        let seen = Self.deliver(records, uplink, sub)
        #expect(seen == Array(1...UInt64(records.count)), "in order by seq, no gap, no duplicate")
        #expect(uplink.client.connections == 1 && uplink.client.fault == nil && uplink.client.transport.isTLS)
        #expect(broker.process?.output.contains("puckd-puck1") ?? false)
    }

    @Test func anAddressLiteralIsCheckedAgainstTheCertificatesIPAddress() throws {
        let pki = try Self.certificates()
        defer { _ = runProcess(["rm", "-rf", pki.directory]) }
        let broker = try Self.broker(pki)
        let sub = try #require(broker.subscribe())
        let records = [sampleRecord(sequence: 1)]
        let uplink = MQTTClientHarness(port: broker.tlsPort, records: records, security: .tls(try Self.context(pki), serverName: "127.0.0.1"))
        #expect(Self.deliver(records, uplink, sub) == [1] && uplink.client.fault == nil)
    }

    /// Runs `uplink` for 6 s against a broker it must refuse, and returns its one fault.
    static func refusedFor6Seconds(_ uplink: MQTTClientHarness) -> UplinkFault? {
        uplink.append(upTo: 1)
        MosquittoUplinkTests.run(uplink, seconds: 6) { false }
        // Backoff 1 s doubling with equal jitter: attempts at 0, 0.5–1, 1.5–3, 3.5–7 s: no retry storm.
        #expect(uplink.client.attempts >= 2 && uplink.client.attempts <= 4, "\(uplink.client.attempts) attempts in 6 s")
        #expect(uplink.faultsSaid.count == 1, "said once, not once per attempt: \(uplink.faultsSaid)")
        #expect(uplink.client.connections == 0 && uplink.client.forwarder.cursor == 0)
        return uplink.client.fault
    }

    @Test func aServerCertificateFromAnotherCAIsNotTrusted() throws {
        let pki = try Self.certificates()
        defer { _ = runProcess(["rm", "-rf", pki.directory]) }
        let broker = try Self.broker(pki, other: true)
        let uplink = MQTTClientHarness(port: broker.tlsPort, records: [sampleRecord(sequence: 1)],
                                       security: .tls(try Self.context(pki), serverName: "localhost"))
        let fault = Self.refusedFor6Seconds(uplink)
        guard case .tls(.notTrusted)? = fault else { Issue.record("fault: \(String(describing: fault))"); return }
        let message = fault?.message ?? ""
        #expect(message.contains("not trusted") && message.contains("mqtt_ca_file"), "\(message)")
    }

    @Test func aWrongHostNameIsAMismatch() throws {
        let pki = try Self.certificates()
        defer { _ = runProcess(["rm", "-rf", pki.directory]) }
        let broker = try Self.broker(pki)
        let uplink = MQTTClientHarness(port: broker.tlsPort, records: [sampleRecord(sequence: 1)],
                                       security: .tls(try Self.context(pki), serverName: "broker.elsewhere.example"))
        let fault = Self.refusedFor6Seconds(uplink)
        #expect(fault == .tls(.hostNameMismatch), "\(String(describing: fault))")
        #expect(fault?.message.contains("another host name") ?? false)
    }

    @Test func aBrokerRequiringAClientCertificateTakesMqttCertFileAndKey() throws {
        let pki = try Self.certificates()
        defer { _ = runProcess(["rm", "-rf", pki.directory]) }
        let broker = try Self.broker(pki, requireCertificate: true)
        // Without a certificate: refused, said once, with the keys to set.
        let without = MQTTClientHarness(port: broker.tlsPort, records: [sampleRecord(sequence: 1)],
                                        security: .tls(try Self.context(pki), serverName: "localhost"))
        let fault = Self.refusedFor6Seconds(without)
        guard case .tls(.clientCertificateRefused)? = fault else {
            Issue.record("fault: \(String(describing: fault)), said: \(without.faultsSaid)")
            return
        }
        #expect(fault?.message.contains("mqtt_cert_file") ?? false)
        // With mqtt_cert_file and mqtt_key_file: the records arrive.
        let sub = try #require(broker.subscribe())
        let records = [sampleRecord(sequence: 1), sampleRecord(sequence: 2)]
        let with = MQTTClientHarness(port: broker.tlsPort, records: records, seed: 2,
                                     security: .tls(try Self.context(pki, client: true), serverName: "localhost"))
        #expect(Self.deliver(records, with, sub) == [1, 2] && with.client.fault == nil && with.client.connections == 1)
    }

    @Test func aServerThatNeverAnswersTheHandshakeTimesOut() throws {
        let pki = try Self.certificates()
        defer { _ = runProcess(["rm", "-rf", pki.directory]) }
        // A listener that never accepts: the kernel completes the TCP connect, nobody answers the ClientHello.
        let listener = try Socket.listen(.ipv4(address: (127, 0, 0, 1), port: 0))
        defer { Socket.close(listener) }
        let port = try #require(Socket.boundPort(listener))
        let uplink = MQTTClientHarness(port: port, records: [sampleRecord(sequence: 1)],
                                       security: .tls(try Self.context(pki), serverName: "localhost"))
        uplink.append(upTo: 1)
        MosquittoUplinkTests.run(uplink, seconds: 4.5) { uplink.client.fault != nil }
        #expect(uplink.client.fault == .tls(.handshakeTimedOut), "\(String(describing: uplink.client.fault))")
        #expect(uplink.client.fault?.message.contains("TLS listener") ?? false)
    }

    @Test func aContextRefusesAKeyThatIsNotTheCertificatesAndAMissingCAFile() throws {
        let pki = try Self.certificates()
        defer { _ = runProcess(["rm", "-rf", pki.directory]) }
        let otherKey = Array(try #require(runProcess(["cat", pki.serverKey])).output.utf8)
        #expect(throws: TLSClientContext.SetupError.self) {
            try TLSClientContext(caFile: pki.caFile, certificateFile: pki.clientCertificate, keyPEM: otherKey, keyName: "client.key")
        }
        do throws(TLSClientContext.SetupError) {
            _ = try TLSClientContext(caFile: pki.directory + "/missing.pem")
            Issue.record("a missing CA file was accepted")
        } catch {
            #expect(error.message.contains("missing.pem"), "\(error.message)")
        }
    }
}
