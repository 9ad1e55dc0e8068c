import Glibc
import GpsdProtocol
import GpsdServer
import Testing
import TestSupport

/// Clients that do not behave: never reading, flooding garbage, toggling WATCH, coming and going in
/// hundreds, more of them than slots. The server keeps serving the others and counts what happened
/// (docs/gpsd-protocol.md §4).
@Suite(.serialized) struct GpsdMisbehavingClientTests {
    @Test func aClientThatNeverReadsLosesWholeReportsAndBlocksNobody() throws {
        let h = try ServerHarness(bufferBytes: 4096)
        let stalled = try #require(RawClient(port: h.port))
        stalled.send("?WATCH={\"enable\":true,\"json\":true,\"nmea\":true};")
        // Shrink its kernel buffer so the server's queue fills quickly.
        var small: Int32 = 4096
        _ = setsockopt(stalled.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        let reader = try #require(RawClient(port: h.port))
        reader.send("?WATCH={\"enable\":true,\"json\":true};")
        var received = ""
        for _ in 0..<20_000 {
            h.step()
            received += reader.receive()
        }
        let slot = (0..<32).compactMap { h.server.client(at: $0) }.first { $0.serial == 1 }
        let stalledInfo = try #require(slot)
        #expect(stalledInfo.counters.reportsDropped > 0)
        #expect(stalledInfo.queuedBytes <= 4096)
        #expect(h.server.counters.reportsDropped == stalledInfo.counters.reportsDropped)
        // The reading client got every report whole: each line one JSON object.
        let lines = received.utf8.split(separator: 0x0A)
        #expect(lines.count > 1000)
        for line in lines.prefix(5000) {
            #expect(line.first == UInt8(ascii: "{") && line.last == 0x0D, "\(String(decoding: line, as: UTF8.self))")
        }
        let readerInfo = try #require((0..<32).compactMap { h.server.client(at: $0) }.first { $0.serial == 2 })
        #expect(readerInfo.counters.reportsDropped == 0)
    }

    @Test func aFullSlotTableRefusesCleanlyAndAFreedSlotIsReused() throws {
        let h = try ServerHarness(maxClients: 2)
        var a: RawClient? = RawClient(port: h.port)
        #expect(a != nil)
        let b = try #require(RawClient(port: h.port))
        h.idle(5)
        let c = try #require(RawClient(port: h.port))
        h.idle(5)
        let refusal = c.receive()
        #expect(refusal.hasPrefix("{\"class\":\"ERROR\",\"message\":\"Too many clients"))
        _ = c.receive()
        #expect(c.closed)
        #expect(h.server.counters.refused == 1)
        #expect(a?.receive().hasPrefix("{\"class\":\"VERSION\"") == true)
        #expect(b.receive().hasPrefix("{\"class\":\"VERSION\""))
        a = nil   // a leaves: its slot is free for the next client
        h.idle(5)
        let d = try #require(RawClient(port: h.port))
        h.idle(5)
        #expect(d.receive().hasPrefix("{\"class\":\"VERSION\""))
    }

    @Test func twoHundredClientsComeAndGo() throws {
        let h = try ServerHarness()
        for round in 0..<200 {
            var client: RawClient? = RawClient(port: h.port)
            #expect(client != nil)
            client?.send("?WATCH={\"enable\":true};")
            h.step()
            if round % 3 == 0 { _ = client?.receive() }
            client = nil
            h.step()
        }
        // The last closes reach the server within a few wake-ups (up to 2 s on a loaded machine).
        var rounds = 0
        while h.server.clientCount > 0 && rounds < 4000 { h.idle(1); rounds += 1 }
        #expect(h.server.counters.accepted == 200)
        #expect(h.server.counters.closed == 200)
        #expect(h.server.clientCount == 0)
        #expect(h.server.counters.refused == 0)
    }

    @Test func aMegabyteOfGarbageIsAnsweredAndTheServerGoesOn() throws {
        let h = try ServerHarness()
        let flooder = try #require(RawClient(port: h.port))
        var rng = SeededRandom(seed: 18)
        var garbage = [UInt8](repeating: 0, count: 1 << 20)
        for i in 0..<garbage.count { garbage[i] = UInt8(truncatingIfNeeded: rng.next()) }
        var sent = 0
        var rounds = 0
        while sent < garbage.count && rounds < 200_000 {
            sent += max(0, flooder.send(Array(garbage[sent..<min(garbage.count, sent + 65_536)])))
            h.step()
            _ = flooder.receive()
            rounds += 1
        }
        #expect(sent == garbage.count)
        flooder.send("\n?VERSION;\n")
        h.idle(200)
        let after = flooder.receive()
        #expect(after.contains("{\"class\":\"VERSION\""))
        #expect(h.server.counters.errors > 0)
        // Another client is served as if nothing happened.
        let other = try #require(RawClient(port: h.port))
        other.send("?POLL;")
        h.idle(20)
        let reply = other.receive()
        #expect(reply.contains("{\"class\":\"POLL\""))
    }

    @Test func watchToggledTenThousandTimes() throws {
        let h = try ServerHarness()
        let client = try #require(RawClient(port: h.port))
        var requests = 0
        var text = ""
        for i in 0..<10_000 {
            text += i % 2 == 0 ? "?WATCH={\"enable\":true,\"json\":true};" : "?WATCH={\"enable\":false};"
            if text.utf8.count > 4000 || i == 9_999 {
                var bytes = Array(text.utf8)
                while !bytes.isEmpty {
                    let n = client.send(bytes)
                    if n > 0 { bytes.removeFirst(n) }
                    h.step()
                    _ = client.receive()
                }
                text = ""
            }
            requests += 1
        }
        h.idle(200)
        _ = client.receive()
        let info = try #require(h.server.client(at: 0))
        #expect(info.counters.requests == 10_000)
        #expect(info.counters.errors == 0)
        #expect(!info.watch.enable)           // the last request turned it off
        #expect(requests == 10_000)
    }
}
