import Glibc
import SystemCalls
import Testing
import TestSupport
import UplinkClient
@testable import Puckd

/// The server's name looked up off the loop (docs/uplink.md §9, "Name resolution"), through the device
/// with a real nginx standing in for Traccar: a name that does not resolve keeps the client from
/// connecting, is said once with what to do, the positions wait in the journal and go out oldest first,
/// every one, once the name resolves; a resolver that never answers never stalls the loop. The name
/// table is the resolver's seam (`AddressResolver.LookUp`), changed by the test while the device runs.
@Suite(.serialized) struct DeviceUplinkLookupTests {
    /// A host table the test changes while the resolver's worker reads it; `stalls` blocks every lookup
    /// until `release` (a DNS server that never answers), or 30 s of real time (then "temporary failure":
    /// a loop that waited for the lookup would see an answer and fail the test instead of hanging).
    final class NameTable: @unchecked Sendable {
        private let lock = ThreadLock(conditionCount: 1)   // its condition is unused: the stall polls
        private var address: SocketAddress?
        private var stalls = false
        private(set) var blockedLookups = 0

        func set(_ a: SocketAddress?) { lock.lock(); address = a; lock.unlock() }
        func stall() { lock.lock(); stalls = true; lock.unlock() }
        func release() { lock.lock(); stalls = false; lock.unlock() }
        var isBlocked: Bool { lock.lock(); defer { lock.unlock() }; return blockedLookups > 0 }

        func lookUp(_ host: String, _ port: UInt16) -> Result<[SocketAddress], ResolveError> {
            lock.lock()
            defer { lock.unlock() }
            if stalls {
                blockedLookups += 1
                var waited = 0
                while stalls && waited < 30_000 {
                    lock.unlock()
                    usleep(1000)
                    waited += 1
                    lock.lock()
                }
                if stalls {
                    blockedLookups -= 1
                    return .failure(.temporaryFailure)
                }
                blockedLookups -= 1
            }
            guard host == "traccar.fleet.test", let address else { return .failure(.noName) }
            return .success([address])
        }
    }

    /// The device's OsmAnd channel with its lookup replaced by one of `table` for `traccar.fleet.test`.
    static func swapLookup(_ channel: DeviceUplinkChannel<OsmAndUplinkClient>, port: Int, table: NameTable) {
        channel.lookup.stop()
        let resolver = AddressResolver(host: "traccar.fleet.test", port: UInt16(port)) { table.lookUp($0, $1) }
        channel.lookup = UplinkAddressLookup(resolver: resolver, key: "osmand_url")
    }

    @Test func aNameThatDoesNotResolveThenDoesLosesNothing() throws {
        let scratch = Fixtures.temporaryDirectory(prefix: "puckd-uplink-lookup")
        defer { _ = runProcess(["rm", "-rf", scratch]) }
        let nginx = try #require(DeviceUplinkAllocationTests.startNginx(in: scratch), "nginx is needed")
        defer { kill(nginx.pid, SIGTERM) }
        // `localhost` at start-up (looked up on the worker from /etc/hosts), then the test's table.
        let h = try SimulatedDeviceHarness(overrides: ["track.flush_interval_s=1", "uplink.device_id=lookup",
                                                       "uplink.osmand_url=http://localhost:" + String(nginx.port)])
        defer { h.removeDirectory() }
        let osmand = try #require(h.device.uplink.osmand, "\(h.device.uplink.reportLines)")
        #expect(h.device.uplink.reportLines.contains { $0.contains("localhost is looked up on a worker thread") })
        let table = NameTable()
        Self.swapLookup(osmand, port: nginx.port, table: table)
        defer { osmand.lookup.stop() }

        // 10 s of drive while the name is unknown: no connect, the fault said once, positions wait.
        DeviceUplinkBehaviourTests.run(h, seconds: 10)
        #expect(osmand.client.attempts == 0, "no connect without an address")
        #expect(osmand.lookup.error == .noName && osmand.lookup.failures >= 3, "looked up again with backoff: \(osmand.lookup.failures)")
        #expect(osmand.lookup.resolver.lookups <= 6, "backoff, not a lookup storm: \(osmand.lookup.resolver.lookups)")
        #expect(h.device.faults.contains(.uplink) && osmand.isFaulted)
        let said = h.output.split(separator: "\n").filter { $0.contains("host traccar.fleet.test not found") }
        #expect(said.count == 1 && said[0].contains("check [uplink] osmand_url and /etc/hosts or DNS"), "\(h.output)")
        let durable = try #require(h.device.trackRecorder.durableSequence)
        #expect(durable > 20 && osmand.client.forwarder.cursor == 0 && osmand.client.forwarder.backlog > 0)

        // The name resolves now: every durable position goes out, oldest first, and the fault clears.
        table.set(.ipv4(address: (127, 0, 0, 1), port: UInt16(nginx.port)))
        DeviceUplinkBehaviourTests.run(h, seconds: 120) { osmand.client.forwarder.cursor > durable && osmand.client.forwarder.backlog == 0 }
        #expect(osmand.client.connections >= 1 && osmand.lookup.error == nil && !osmand.isFaulted)
        #expect(h.output.contains("uplink osmand: the server's name resolves again"), "\(h.output)")
        let sent = DeviceUplinkBehaviourTests.sequences(accessLog: scratch + "/access.log")
        #expect(Array(sent.prefix(Int(durable) + 1)) == Array(0...durable), "every waiting position, oldest first, once")
    }

