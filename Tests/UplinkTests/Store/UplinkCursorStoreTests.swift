import Testing
import TestSupport
@testable import UplinkClient
import TrackLog

/// The cursor file (docs/uplink.md §5): round trip, rate of writes, damage detected, no temporary left,
/// a save allocates nothing.
@Suite(.serialized) struct UplinkCursorStoreTests {
    static let second: Int64 = 1_000_000_000

    @Test func savesAtTheIntervalAndAtShutdownAndLoadsBack() throws {
        let directory = Fixtures.temporaryDirectory(prefix: "puckd-cursor")
        defer { _ = runProcess(["rm", "-rf", directory]) }
        let store = try UplinkCursorStore(directory: directory, name: "mqtt", intervalSeconds: 5)
        #expect(store.load() == .none)
        #expect(store.isThreaded)
        #expect(store.save(10, nowNanoseconds: 0) == nil)
        store.waitUntilWritten()
        #expect(store.writes == 1 && store.savedCursor == 10)
        _ = store.save(11, nowNanoseconds: 1 * Self.second)
        store.waitUntilWritten()
        #expect(store.writes == 1 && store.deadlineNanoseconds(cursor: 11) == 5 * Self.second, "at most one write per interval")
        _ = store.save(12, nowNanoseconds: 5 * Self.second)
        store.waitUntilWritten()
        _ = store.save(13, nowNanoseconds: 6 * Self.second, force: true)
        #expect(store.writes == 3 && store.deadlineNanoseconds(cursor: 13) == nil)
        let again = try UplinkCursorStore(directory: directory, name: "mqtt")
        #expect(again.load() == .cursor(13))
        #expect(runProcess(["ls", directory])?.output == "mqtt.cursor\n", "no temporary file left")
        // A save allocates nothing (warm first).
        var cursor: UInt64 = 100
        _ = store.save(cursor, nowNanoseconds: 100 * Self.second, force: true)
        let allocations = allocationCount {
            for k in 0..<50 { cursor += 1; _ = store.save(cursor, nowNanoseconds: Int64(200 + k) * Self.second, force: true) }
        }
        #expect(allocations == 0 && store.writes == 54)
    }

    /// The disk stalls (the worker's write blocks, as an fsync or rename on a dying SD card does): every
    /// `save` of the loop still returns at once, allocates nothing and the newest cursor waits; when the
    /// disk comes back the file holds the newest cursor, never one past what was handed (docs/uplink.md §5).
    @Test func aStalledDiskNeverStallsTheSave() throws {
        let directory = Fixtures.temporaryDirectory(prefix: "puckd-cursor")
        defer { _ = runProcess(["rm", "-rf", directory]) }
        let gate = StallGate()
        let store = try UplinkCursorStore(directory: directory, name: "osmand", intervalSeconds: 1, beforeWrite: { gate.pass() })
        _ = store.save(1, nowNanoseconds: 0)
        gate.waitUntilBlocked()
        // The worker is inside its write, blocked. 200 more saves, one per interval, as the loop makes them.
        var cursor: UInt64 = 1
        var errors = 0
        let allocations = allocationCount {
            var k: Int64 = 1
            while k <= 200 {
                cursor += 1
                if store.save(cursor, nowNanoseconds: k * Self.second) != nil { errors += 1 }
                k += 1
            }
        }
        #expect(allocations == 0 && errors == 0)
        #expect(store.handedCursor == 201 && store.savedCursor == 0 && store.writes == 0, "nothing durable while the disk stalls")
        #expect(store.coalesced >= 198, "the waiting cursor is replaced by the newest, not queued")
        #expect(store.deadlineNanoseconds(cursor: 201) == nil, "the loop is not woken for a cursor already handed over")
        gate.release()
        store.waitUntilWritten()
        #expect(store.savedCursor == 201 && store.writes == 2, "the stalled write, then the newest cursor only")
        #expect(try UplinkCursorStore(directory: directory, name: "osmand").load() == .cursor(201))
    }

    @Test func everyDamagedByteIsDetected() throws {
        let directory = Fixtures.temporaryDirectory(prefix: "puckd-cursor")
        defer { _ = runProcess(["rm", "-rf", directory]) }
        let store = try UplinkCursorStore(directory: directory, name: "mqtt")
        _ = store.save(0x0102_0304_0506_0708, nowNanoseconds: 0)
        store.waitUntilWritten()
        let good = try #require(Fixtures.readFile(directory + "/mqtt.cursor"))
        #expect(good.count == UplinkCursorStore.byteCount && UplinkCursorStore.decode(good) == 0x0102_0304_0506_0708)
        for k in 0..<20 {
            var bad = good
            bad[k] ^= 0x10
            #expect(UplinkCursorStore.decode(bad) == nil, "byte \(k)")
        }
        _ = runProcess(["sh", "-c", "head -c 10 \(directory)/mqtt.cursor > \(directory)/t && mv \(directory)/t \(directory)/mqtt.cursor"])
        #expect(try UplinkCursorStore(directory: directory, name: "mqtt").load() == .corrupt, "a torn file is corrupt: cursor 0, all sent again")
    }
}

/// The journal read by sequence number (docs/uplink.md §5): every record of a real journal, nothing past
/// its end, no re-listing while the segments stay.
@Suite(.serialized) struct JournalRecordSourceTests {
    @Test func everyRecordOfARealJournalBySequence() throws {
        let state = Fixtures.temporaryDirectory(prefix: "puckd-uplink-journal")
        defer { _ = runProcess(["rm", "-rf", state]) }
        let result = try #require(runProcess([puckdExecutable, "track", "record", "--set", "state.directory=" + state]))
        #expect(result.status == 0)
        let expected = TrackJournalReader(directory: state + "/track", files: PosixTrackFiles()).records(fromSequence: 1)
        let source = JournalRecordSource(directory: state + "/track")
        #expect(expected.count > 100)
        for record in expected { #expect(source.record(sequence: record.sequence) == record) }
        #expect(source.record(sequence: expected.last!.sequence + 1) == nil)
        // Reading again needs no new listing of the directory.
        let relistings = source.relistings
        for record in expected.reversed() { #expect(source.record(sequence: record.sequence)?.sequence == record.sequence) }
        #expect(source.relistings == relistings)
        // A read by sequence allocates nothing (debug and release): pread into the source's buffer and
        // TrackRecord's decoder. Re-listing (at a rotation or a size-cap drop) is the only allocating path.
        // (A plain counting loop: iterating the Array of records or a ClosedRange<UInt64> inside the
        // counted closure allocates per element in debug builds, the test's own cost.)
        let first = expected.first!.sequence, last = expected.last!.sequence
        #expect(last - first + 1 == UInt64(expected.count))
        var sum: UInt64 = 0
        let allocations = allocationCount {
            for _ in 0..<4 {
                var sequence = first
                while sequence <= last { sum &+= source.record(sequence: sequence)?.sequence ?? 0; sequence += 1 }
            }
        }
        #expect(allocations == 0)
        #expect(sum == 4 &* (first...last).reduce(0, &+))
        #expect(source.relistings == relistings)
    }
}
