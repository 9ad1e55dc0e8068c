import GpsdProtocol
import GpsdServer
import NMEA
import Testing
import TestSupport
import Tracking

/// 32 clients attached (JSON, NMEA and puckd's reports at 60 Hz): publishing fixes, sentences, the
/// puck and camera, and servicing the sockets allocate nothing (DEVELOPERS.md rule 3).
@Suite(.serialized) struct GpsdServerAllocationTests {
    @Test func thirtyTwoClientsAtSixtyHertzAllocateNothing() throws {
        let h = try ServerHarness(bufferBytes: 16_384)
        var clients: [RawClient] = []
        for i in 0..<32 {
            let c = try #require(RawClient(port: h.port))
            c.send(i % 2 == 0 ? "?WATCH={\"enable\":true,\"json\":true,\"puckd\":true};"
                              : "?WATCH={\"enable\":true,\"json\":true,\"nmea\":true,\"puckd\":true,\"puckd_hz\":10};")
            clients.append(c)
        }
        h.idle(20)
        #expect(h.server.clientCount == 32)
        var core = try TrackingCore()
        var fix = Fix(timeOfDayNanoseconds: 0)
        fix.mode = .threeD
        fix.latitudeDegrees = 41.5749
        fix.longitudeDegrees = -93.7505
        fix.utcNanoseconds = 1_584_538_099_000_000_000
        core.updateLocation(fix, atNanoseconds: h.now)
        func tick(_ k: Int) {
            // 60 Hz ticks, a receiver sentence every tick, a fix every 6 ticks (10 Hz).
            h.step()
            core.tick(atNanoseconds: h.now)
            h.server.publish(puck: core.puck, camera: core.camera, nowNanoseconds: h.now)
            if k % 6 == 0 { h.server.publish(fix: fix, sky: nil, nowNanoseconds: h.now) }
            h.server.service(nowNanoseconds: h.now)
        }
        // Warm up, and drain the clients so their queues empty.
        for k in 0..<200 { tick(k); if k % 10 == 0 { for c in clients { _ = c.receive() } } }
        for c in clients { _ = c.receive() }
        let queuedBefore = h.server.counters.reportsQueued
        var allocations: UInt64 = 0
        for round in 0..<10 {
            allocations &+= allocationCount { for k in 0..<60 { tickNoFeed(k) } }
            for c in clients { _ = c.receive() }
            _ = round
        }
        func tickNoFeed(_ k: Int) {
            h.now += 16_666_667
            core.tick(atNanoseconds: h.now)
            h.server.publish(puck: core.puck, camera: core.camera, nowNanoseconds: h.now)
            if k % 6 == 0 { h.server.publish(fix: fix, sky: nil, nowNanoseconds: h.now) }
            h.server.service(nowNanoseconds: h.now)
        }
        #expect(allocations == 0)
        // It did the work: every client got PUCK/CAMERA pairs and TPVs in those 10 s of ticks.
        let queued = h.server.counters.reportsQueued - queuedBefore
        #expect(queued > 32 * 100)
        for slot in 0..<32 { #expect(h.server.client(at: slot)?.counters.reportsDropped == 0) }
    }
}
