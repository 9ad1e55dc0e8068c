#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import TrackLog
@testable import Uplink
import UplinkClient
import SystemCalls

/// The uplink against a real mosquitto with `mosquitto_sub` as the consumer (docs/uplink.md §7): a
/// recorded drive (the bundled drive through `puckd track record` into a real journal), a broker stopped
/// and restarted, the uplink crashed and restarted from its persisted cursor, a wrong password.
@Suite(.serialized) struct MosquittoUplinkTests {
    /// The bundled drive's records from a journal written by `puckd track record`.
    static func driveRecords() throws -> [TrackRecord] {
        let state = Fixtures.temporaryDirectory(prefix: "puckd-uplink-drive")
        defer { _ = runProcess(["rm", "-rf", state]) }
        let result = try #require(runProcess([puckdExecutable, "track", "record", "--set", "state.directory=" + state]))
        #expect(result.status == 0, "\(result.errorOutput)")
        let records = TrackJournalReader(directory: state + "/track", files: PosixTrackFiles()).records(fromSequence: 1)
        #expect(records.count > 100 && records.enumerated().allSatisfy { $0.element.sequence == UInt64($0.offset + 1) })
        return records
    }

    /// Steps `uplink` until `done` or `seconds` pass.
    static func run(_ uplink: MQTTClientHarness, seconds: Double, until done: () -> Bool) {
        let end = monotonicNanoseconds() + Int64(seconds * 1e9)
        while !done() && monotonicNanoseconds() < end { uplink.step() }
    }

    static func consumed(_ sub: BackgroundProcess, last: UInt64) -> [UInt64] {
        _ = sub.waitFor("{\"seq\":\(last),", seconds: 10)
        sleepMilliseconds(300)
        sub.stop()
        return MosquittoBroker.sequences(sub.output)
    }

    @Test func aRecordedDriveArrivesInOrderWithoutGaps() throws {
        let records = try Self.driveRecords()
        let broker = try #require(MosquittoBroker(), "mosquitto, mosquitto_sub and mosquitto_passwd are needed (make test installs them)")
        #expect(broker.start())
        let sub = try #require(broker.subscribe())
        let uplink = MQTTClientHarness(port: broker.port, records: records)
        for s in 1...UInt64(records.count) {
            uplink.append(upTo: s)
            Self.run(uplink, seconds: 10) { uplink.client.forwarder.cursor == s }
        }
        #expect(uplink.client.forwarder.cursor == UInt64(records.count) && uplink.client.connections == 1)
        let seen = Self.consumed(sub, last: UInt64(records.count))
        #expect(seen == Array(1...UInt64(records.count)), "in order by seq, no gap, no duplicate")
        #expect(sub.output.contains("puckd/puck1/status online"))
        // Each message is the documented JSON of its journal record, byte for byte.
        let lines = sub.output.split(separator: "\n").filter { $0.hasPrefix("puckd/puck1/position ") }
        #expect(lines.count == records.count)
        for (k, line) in lines.enumerated() where k < records.count {
            let expected = "puckd/puck1/position " + text(written { PositionPayload.write(records[k], into: &$0) })
            #expect(String(line) == expected)
        }
    }

    @Test func aBrokerRestartLosesNothing() throws {
        let records = try Self.driveRecords()
        let broker = try #require(MosquittoBroker())
        #expect(broker.start())
        let sub = try #require(broker.subscribe())
        let uplink = MQTTClientHarness(port: broker.port, records: records)
        // The default test keeps the broker away for 3 s; PUCKD_LONG_TESTS=1 makes it the issue's 30 s.
        let outageSeconds = getenv("PUCKD_LONG_TESTS") != nil ? 30.0 : 3.0
        let total = UInt64(records.count)
        var appended: UInt64 = 0
        func appendFor(_ seconds: Double, every milliseconds: Int64) {
            let end = monotonicNanoseconds() + Int64(seconds * 1e9)
            var next = monotonicNanoseconds()
            while monotonicNanoseconds() < end {
                if monotonicNanoseconds() >= next && appended < total { appended += 1; uplink.append(upTo: appended); next += milliseconds * 1_000_000 }
                uplink.step(waitMilliseconds: 2)
            }
        }
        appendFor(1.0, every: 20)                 // ~50 records live
        let beforeOutage = uplink.client.forwarder.cursor
        broker.stop()
        appendFor(outageSeconds, every: Int64(outageSeconds * 1000) / 40)   // ~40 records into the backlog
        #expect(uplink.client.forwarder.backlog >= 30, "the backlog waits in the journal: \(uplink.client.forwarder.backlog)")
        #expect(uplink.client.attempts < 10, "backoff, no retry storm: \(uplink.client.attempts) attempts")
        #expect(broker.start())
        appendFor(2.0, every: 20)
        while appended < total { appended += 1; uplink.append(upTo: appended) }
        Self.run(uplink, seconds: 20) { uplink.client.forwarder.cursor == total }
        #expect(uplink.client.forwarder.cursor == total && uplink.client.connections >= 2)
        let seen = Self.consumed(sub, last: total)
        #expect(Set(seen) == Set(1...total), "every record arrived: missing \(Set(1...total).subtracting(seen).sorted())")
        #expect(beforeOutage > 20)
        // Duplicates only from the messages in flight when the broker went away.
        #expect(seen.count - Set(seen).count <= MQTTClientHarness.window, "\(seen.count - Set(seen).count) duplicates")
    }

