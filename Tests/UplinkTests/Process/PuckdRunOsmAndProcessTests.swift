#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// `puckd run --board sim` sending its track over the OsmAnd protocol into a real nginx standing in for
/// Traccar's port 5055 (docs/uplink.md §4, §9), nginx's access log read back: every journal sequence
/// once and in order on one keep-alive connection; a server answering 500 keeps the first record (the
/// cursor stays, the fault is said once); a server that never answers times out and keeps it.
@Suite(.serialized) struct PuckdRunOsmAndProcessTests {
    static func run(osmandURL: String, state: String, log: String, extra: [String] = []) -> BackgroundProcess? {
        BackgroundProcess([puckdExecutable, "run", "--board", "sim", "--console", "none",
                           "--set", "state.directory=" + state, "--set", "server.enabled=false",
                           "--set", "console.status_interval_s=0", "--set", "track.flush_interval_s=0.5",
                           "--set", "uplink.osmand_url=" + osmandURL, "--set", "uplink.device_id=puck1"] + extra,
                          outputPath: log)
    }

    /// The `seq` parameter of each query-form request in the access log (`$status $method $uri` lines).
    static func sequences(_ log: [String], status: String = "200") -> [UInt64] {
        log.compactMap { line in
            guard line.hasPrefix(status + " GET /?id=puck1&"), let last = line.split(separator: "&").last, last.hasPrefix("seq=") else {
                return nil
            }
            return UInt64(last.dropFirst(4).prefix { $0.isNumber })
        }
    }

    @Test func everyRecordReachesTheServerOnceInOrder() throws {
        let nginx = try #require(NginxOsmAndTests.Nginx(), "nginx is needed (Debian nginx-light; make test installs it)")
        let state = nginx.directory + "/state"
        let puckd = try #require(Self.run(osmandURL: "http://127.0.0.1:" + String(nginx.okPort), state: state,
                                          log: nginx.directory + "/puckd.log"))
        #expect(puckd.waitFor("uplink: OsmAnd (Traccar) HTTP/1.1 to http://127.0.0.1:", seconds: 20), "\(puckd.output)")
        var waited = 0
        while waited < 600 && Self.sequences(nginx.accessLog).count < 80 { sleepMilliseconds(50); waited += 1 }
        puckd.stop()
        let log = nginx.accessLog
        let seqs = Self.sequences(log)
        #expect(seqs.count >= 80, "\(log.suffix(5)) \(puckd.output)")
        #expect(seqs == Array(0..<UInt64(seqs.count)), "every sequence once, in order, from 0")
        #expect(log.count == seqs.count, "only 200s: \(log.filter { !$0.hasPrefix("200 ") }.prefix(3))")
        #expect(log.allSatisfy { $0.contains("&lat=41.") && $0.contains("&lon=-93.") && $0.contains("&timestamp=") })
        // The clean stop saves the cursor: the journal position past the last acknowledged record.
        let closing = puckd.output.split(separator: "\n").first { $0.contains("uplink osmand: cursor ") }
        #expect(closing?.contains("in " + state + "/track/osmand.cursor") == true, "\(puckd.output)")
        if let closing, let cursor = UInt64(closing.split(separator: " ").drop { $0 != "cursor" }.dropFirst().first ?? "") {
            #expect(cursor >= UInt64(seqs.count), "the cursor covers every record the server acknowledged")
        }
        #expect(!puckd.output.contains("uplink osmand: the"), "no fault said: \(puckd.output)")
    }

    @Test func fiveHundredsKeepTheFirstRecordAndAreSaidOnce() throws {
        let nginx = try #require(NginxOsmAndTests.Nginx())
        let state = nginx.directory + "/state"
        let puckd = try #require(Self.run(osmandURL: "http://127.0.0.1:" + String(nginx.failingPort), state: state,
                                          log: nginx.directory + "/puckd.log"))
        #expect(puckd.waitFor("answered HTTP 500", seconds: 20), "\(puckd.output)")
        sleepMilliseconds(3500)
        puckd.stop()
        let log = nginx.accessLog
        let seqs = Self.sequences(log, status: "500")
        // Backoff 1 s doubling with equal jitter: a few requests, all for the oldest record (sequence 0).
        #expect(seqs.count >= 2 && seqs.count <= 6, "\(seqs.count) requests: \(log)")
        #expect(Set(seqs) == [0], "the refused record is kept and sent again, never skipped: \(seqs)")
        #expect(puckd.output.split(separator: "\n").filter { $0.contains("answered HTTP 500") }.count == 1, "said once: \(puckd.output)")
        #expect(puckd.output.contains("uplink osmand: cursor 0 in " + state + "/track/osmand.cursor"), "\(puckd.output)")
    }

    @Test func aServerThatNeverAnswersTimesOutAndKeepsTheRecord() throws {
        let directory = Fixtures.temporaryDirectory(prefix: "puckd-osmand-stall")
        defer { _ = runProcess(["rm", "-rf", directory]) }
        let port = freePort()
        let stall = try #require(BackgroundProcess(["python3", "-c", """
            import socket
            s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", \(port))); s.listen(16); print("listening", flush=True)
            held = []
            while True:
                c, _ = s.accept(); held.append(c); print("accepted", flush=True)
            """], outputPath: directory + "/stall.out"))
        defer { stall.stop() }
        #expect(stall.waitFor("listening", seconds: 10))
        let puckd = try #require(Self.run(osmandURL: "http://127.0.0.1:" + String(port), state: directory + "/state",
                                          log: directory + "/puckd.log"))
        // The response timeout is 10 s: the fault is said after it, the connection closed and opened again.
        #expect(puckd.waitFor("did not answer a request in time", seconds: 25), "\(puckd.output)")
        #expect(stall.waitFor("accepted\naccepted", seconds: 10), "a new connection after the backoff: \(stall.output)")
        puckd.stop()
        #expect(puckd.output.contains("uplink osmand: cursor 0 in "), "nothing acknowledged, the record kept: \(puckd.output)")
    }
}
