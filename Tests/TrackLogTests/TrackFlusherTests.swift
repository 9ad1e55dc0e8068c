import Glibc
import SystemCalls
import Testing
import TestSupport
@testable import TrackLog

/// The flusher thread (docs/track-log.md §4): syncs run on its own thread in the order queued, a
/// durability mark is published only after the syncs before it succeeded, a failed sync is handed
/// back to the next `sync` of the writer's files and withholds the next mark, and a close waits for
/// the syncs queued before it.
@Suite struct TrackFlusherTests {
    /// The inode behind a descriptor, nil when it is closed.
    static func inode(_ fd: Int32) -> ino_t? {
        var st = stat()
        return fstat(fd, &st) == 0 ? st.st_ino : nil
    }

    @Test func marksFollowTheirSyncsAndAFailureWithholdsTheMark() throws {
        let flusher = TrackFlusher()
        #expect(flusher.isThreaded)
        #expect(flusher.durableSequence == nil)
        let directory = Fixtures.temporaryDirectory(prefix: "puckd-flusher")
        defer { _ = runProcess(["rm", "-rf", directory]) }
        let fd = open(directory + "/a", O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        #expect(fd >= 0)
        var byte: UInt8 = 7
        #expect(write(fd, &byte, 1) == 1)
        let fileInode = Self.inode(fd)
        flusher.sync(FileDescriptor(known: fd))
        flusher.mark(durableThrough: 41)
        // A pipe cannot be synced (EINVAL): that failure withholds the mark behind it.
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        let pipeInode = Self.inode(pipeEnds[1])
        flusher.sync(FileDescriptor(known: pipeEnds[1]), closing: true)
        flusher.mark(durableThrough: 99)
        flusher.sync(FileDescriptor(known: fd))
        flusher.mark(durableThrough: 50)
        flusher.close(FileDescriptor(known: fd))
        flusher.stop()
        #expect(flusher.durableSequence == 50, "41 then (99 withheld by the failed sync) 50")
        #expect(flusher.takeError() == .invalidArgument)
        #expect(flusher.takeError() == nil, "an error is handed over once")
        // Closed: the number is free, or (tests run in parallel) already reused for another file.
        #expect(Self.inode(fd) != fileInode, "the close ran after the syncs queued before it")
        #expect(Self.inode(pipeEnds[1]) != pipeInode, "sync-and-close closes")
        close(pipeEnds[0])
        let s = flusher.statistics
        #expect(s.syncs == 3 && s.failed == 1)
    }

    @Test func theWritersFilesHandTheSyncToTheThreadAndReportItsFailureOnTheNextFlush() throws {
        let directory = Fixtures.temporaryDirectory(prefix: "puckd-flusher")
        defer { _ = runProcess(["rm", "-rf", directory]) }
        let files = FlushedTrackFiles(flusher: TrackFlusher())
        let writer = TrackLogWriter(settings: TrackLogSettings(directory: directory + "/track", flushIntervalSeconds: 0),
                                    files: files)
        writer.open()
        let record = TrackRecord(sequence: 0, utcNanoseconds: 1_767_225_600_000_000_000, latitudeDegrees: 52.5, longitudeDegrees: 13.4)
        for k in 0..<100 {
            writer.append(record, nowNanoseconds: Int64(k) * 1_000_000)
            writer.service(nowNanoseconds: Int64(k) * 1_000_000)
            files.flusher.mark(durableThrough: writer.nextSequence - 1)
        }
        #expect(writer.close(nowNanoseconds: 1_000_000_000))
        files.flusher.stop()
        #expect(writer.fault == nil)
        #expect(files.flusher.durableSequence == 99)
        // One fdatasync per flush (plus the segment's header and directory), or folded into one still
        // waiting when the disk is 64 requests behind (a loaded machine's disk can be; the close at the
        // end cannot be folded, so it may wait for room: that is shutdown).
        #expect(files.flusher.statistics.syncs + files.flusher.coalescedRequests >= 100, "\(files.flusher.statistics)")
        let records = TrackJournalReader(directory: directory + "/track", files: PosixTrackFiles()).records(fromSequence: 0)
        #expect(records.count == 100)
    }
}