    @Test func anUplinkRestartResumesFromItsCursorWithoutGaps() throws {
        let records = try Self.driveRecords()
        let broker = try #require(MosquittoBroker())
        #expect(broker.start())
        let sub = try #require(broker.subscribe())
        let total = UInt64(records.count)
        let first = MQTTClientHarness(port: broker.port, records: records)
        for s in 1...UInt64(60) {
            first.append(upTo: s)
            Self.run(first, seconds: 10) { first.client.forwarder.cursor == s }
        }
        first.append(upTo: 70)   // ten more, then the crash with some of them in flight
        first.step()
        first.step()
        let cursor = first.persistedCursor
        let sentBeforeCrash: UInt64 = 70
        // The crash: the connection dies as when the process is killed (no DISCONNECT); `first` is never serviced again.
        if let fd = first.client.descriptor { _ = Glibc.shutdown(fd.rawValue, CInt(SHUT_RDWR)) }
        #expect(cursor >= 60 && cursor <= 70)
        let second = MQTTClientHarness(port: broker.port, records: records, cursor: cursor, seed: 2)
        second.append(upTo: total)
        Self.run(second, seconds: 20) { second.client.forwarder.cursor == total }
        #expect(second.client.forwarder.cursor == total)
        let seen = Self.consumed(sub, last: total)
        #expect(Set(seen) == Set(1...total), "missing \(Set(1...total).subtracting(seen).sorted())")
        var counts: [UInt64: Int] = [:]
        for s in seen { counts[s, default: 0] += 1 }
        let duplicated = counts.filter { $0.value > 1 }.keys
        #expect(duplicated.allSatisfy { $0 > cursor && $0 <= sentBeforeCrash }, "duplicates only across the crash: \(duplicated.sorted())")
    }

    @Test func aWrongPasswordIsOneClearRefusalAndBackoffNotAStorm() throws {
        let broker = try #require(MosquittoBroker())
        #expect(broker.start())
        let uplink = MQTTClientHarness(port: broker.port, records: [sampleRecord(sequence: 1)], password: "wrong")
        uplink.append(upTo: 1)
        Self.run(uplink, seconds: 6) { false }
        // Backoff 1 s doubling with equal jitter: attempts at 0, 0.5–1, 1.5–3, 3.5–7 s.
        #expect(uplink.client.attempts >= 2 && uplink.client.attempts <= 4, "\(uplink.client.attempts) attempts in 6 s")
        #expect(uplink.faultsSaid.count == 1, "said once, not once per attempt: \(uplink.faultsSaid)")
        guard case .refused(let refusal)? = uplink.client.fault else { Issue.record("fault: \(String(describing: uplink.client.fault))"); return }
        #expect(refusal == .notAuthorized || refusal == .badUsernameOrPassword, "\(refusal)")
        #expect(refusal.message.description.contains("mqtt_password_file") || refusal.message.description.contains("ACL"))
        #expect(uplink.client.forwarder.cursor == 0 && uplink.client.connections == 0)
    }
}

/// Any number of records: the sample record under each sequence number.
struct RepeatingRecordSource: UplinkRecordSource {
    var record = sampleRecord(sequence: 0)
    mutating func record(sequence: UInt64) -> TrackRecord? {
        record.sequence = sequence
        record.utcNanoseconds = 1_584_538_099_600_000_000 + Int64(sequence) * 100_000_000
        return record
    }
}

/// The device's client publishing into a real mosquitto allocates nothing per message (connected, in
/// steady state: payload, PUBLISH, send, receive, PUBACK, cursor), counted in debug and release; over
/// plain TCP here, over TLS in MosquittoTLSAllocationTests.
@Suite(.serialized) struct MQTTClientAllocationTests {
    /// Publishes `count` more records through `client` (polling its descriptor as the loop does) until acknowledged.
    static func publish(_ client: MQTTUplinkClient, _ source: inout RepeatingRecordSource, sequence: inout UInt64, count: UInt64) {
        var fds = pollfd()
        let target = sequence + count
        var spins = 0
        while client.forwarder.cursor < target && spins < 1_000_000 {
            spins += 1
            if sequence < target { sequence += 1; client.appended(newest: sequence) }
            var readable = false, writable = false
            if let fd = client.descriptor {
                fds.fd = fd.rawValue
                fds.events = client.pollEvents.rawValue
                fds.revents = 0
                if poll(&fds, 1, 5) > 0 {
                    readable = fds.revents & Int16(POLLIN | POLLERR | POLLHUP) != 0
                    writable = fds.revents & Int16(POLLOUT | POLLERR | POLLHUP) != 0
                }
            }
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            _ = client.service(nowNanoseconds: Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec), readable: readable,
                               writable: writable, source: &source)
        }
    }

    /// 500 messages to settle, then the allocations of 5 000 more: 0 expected.
    static func allocationsPerMessage(_ client: MQTTUplinkClient) -> UInt64 {
        var source = RepeatingRecordSource()
        var sequence: UInt64 = 0
        publish(client, &source, sequence: &sequence, count: 500)
        #expect(client.forwarder.cursor == 500 && client.connections == 1, "\(String(describing: client.fault))")
        let sent = client.messagesSent
        let allocations = allocationCount { publish(client, &source, sequence: &sequence, count: 5000) }
        #expect(client.forwarder.cursor == 5500 && client.messagesSent - sent == 5000 && client.connections == 1)
        client.shutdown(nowNanoseconds: 0)
        return allocations
    }

    @Test func publishingIntoARealBrokerAllocatesNothingPerMessage() throws {
        let broker = try #require(MosquittoBroker())
        #expect(broker.start())
        let settings = MQTTUplinkSettings(address: SocketAddress.ipv4(address: (127, 0, 0, 1), port: broker.port), deviceIdentifier: "puck1",
                                          username: "fleet", password: "secret", keepAliveSeconds: 5, window: 16)
        let allocations = Self.allocationsPerMessage(MQTTUplinkClient(settings: settings, cursor: 0, seed: 3))
        #expect(allocations == 0, "\(allocations) allocations for 5 000 messages")
    }
}
