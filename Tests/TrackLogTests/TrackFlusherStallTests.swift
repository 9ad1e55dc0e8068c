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
    /// A journal in a temporary directory whose flusher blocks in every request until `gate` is
    /// released (a disk that stalls), fed 10 fixes a second with a flush a second, each flush handed
    /// over as "durable through" (the stall set-up both tests share).
    final class StalledJournal {
        static let second: Int64 = 1_000_000_000
        let directory = Fixtures.temporaryDirectory(prefix: "puckd-flusher-stall")
        let gate = StallGate()
        let files: FlushedTrackFiles
        let writer: TrackLogWriter<FlushedTrackFiles>
        var now: Int64 = 0
        private var fed = 0

        init(configure: (inout TrackLogSettings) -> Void = { _ in }) {
            let gate = self.gate
            files = FlushedTrackFiles(flusher: TrackFlusher(beforeEach: { gate.pass() }))
            var settings = TrackLogSettings(directory: directory + "/track", flushIntervalSeconds: 1)
            configure(&settings)
            writer = TrackLogWriter(settings: settings, files: files)
            writer.open()
        }

        deinit { _ = runProcess(["rm", "-rf", directory]) }

        /// `count` more fixes, 0.1 s apart, moving north by `step` degrees each.
        func feed(_ count: Int, step: Double) {
            for _ in 0..<count {
                let k = fed
                fed += 1
                let record = TrackRecord(sequence: 0, utcNanoseconds: 1_767_225_600_000_000_000 + Int64(k) * 100_000_000,
                                         latitudeDegrees: 52.5 + Double(k) * step, longitudeDegrees: 13.4)
                now += Self.second / 10
                writer.append(record, nowNanoseconds: now)
                if writer.nextDeadlineNanoseconds <= now { flush() }
            }
        }

        /// A flush now, handed over as "durable through" the newest record.
        func flush() {
            writer.service(nowNanoseconds: now)
            files.flusher.mark(durableThrough: writer.nextSequence - 1)
        }

        /// Releases the gate from another thread after `microseconds` (a watchdog: a loop that waits for
        /// the flusher returns then, and the test fails on the wait instead of hanging).
        func releaseLater(afterMicroseconds microseconds: UInt32) {
            let box = Unmanaged.passRetained(ReleaseAfter(gate: gate, microseconds: microseconds)).toOpaque()
            _ = try? WorkerThread.start(stackBytes: 64 << 10, context: box) { context in
                let job = Unmanaged<ReleaseAfter>.fromOpaque(context!).takeRetainedValue()
                usleep(job.microseconds)
                job.gate.release()
                return nil
            }
        }

        final class ReleaseAfter {
            let gate: StallGate, microseconds: UInt32
            init(gate: StallGate, microseconds: UInt32) { self.gate = gate; self.microseconds = microseconds }
        }

        /// The `.trk` files in the journal's directory now.
        var segmentFiles: [Substring] {
            runProcess(["ls", directory + "/track"])?.output.split(separator: "\n").filter { $0.hasSuffix(".trk") } ?? []
        }

        /// Every record the journal holds on disk.
        var records: [TrackRecord] {
            TrackJournalReader(directory: directory + "/track", files: PosixTrackFiles()).records(fromSequence: 0)
        }
    }

    @Test func aStalledDiskNeverStallsTheWriter() throws {
        // 20 records a segment, the cap a little over two segments: rotations and drops within 80 records.
        let journal = StalledJournal { settings in
            settings.segmentBytes = Int64(TrackSegmentHeader.byteCount + 20 * TrackRecord.byteCount)
            settings.maximumBytes = settings.segmentBytes * 2 + 100
        }
        let writer = journal.writer, flusher = journal.files.flusher
        journal.feed(80, step: 1e-5)
        journal.now += 2 * StalledJournal.second
        journal.flush()
        journal.gate.waitUntilBlocked()
        // Every call above returned with the flusher stuck in its first request.
        #expect(writer.counters.recordsWritten == 80 && writer.fault == nil)
        #expect(writer.counters.segmentsCreated == 4 && writer.counters.segmentsDropped == 2, "\(writer.counters)")
        #expect(flusher.durableSequence == nil, "nothing is durable while the disk stalls")
        #expect(flusher.statistics.waits == 0, "the loop never waited for room in the ring")
        #expect(journal.gate.entries == 1, "the flusher is inside its first request")
        let stalled = journal.segmentFiles
        #expect(stalled.count == 4, "the dropped segments' unlinks wait on the flusher, not on the loop: \(stalled)")

        journal.gate.release()
        flusher.stop()
        #expect(flusher.durableSequence == 79)
        let kept = journal.segmentFiles
        #expect(kept.count == 2, "the drops done: \(kept)")
        #expect(journal.records.map(\.sequence) == Array(40..<80), "the two newest segments, whole")
        #expect(writer.close(nowNanoseconds: journal.now))
    }

    /// A disk stalled across 20 rotations (400 fixes, 20 a segment): each rotation would hand the flusher
    /// a close, a header sync and a directory fsync that never fold, so the ring (64) fills after about 7
    /// of them and the loop used to wait for room (`flusherWaits`). Now a rotation is handed over only
    /// while `TrackFlusher.rotationReserve` entries are free; otherwise the records stay in the writer's
    /// buffer (512) and the loop goes on. Released, every record reaches the journal, none lost, no gap.
    /// (A watchdog releases the stall after 3 s, so a loop that waits fails here instead of hanging.)
    @Test func aStallAcrossManyRotationsKeepsTheRecordsBufferedInsteadOfWaiting() throws {
        let journal = StalledJournal { settings in
            settings.segmentBytes = Int64(TrackSegmentHeader.byteCount + 20 * TrackRecord.byteCount)
        }
        let writer = journal.writer, flusher = journal.files.flusher
        journal.releaseLater(afterMicroseconds: 3_000_000)
        journal.feed(400, step: 1e-5)
        let waits = flusher.statistics.waits
        let stalled = journal.gate.entries <= 1 && flusher.durableSequence == nil
        #expect(waits == 0, "the loop waited \(waits) times for room in the flusher's ring")
        #expect(stalled, "the flusher was still stalled when the 400 fixes were done")
        #expect(writer.counters.recordsAppended == 400 && writer.counters.recordsLost == 0, "\(writer.counters)")
        #expect(writer.counters.rotationsDeferred > 0 && writer.pendingRecords > 0, "the records wait in the buffer: \(writer.counters)")
        journal.gate.release()
        // The disk is back: a flush a second (each 10 ms of real time, so the real disk keeps up) rotates
        // and writes what waited, still without the loop waiting.
        var rounds = 0
        while writer.pendingRecords > 0 && rounds < 1000 {
            usleep(10_000)
            journal.now += StalledJournal.second
            journal.flush()
            rounds += 1
        }
        #expect(writer.pendingRecords == 0 && flusher.statistics.waits == 0, "\(rounds) flushes, \(flusher.statistics.waits) waits")
        #expect(writer.counters.recordsLost == 0 && writer.counters.recordsWritten == 400, "\(writer.counters)")
        #expect(writer.close(nowNanoseconds: journal.now + StalledJournal.second))
        flusher.stop()
        #expect(flusher.durableSequence == 399)
        #expect(journal.records.map(\.sequence) == Array(0..<400), "every record, in order, none lost")
    }

    /// A disk stalled for 300 flushes (5 minutes at 1 s) in one segment: the ring (64) would be full after
    /// about 30, but each new sync folds into the waiting sync of the same segment and each new mark into
    /// the waiting mark, so the loop never waits; released, everything is durable through the last record.
    @Test func aLongStallFoldsTheRequestsInsteadOfWaiting() throws {
        let journal = StalledJournal()
        let writer = journal.writer, flusher = journal.files.flusher
        journal.feed(3000, step: 1e-6)
        #expect(writer.counters.flushes >= 290 && writer.counters.recordsWritten >= 2990, "\(writer.counters)")
        #expect(flusher.statistics.waits == 0, "the loop never waited for room")
        #expect(flusher.coalescedRequests > 400, "\(flusher.coalescedRequests)")
        #expect(flusher.durableSequence == nil && journal.gate.entries <= 1, "the flusher is stuck in (or not yet at) its first request")
        journal.gate.release()
        #expect(writer.close(nowNanoseconds: journal.now + StalledJournal.second))
        flusher.mark(durableThrough: writer.nextSequence - 1)
        flusher.stop()
        #expect(flusher.durableSequence == 2999)
        let records = journal.records
        #expect(records.count == 3000 && records.last?.sequence == 2999)
    }
}