    @Test func aStalledResolverNeverStallsTheLoop() throws {
        let h = try SimulatedDeviceHarness(overrides: ["track.flush_interval_s=1", "uplink.device_id=stall",
                                                       "uplink.osmand_url=http://localhost:9"])
        defer { h.removeDirectory() }
        let osmand = try #require(h.device.uplink.osmand, "\(h.device.uplink.reportLines)")
        let table = NameTable()
        table.stall()
        defer { table.release() }
        Self.swapLookup(osmand, port: 9, table: table)
        defer { osmand.lookup.stop() }
        while !table.isBlocked { usleep(1000) }
        // The worker is inside the lookup, blocked for good: 10 s of drive go on at the loop's pace.
        let recorder = try #require(h.device.trackRecorder.writer)
        let appended = recorder.counters.recordsAppended
        DeviceUplinkBehaviourTests.run(h, seconds: 10)
        #expect(recorder.counters.recordsAppended - appended >= 90, "10 Hz fixes recorded: \(recorder.counters.recordsAppended - appended)")
        #expect(osmand.lookup.inFlight && osmand.client.attempts == 0 && osmand.stateWord.description == "resolving")
        #expect(!osmand.isFaulted, "a lookup still running is no fault yet")
    }

    /// The loop as `DeviceLoop` runs it, for the uplink alone: fill the poll set, sleep in a real poll() until
    /// the uplink's deadline (at most `budget`), service. Returns the wake-ups; `now` follows the timeouts.
    static func sleepUntilDue(_ uplink: DeviceUplink, poll: inout PollSet, now: inout Int64, budget: Int64) -> Int {
        var wakeUps = 0
        var slept: Int64 = 0
        while slept < budget {
            uplink.fillPollSlots(&poll)
            let timeout = min(max(0, (uplink.deadlineNanoseconds ?? .max) - now), budget - slept)
            let ready = poll.wait(timeoutMilliseconds: Int32(timeout / 1_000_000))
            now += timeout
            slept += timeout
            wakeUps += 1
            _ = uplink.service(nowNanoseconds: now, ready: ready)
        }
        return wakeUps
    }

    @Test func aHangingLookupCostsTheLoopNoWakeUpAndItsAnswerIsTakenAtOnce() throws {
        let h = try SimulatedDeviceHarness(overrides: ["uplink.device_id=wake", "uplink.osmand_url=http://localhost:9"])
        defer { h.removeDirectory() }
        let osmand = try #require(h.device.uplink.osmand, "\(h.device.uplink.reportLines)")
        let table = NameTable()
        table.set(.ipv4(address: (127, 0, 0, 1), port: 9))
        table.stall()
        defer { table.release() }
        Self.swapLookup(osmand, port: 9, table: table)
        defer { osmand.lookup.stop() }
        while !table.isBlocked { usleep(1000) }
        #expect(osmand.lookup.wakeDescriptor != nil, "the lookup's eventfd is in the poll set")

        // 2 s of the loop while the lookup hangs: one wake-up, the budget's end (polling every 250 ms: 9).
        var poll = PollSet()
        _ = poll.reserve(max(osmand.slot, osmand.lookupSlot) + 1)
        var now = h.now
        let wakeUps = Self.sleepUntilDue(h.device.uplink, poll: &poll, now: &now, budget: 2_000_000_000)
        #expect(wakeUps == 1, "no periodic wake-ups while DNS stalls: \(wakeUps)")
        #expect(osmand.lookup.inFlight && !osmand.lookup.hasAddress)

        // The answer arrives: the lookup's slot polls readable at once and one service takes it.
        table.release()
        h.device.uplink.fillPollSlots(&poll)
        let ready = poll.wait(timeoutMilliseconds: 10_000)
        #expect(ready.isReady(osmand.lookupSlot), "the worker's eventfd wakes the loop")
        _ = h.device.uplink.service(nowNanoseconds: now, ready: ready)
        #expect(osmand.lookup.hasAddress, "the answer taken at the wake-up it arrived")
    }
}
