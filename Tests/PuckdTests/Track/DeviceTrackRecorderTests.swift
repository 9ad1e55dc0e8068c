import Console
import Glibc
import Testing
import TestSupport
import TrackLog
@testable import Puckd

/// The track recorder as a part of the device loop (docs/track-log.md §4): the simulated board's
/// fixes go into the journal with their heading, flushed at `[track] flush_interval_s` and at
/// shutdown; a full, read-only or failing disk is the `track` fault (said once, counted, in `status`),
/// tracking goes on, and the fault clears when writes succeed again.
@Suite(.serialized) struct DeviceTrackRecorderTests {
    /// The number in `NAME VALUE` of the console's `stats` table, from the device's counter table.
    static func counter(_ h: SimulatedDeviceHarness, _ name: String) -> Int64? {
        var t = ConsoleCounterTable()
        h.device.trackRecorder.appendStats(to: &t)
        return (0..<t.count).first { t[$0].name.description == name }.map { t[$0].value }
    }

    /// The `track` row of the device's `status` sources, as the console shows it.
    static func trackRow(_ h: SimulatedDeviceHarness) -> ConsoleSource? {
        var d = ConsoleDeviceState()
        h.device.trackRecorder.fillSnapshot(&d, nowNanoseconds: h.now)
        return (0..<d.sources.count).map { d.sources[$0] }.first { $0.name.description == "track" }
    }

    @Test func everyFixIsRecordedFlushedAtTheIntervalAndAtShutdown() throws {
        let h = try SimulatedDeviceHarness(overrides: ["track.flush_interval_s=2", "track.raw_nmea=true"])
        defer { h.removeDirectory() }
        let recorder = h.device.trackRecorder
        let writer = try #require(recorder.writer)
        h.advance(by: 1_500_000_000)
        #expect(writer.counters.recordsAppended > 5, "10 Hz fixes are appended")
        #expect(writer.counters.recordsWritten == 0, "nothing is written before the flush interval")
        h.advance(by: 10_000_000_000)
        let written = writer.counters.recordsWritten
        #expect(written > 50)
        #expect(writer.counters.flushes >= 4 && writer.counters.flushes <= 7, "one flush per 2 s: \(writer.counters.flushes)")
        #expect(writer.counters.rawBytesWritten > 1000, "the receiver's bytes reach the raw NMEA file")
        let appended = writer.counters.recordsAppended
        _ = h.device.shutdown(nowNanoseconds: h.now)
        #expect(writer.counters.recordsWritten == appended, "shutdown flushes the rest")
        #expect(recorder.durableSequence == appended - 1, "the flusher made everything durable before shutdown returned")
        #expect(h.output.contains("track: \(appended) records flushed to " + h.directory + "/track"))
        let records = TrackJournalReader(directory: h.directory + "/track", files: PosixTrackFiles()).records(fromSequence: 0)
        #expect(records.count == Int(appended))
        #expect(records.enumerated().allSatisfy { $0.element.sequence == UInt64($0.offset) }, "sequence 0, 1, 2 … with no gap")
        #expect(records.contains { $0.heading.source != .none }, "the heading and its source go with the fix")
        #expect(records.allSatisfy { $0.utcNanoseconds != nil })
    }

    @Test func aFullDiskIsAFaultSaidOnceTrackingGoesOnAndItRecovers() throws {
        let disk = SimulatedTrackFiles()
        let h = try SimulatedDeviceHarness(overrides: ["track.flush_interval_s=1"], setupChanges: { $0.trackFiles = .simulated(disk) })
        defer { h.removeDirectory() }
        let writer = try #require(h.device.trackRecorder.writer)
        h.advance(by: 3_000_000_000)
        #expect(!h.device.faults.contains(.track))
        let before = writer.counters.recordsWritten
        #expect(before > 10)
        disk.capacityBytes = disk.usedBytes + 100
        let fixes0 = h.device.counters.fixes
        h.advance(by: 5_000_000_000)
        #expect(h.device.faults.contains(.track), "a full disk is the track fault (the fault LED)")
        #expect(h.device.counters.fixes - fixes0 > 40, "tracking goes on")
        let said = h.output.ranges(of: "track: cannot write the track log in").count
        #expect(said == 1, "said once: \(h.output)")
        #expect(h.output.contains("the disk is full (ENOSPC): free space or lower [track] max_size_mb"))
        #expect(h.output.contains("faults: track"), "the fault bits name it")
        let row = try #require(Self.trackRow(h))
        #expect(!row.isHealthy && row.state.description == "write failing")
        #expect(Self.counter(h, "track.faults") == 1)
        #expect((Self.counter(h, "track.failedFlushes") ?? 0) >= 3)
        #expect((Self.counter(h, "track.recordsPending") ?? 0) > 30, "the fixes wait in memory")
        // Space again: the waiting records go out, the fault clears, said once.
        disk.capacityBytes = .max
        h.advance(by: 3_000_000_000)
        #expect(!h.device.faults.contains(.track))
        #expect(h.output.contains("track: writing " + h.directory + "/track works again"))
        #expect(writer.counters.recordsLost == 0)
        #expect(writer.counters.recordsWritten + UInt64(writer.pendingRecords) == writer.counters.recordsAppended)
    }

    @Test func aReadOnlyDiskIsAFaultAndTheRecorderCanBeTurnedOff() throws {
        let disk = SimulatedTrackFiles()
        let h = try SimulatedDeviceHarness(overrides: ["track.flush_interval_s=1"], setupChanges: { $0.trackFiles = .simulated(disk) })
        defer { h.removeDirectory() }
        h.advance(by: 2_000_000_000)
        disk.readOnly = true
        // Read-only bites when a new segment is opened or a record is written.
        h.advance(by: 3_000_000_000)
        #expect(h.device.faults.contains(.track))
        #expect(h.output.contains("the file system is read-only (EROFS)"))
        disk.readOnly = false
        h.advance(by: 2_000_000_000)
        #expect(!h.device.faults.contains(.track))

        let off = try SimulatedDeviceHarness(overrides: ["track.enabled=false"])
        defer { off.removeDirectory() }
        off.advance(by: 2_000_000_000)
        #expect(off.device.trackRecorder.writer == nil)
        #expect(access(off.directory + "/track", F_OK) != 0, "nothing is created when recording is off")
    }
}
