#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import TrackLog
import Uplink
import UplinkClient

/// A live link whose traffic stops without a close (docs/uplink.md §7): a TCP proxy between the client
/// and the real server stops forwarding in both directions (a black-holed mobile link: no FIN, no RST;
/// new connections are accepted and then hear nothing) for longer than the keep-alive and response
/// timeouts, then forwards again. The client detects it, says it once, reconnects when the link is
/// back, and every record arrives, the first arrivals in order by seq, no gap (duplicates only of what
/// was in flight).
@Suite(.serialized) struct LinkCutTests {
    /// A loopback TCP proxy to `target`; while the file `cutPath` exists it forwards nothing.
    final class BlackHoleProxy {
        let port: UInt16
        let cutPath: String
        let process: BackgroundProcess

        init?(target: UInt16) {
            let directory = Fixtures.temporaryDirectory(prefix: "puckd-link-cut")
            port = freePort()
            cutPath = directory + "/cut"
            guard let p = BackgroundProcess(["python3", "-c", """
                import os, select, socket, sys, threading, time
                cut = sys.argv[3]
                def pump(a, b):
                    while True:
                        if os.path.exists(cut):
                            time.sleep(0.02); continue
                        ready, _, _ = select.select([a, b], [], [], 0.05)
                        for s in ready:
                            try: data = s.recv(65536)
                            except OSError: data = b""
                            if not data:
                                a.close(); b.close(); return
                            (b if s is a else a).sendall(data)
                l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                l.bind(("127.0.0.1", int(sys.argv[1]))); l.listen(16); print("listening", flush=True)
                while True:
                    c, _ = l.accept()
                    u = socket.create_connection(("127.0.0.1", int(sys.argv[2])))
                    threading.Thread(target=pump, args=(c, u), daemon=True).start()
                """, String(port), String(target), cutPath], outputPath: directory + "/proxy.out") else { return nil }
            process = p
            guard p.waitFor("listening", seconds: 10) else { return nil }
        }

        deinit { process.stop() }

        func cut() { writeFile(cutPath, "cut\n") }
        func restore() { _ = unlink(cutPath) }
    }

    /// The first arrival of each seq, in arrival order.
    static func firstArrivals(_ seqs: [UInt64]) -> [UInt64] {
        var seen = Set<UInt64>()
        return seqs.filter { seen.insert($0).inserted }
    }

    @Test func anMQTTLinkThatGoesSilentIsDetectedAndLosesNothing() throws {
        let broker = try #require(MosquittoBroker(), "mosquitto is needed")
        #expect(broker.start())
        let sub = try #require(broker.subscribe())
        let proxy = try #require(BlackHoleProxy(target: broker.port))
        let records = (1...60).map { sampleRecord(sequence: UInt64($0)) }
        // keep-alive 5 s, response timeout 3 s: a silent link is found within 8 s of the last packet sent.
        // In order across the reconnect as in `puckd run` (docs/uplink.md §9: records within 256 of the newest oldest first).
        let uplink = MQTTClientHarness(port: proxy.port, records: records, inOrderSpan: 256)
        var appended: UInt64 = 0
        func feed(seconds: Double) {
            let end = monotonicNanoseconds() + Int64(seconds * 1e9)
            while monotonicNanoseconds() < end {
                if appended < UInt64(records.count) { appended += 1; uplink.append(upTo: appended) }
                MosquittoUplinkTests.run(uplink, seconds: 0.2) { false }
            }
        }
        feed(seconds: 2)
        #expect(uplink.client.connections == 1 && uplink.client.forwarder.cursor > 0)
        proxy.cut()
        let cutAt = monotonicNanoseconds()
        let cursorAtCut = uplink.client.forwarder.cursor
        feed(seconds: 11)
        #expect(uplink.client.forwarder.cursor <= cursorAtCut + UInt64(MQTTClientHarness.window), "nothing acknowledged through the cut")
        #expect(uplink.faultsSaid.first == .brokerSilent, "the silent link is found by the keep-alive: \(uplink.faultsSaid)")
        #expect(monotonicNanoseconds() - cutAt > 10_000_000_000)
        proxy.restore()
        feed(seconds: 1)
        MosquittoUplinkTests.run(uplink, seconds: 15) { uplink.client.forwarder.cursor == UInt64(records.count) }
        #expect(uplink.client.forwarder.cursor == UInt64(records.count) && uplink.client.fault == nil)
        #expect(uplink.client.connections >= 2 && uplink.client.attempts <= 10, "reconnected with backoff: \(uplink.client.attempts) attempts")
        // Said once per change, never the same fault twice in a row.
        #expect(zip(uplink.faultsSaid, uplink.faultsSaid.dropFirst()).allSatisfy { $0 != $1 } && uplink.faultsSaid.last == .some(nil),
                "\(uplink.faultsSaid)")
        let seen = MosquittoUplinkTests.consumed(sub, last: UInt64(records.count))
        let first = Self.firstArrivals(seen)
        #expect(first == Array(1...UInt64(records.count)), "every seq, first arrivals in order: \(seen)")
        #expect(seen.count - first.count <= 2 * MQTTClientHarness.window, "duplicates only of what was in flight: \(seen.count - first.count)")
    }

    @Test func anOsmAndLinkThatGoesSilentIsDetectedAndLosesNothing() throws {
        let nginx = try #require(NginxOsmAndTests.Nginx(), "nginx is needed")
        let proxy = try #require(BlackHoleProxy(target: nginx.okPort))
        let records = (1...40).map { sampleRecord(sequence: UInt64($0)) }
        // Response timeout 3 s.
        let uplink = OsmAndClientHarness(port: proxy.port, records: records, host: "127.0.0.1", inOrderSpan: 256)
        var appended: UInt64 = 0
        func feed(seconds: Double) {
            let end = monotonicNanoseconds() + Int64(seconds * 1e9)
            while monotonicNanoseconds() < end {
                if appended < UInt64(records.count) { appended += 1; uplink.append(upTo: appended) }
                uplink.run(seconds: 0.2) { false }
            }
        }
        feed(seconds: 2)
        #expect(uplink.client.connections == 1 && uplink.client.forwarder.cursor > 0)
        proxy.cut()
        let cursorAtCut = uplink.client.forwarder.cursor
        feed(seconds: 8)
        #expect(uplink.client.forwarder.cursor <= cursorAtCut + 1 && uplink.client.timeouts >= 1)
        #expect(uplink.faultsSaid.first == .serverSilent, "\(uplink.faultsSaid)")
        proxy.restore()
        feed(seconds: 1)
        uplink.run(seconds: 15) { uplink.client.forwarder.cursor == UInt64(records.count) }
        #expect(uplink.client.forwarder.cursor == UInt64(records.count) && uplink.client.fault == nil)
        #expect(zip(uplink.faultsSaid, uplink.faultsSaid.dropFirst()).allSatisfy { $0 != $1 } && uplink.faultsSaid.last == .some(nil),
                "\(uplink.faultsSaid)")
        let log = nginx.accessLog(waitingFor: records.count)
        let seqs = NginxHTTPSOsmAndTests.sequences(log.filter { $0.hasPrefix("200 ") })
        let first = Self.firstArrivals(seqs)
        #expect(first == Array(1...UInt64(records.count)), "every seq, first arrivals in order: \(seqs)")
        #expect(seqs.count - first.count <= 5, "duplicates only of what was in flight: \(seqs)")
    }
}
