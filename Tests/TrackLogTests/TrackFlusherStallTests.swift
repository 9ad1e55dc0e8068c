import Glibc
import SystemCalls
import Testing
import TestSupport
@testable import TrackLog

/// The disk stalls (docs/track-log.md §4, "What still runs on the loop's thread"): with every request of
/// the flusher thread blocked — as fsync and unlink block on a dying SD card — the writer's appends,
/// flushes, segment rotations and size-cap drops all return on the loop's thread, nothing becomes
/// durable, the dropped segments' unlinks wait on the flusher, and the loop never waits for room. Once
/// the disk comes back everything is durable and the journal is what it would have been.
@Suite struct TrackFlusherStallTests {
    @Test func aStalledDiskNeverStallsTheWriter() throws {
        let directory = Fixtures.temporaryDirectory(prefix: "puckd-flusher-stall")
        defer { _ = runProcess(["rm", "-rf", directory]) }
        let gate = StallGate()
        let files = FlushedTrackFiles(flusher: TrackFlusher(beforeEach: { gate.pass() }))
        var settings = TrackLogSettings(directory: directory + "/track", flushIntervalSeconds: 1)
        // 20 records a segment, the cap a little over two segments: rotations and drops within 80 records.
        settings.segmentBytes = Int64(TrackSegmentHeader.byteCount + 20 * TrackRecord.byteCount)
        settings.maximumBytes = settings.segmentBytes * 2 + 100
        let writer = TrackLogWriter(settings: settings, files: files)
        writer.open()
        let second: Int64 = 1_000_000_000
        var now: Int64 = 0
        for k in 0..<80 {
            // 10 fixes a second, a flush a second (and each handed over as "durable through").
            let record = TrackRecord(sequence: 0, utcNanoseconds: 1_767_225_600_000_000_000 + Int64(k) * 100_000_000,
                                     latitudeDegrees: 52.5 + Double(k) * 1e-5, longitudeDegrees: 13.4)
            now += second / 10
            writer.append(record, nowNanoseconds: now)
            if writer.nextDeadlineNanoseconds <= now {
                writer.service(nowNanoseconds: now)
                files.flusher.mark(durableThrough: writer.nextSequence - 1)
            }
        }
        now += 2 * second
        writer.service(nowNanoseconds: now)
        files.flusher.mark(durableThrough: writer.nextSequence - 1)
        gate.waitUntilBlocked()
        // Every call above returned with the flusher stuck in its first request.
        #expect(writer.counters.recordsWritten == 80 && writer.fault == nil)
        #expect(writer.counters.segmentsCreated == 4 && writer.counters.segmentsDropped == 2, "\(writer.counters)")
        #expect(files.flusher.durableSequence == nil, "nothing is durable while the disk stalls")
        #expect(files.flusher.statistics.waits == 0, "the loop never waited for room in the ring")
        #expect(gate.entries == 1, "the flusher is inside its first request")
        let stalled = runProcess(["ls", directory + "/track"])?.output.split(separator: "\n").filter { $0.hasSuffix(".trk") } ?? []
        #expect(stalled.count == 4, "the dropped segments' unlinks wait on the flusher, not on the loop: \(stalled)")

        gate.release()
        files.flusher.stop()
        #expect(files.flusher.durableSequence == 79)
        let kept = runProcess(["ls", directory + "/track"])?.output.split(separator: "\n").filter { $0.hasSuffix(".trk") } ?? []
        #expect(kept.count == 2, "the drops done: \(kept)")
        let records = TrackJournalReader(directory: directory + "/track", files: PosixTrackFiles()).records(fromSequence: 0)
        #expect(records.map(\.sequence) == Array(40..<80), "the two newest segments, whole")
        #expect(writer.close(nowNanoseconds: now))
    }

    /// A disk stalled for 300 flushes (5 minutes at 1 s) in one segment: the ring (64) would be full after
    /// about 30, but each new sync folds into the waiting sync of the same segment and each new mark into
    /// the waiting mark, so the loop never waits; released, everything is durable through the last record.
    @Test func aLongStallFoldsTheRequestsInsteadOfWaiting() throws {
        let directory = Fixtures.temporaryDirectory(prefix: "puckd-flusher-stall")
        defer { _ = runProcess(["rm", "-rf", directory]) }
        let gate = StallGate()
        let files = FlushedTrackFiles(flusher: TrackFlusher(beforeEach: { gate.pass() }))
        let writer = TrackLogWriter(settings: TrackLogSettings(directory: directory + "/track", flushIntervalSeconds: 1), files: files)
        writer.open()
        let second: Int64 = 1_000_000_000
        var now: Int64 = 0
        for k in 0..<3000 {
            let record = TrackRecord(sequence: 0, utcNanoseconds: 1_767_225_600_000_000_000 + Int64(k) * 100_000_000,
                                     latitudeDegrees: 52.5 + Double(k) * 1e-6, longitudeDegrees: 13.4)
            now += second / 10
            writer.append(record, nowNanoseconds: now)
            if writer.nextDeadlineNanoseconds <= now {
                writer.service(nowNanoseconds: now)
                files.flusher.mark(durableThrough: writer.nextSequence - 1)
            }
        }
        #expect(writer.counters.flushes >= 290 && writer.counters.recordsWritten >= 2990, "\(writer.counters)")
        #expect(files.flusher.statistics.waits == 0, "the loop never waited for room")
        #expect(files.flusher.coalescedRequests > 400, "\(files.flusher.coalescedRequests)")
        #expect(files.flusher.durableSequence == nil && gate.entries <= 1, "the flusher is stuck in (or not yet at) its first request")
        gate.release()
        #expect(writer.close(nowNanoseconds: now + second))
        files.flusher.mark(durableThrough: writer.nextSequence - 1)
        files.flusher.stop()
        #expect(files.flusher.durableSequence == 2999)
        let records = TrackJournalReader(directory: directory + "/track", files: PosixTrackFiles()).records(fromSequence: 0)
        #expect(records.count == 3000 && records.last?.sequence == 2999)
    }
}
