import SystemCalls
import Testing
import TestSupport
import TLS
import UplinkClient

/// Over TLS too, a published and acknowledged message allocates nothing once connected (docs/uplink.md
/// §10): OpenSSL's own mallocs are counted (TestSupport's counter replaces malloc for every library).
/// The context keeps the record buffers (no SSL_MODE_RELEASE_BUFFERS) and reads without read-ahead;
/// OpenSSL 3.0 still allocates 40 B blocks per record (WPACKET sub-packets), which the record pool serves.
@Suite(.serialized) struct MosquittoTLSAllocationTests {
    @Test func publishingOverTLSAllocatesNothingPerMessage() throws {
        let pki = try MosquittoTLSTests.certificates()
        defer { _ = runProcess(["rm", "-rf", pki.directory]) }
        let broker = try MosquittoTLSTests.broker(pki)
        var settings = MQTTUplinkSettings(address: SocketAddress.ipv4(address: (127, 0, 0, 1), port: broker.tlsPort), deviceIdentifier: "puck1",
                                          username: "fleet", password: "secret", keepAliveSeconds: 5, window: 16)
        settings.security = .tls(try MosquittoTLSTests.context(pki), serverName: "localhost")
        let client = MQTTUplinkClient(settings: settings, cursor: 0, seed: 3)
        #expect(TLSLibrary.recordPoolInstalled, "OpenSSL allocated before the record pool was installed")
        let before = TLSLibrary.recordPoolStatistics
        let allocations = MQTTClientAllocationTests.allocationsPerMessage(client)
        let after = TLSLibrary.recordPoolStatistics
        #expect(client.transport.isTLS)
        #expect(allocations == 0, "\(allocations) allocations for 5 000 messages over TLS")
        // OpenSSL 3.0's per-record blocks went to the pool (≥ 2 per message), and none to malloc.
        #expect(after.served - before.served >= 10_000 && after.fallbacks == before.fallbacks, "\(before) → \(after)")
        print("TLS record pool: \(after.served - before.served) blocks served for 5 500 messages, high water \(after.highWaterBlocks)"
            + " of \(after.capacityBlocks) × \(after.blockBytes) B, fallbacks \(after.fallbacks)")
    }
}
