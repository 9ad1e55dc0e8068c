#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import TrackLog
@testable import Uplink

/// The OsmAnd (Traccar) path against a real nginx on loopback, its access log read back (docs/uplink.md
/// §7): every record in order by seq, both request forms; a server answering 500 and one that never
/// answers keep the records in the journal and back off.
@Suite(.serialized) struct NginxOsmAndTests {
    final class Nginx {
        let directory: String, okPort: UInt16, failingPort: UInt16
        let process: BackgroundProcess

        init?() {
            guard runProcess(["sh", "-c", "command -v nginx"])?.status == 0 else { return nil }
            directory = Fixtures.temporaryDirectory(prefix: "puckd-nginx")
            okPort = freePort()
            failingPort = freePort()
            let d = directory
            writeFile(d + "/nginx.conf", """
                daemon off; master_process off; worker_processes 1; pid \(d)/nginx.pid; error_log \(d)/error.log;
                events { worker_connections 64; }
                http {
                  log_format osmand '$status $request_method $request_uri';
                  access_log \(d)/access.log osmand;
                  client_body_temp_path \(d)/body;
                  server { listen 127.0.0.1:\(okPort); location / { return 200 "OK\\n"; } }
                  server { listen 127.0.0.1:\(failingPort); location / { return 500; } }
                }

                """)
            guard let p = BackgroundProcess(["nginx", "-p", d, "-c", d + "/nginx.conf", "-e", d + "/error.log"],
                                            outputPath: d + "/nginx.out") else { return nil }
            process = p
            let end = monotonicNanoseconds() + 10_000_000_000
            while TestConnection(port: okPort) == nil && monotonicNanoseconds() < end { sleepMilliseconds(20) }
        }

        deinit {
            process.stop()
            _ = runProcess(["rm", "-rf", directory])
        }

        var accessLog: [String] {
            (runProcess(["cat", directory + "/access.log"])?.output ?? "").split(separator: "\n").map(String.init)
        }

        /// The access log once it has `count` lines (nginx writes a line after sending the response).
        func accessLog(waitingFor count: Int) -> [String] {
            let end = monotonicNanoseconds() + 3_000_000_000
            var log = accessLog
            while log.count < count && monotonicNanoseconds() < end { sleepMilliseconds(20); log = accessLog }
            return log
        }
    }

    static func run(_ uplink: TestOsmAndUplink, seconds: Double, until done: () -> Bool) {
        let end = monotonicNanoseconds() + Int64(seconds * 1e9)
        while !done() && monotonicNanoseconds() < end { uplink.step() }
    }

    @Test(arguments: [OsmAndRequest.Form.query, .json])
    func aRecordedDriveReachesTheServerInOrder(form: OsmAndRequest.Form) throws {
        let records = try MosquittoUplinkTests.driveRecords()
        let nginx = try #require(Nginx(), "nginx is needed (Debian nginx-light; make test installs it)")
        let uplink = TestOsmAndUplink(port: nginx.okPort, records: records, form: form)
        uplink.append(records.count)
        Self.run(uplink, seconds: 30) { uplink.forwarder.cursor == UInt64(records.count) }
        #expect(uplink.forwarder.cursor == UInt64(records.count) && uplink.attempts == 1, "one keep-alive connection")
        let log = nginx.accessLog(waitingFor: records.count)
        #expect(log.count == records.count)
        if form == .query {
            // Newest first (live), then the backlog oldest first: the server orders by `seq`/`timestamp`.
            let seqs = log.compactMap { line in line.split(separator: "&").last.flatMap { UInt64($0.dropFirst(4)) } }
            #expect(Set(seqs) == Set(1...UInt64(records.count)) && seqs.count == records.count)
            #expect(Array(seqs.dropFirst()) == Array(1..<UInt64(records.count)) && seqs.first == UInt64(records.count))
            #expect(log.allSatisfy { $0.hasPrefix("200 GET /?id=puck1&lat=") && $0.contains("&timestamp=1584538") })
        } else {
            #expect(log.allSatisfy { $0 == "200 POST /" })
        }
    }

    @Test func fiveHundredsKeepTheRecordAndBackOff() throws {
        let nginx = try #require(Nginx())
        let uplink = TestOsmAndUplink(port: nginx.failingPort, records: [sampleRecord(sequence: 1)], form: .query)
        uplink.append(1)
        Self.run(uplink, seconds: 6) { false }
        #expect(uplink.forwarder.cursor == 0, "a 500 is not an acknowledgement")
        #expect(!uplink.refusedStatuses.isEmpty && uplink.refusedStatuses.allSatisfy { $0 == 500 })
        // Backoff 1 s doubling with equal jitter: requests at 0, 0.5–1, 1.5–3, 3.5–7 s.
        #expect(uplink.requests >= 2 && uplink.requests <= 4, "\(uplink.requests) requests in 6 s")
        let log = nginx.accessLog(waitingFor: uplink.requests)
        #expect(log.count == uplink.requests && log.allSatisfy { $0.hasPrefix("500 GET /?id=puck1&") })
    }

    @Test func aServerThatNeverAnswersTimesOut() throws {
        // A listener that accepts and never answers (the kernel completes the handshake from the backlog).
        let port = freePort()
        let stall = try #require(BackgroundProcess(["python3", "-c", """
            import socket, time
            s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", \(port))); s.listen(16); print("listening", flush=True)
            held = []
            while True:
                c, _ = s.accept(); held.append(c)
            """], outputPath: Fixtures.temporaryDirectory(prefix: "puckd-stall") + "/out"))
        defer { stall.stop() }
        #expect(stall.waitFor("listening", seconds: 10))
        let uplink = TestOsmAndUplink(port: port, records: [sampleRecord(sequence: 1)], form: .query)
        uplink.append(1)
        Self.run(uplink, seconds: 5) { false }
        #expect(uplink.timeouts >= 1 && uplink.timeouts <= 3, "\(uplink.timeouts) timeouts in 5 s (1 s each, then backoff)")
        #expect(uplink.forwarder.cursor == 0 && uplink.forwarder.backlog == 1)
    }
}

extension TestOsmAndUplink {
    func append(_ count: Int) { forwarder.appended(newest: UInt64(count)) }
}
