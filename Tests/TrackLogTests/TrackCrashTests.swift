import CBundledData
import Glibc
import Testing
import TestSupport
@testable import TrackLog

/// The journal survives SIGKILL at any instant (docs/track-log.md §5): `puckd track record` writes
/// the bundled drive (four times) into a real journal, flushing (write + fdatasync) as often as it can, and is
/// killed at a different moment in each of 300 rounds. After every kill, the records of all earlier
/// rounds are still there unchanged, the new ones are a prefix of the drive's records in order, the
/// sequence numbers have no gap, and the next start cuts whatever tail the kill tore.
@Suite(.serialized) struct TrackCrashTests {
    /// Starts `puckd ARGS` with standard error into `errorPath`; its pid.
    static func spawn(_ arguments: [String], errorPath: String) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var argv: [UnsafeMutablePointer<CChar>?] = ([puckdExecutable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        #expect(posix_spawn(&pid, puckdExecutable, &actions, nil, &argv, environ) == 0)
        return pid
    }

    static func monotonicMicroseconds() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Int64(t.tv_sec) * 1_000_000 + Int64(t.tv_nsec) / 1000
    }

    /// Bytes of the `.trk` files in `directory`.
    static func journalBytes(_ directory: String) -> Int {
        guard case .success(let names) = PosixTrackFiles().list(directory) else { return 0 }
        var total = 0
        for name in names where name.hasSuffix(".trk") {
            var info = stat()
            if stat(directory + "/" + name, &info) == 0 { total += Int(info.st_size) }
        }
        return total
    }

    /// A record without its sequence number, to compare contents.
    static func content(_ r: TrackRecord) -> TrackRecord { var c = r; c.sequence = 0; return c }

    @Test func killedWithSIGKILLWhileRecordingNothingFlushedIsLostAndTheTailIsCut() throws {
        let scratch = Fixtures.temporaryDirectory(prefix: "puckd-track-crash")
        let options = ["--set", "track.flush_interval_s=0", "--set", "track.max_size_mb=1"]
        // The input: the bundled drive four times (488 fixes, about 22 flushes of 4 KiB of NMEA each).
        let drive = Array(UnsafeRawBufferPointer(start: bundled_drive_bytes(), count: bundled_drive_count()))
        let input = try #require(Fixtures.temporaryFile(named: "drive4.nmea", contents: Array([[UInt8]](repeating: drive, count: 4).joined())))
        // The drive's records, from a run that is not killed.
        let reference = scratch + "/reference"
        let started = Self.monotonicMicroseconds()
        var status: Int32 = 0
        let pid0 = Self.spawn(["track", "record", input, "--set", "state.directory=" + reference] + options, errorPath: scratch + "/reference.err")
        waitpid(pid0, &status, 0)
        let runMicroseconds = Self.monotonicMicroseconds() - started
        #expect(status == 0)
        let expected = TrackJournalReader(directory: reference + "/track", files: PosixTrackFiles()).records(fromSequence: 0)
            .map(Self.content)
        #expect(expected.count == 488)

        let state = scratch + "/state", journal = state + "/track"
        var random = SeededRandom(seed: 13)
        var known: [TrackRecord] = []   // everything in the journal after the last round
        var killed = 0, completed = 0, tornTailsSaid = 0, partialRounds = 0
        let rounds = 300
        for round in 0..<rounds {
            let pid = Self.spawn(["track", "record", input, "--set", "state.directory=" + state] + options, errorPath: scratch + "/round.err")
            if round % 5 == 0 {
                // Every fifth round at a random moment of a whole run (start-up and recovery included).
                usleep(UInt32(random.below(Int(runMicroseconds) + 1000)))
            } else {
                // Else once the journal has grown by a random number of bytes (mid-record, mid-flush).
                let target = Self.journalBytes(journal) + 88 * (1 + random.below(240)) + random.below(88)
                var waited = 0
                while Self.journalBytes(journal) < target && waitpid(pid, &status, WNOHANG) == 0 && waited < 20_000 {
                    usleep(100)
                    waited += 1
                }
            }
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            if status & 0x7f == SIGKILL { killed += 1 } else { completed += 1 }
            let err = String(decoding: Fixtures.readFile(scratch + "/round.err") ?? [], as: UTF8.self)
            if err.contains("torn or corrupt tail") { tornTailsSaid += 1 }
            // What is there now, read as the uplinks and `puckd track export` read it.
            let from = known.last.map { $0.sequence + 1 } ?? 0
            let reader = TrackJournalReader(directory: journal, files: PosixTrackFiles())
            let fresh = reader.records(fromSequence: from)
            #expect(fresh.first.map { $0.sequence == from } ?? true, "round \(round): the sequence goes on from \(from)")
            #expect(zip(fresh, fresh.dropFirst()).allSatisfy { $1.sequence == $0.sequence + 1 }, "round \(round): no gap")
            #expect(fresh.count <= expected.count)
            #expect(fresh.map(Self.content) == Array(expected.prefix(fresh.count)), "round \(round): the drive's records, in order")
            if fresh.count > 0 && fresh.count < expected.count { partialRounds += 1 }
            // The records of the earlier rounds still in the journal (the cap drops the oldest) are unchanged.
            let oldestKept = reader.segmentNames().first?.firstSequence ?? 0
            let tail = known.filter { $0.sequence >= max(oldestKept, from >= 300 ? from - 300 : 0) }
            let stillThere = Array(reader.records(fromSequence: tail.first?.sequence ?? from).prefix(tail.count))
            #expect(stillThere == tail, "round \(round): earlier records unchanged")
            known = Array((tail + fresh).suffix(400))
        }
        // The last start-up: the journal is clean, whole, and goes on.
        let writer = TrackLogWriter(settings: TrackLogSettings(directory: journal, maximumMegabytes: 1), files: PosixTrackFiles())
        let recovery = writer.open()
        #expect(recovery.damagedRecords == 0)
        #expect(recovery.nextSequence == (known.last.map { $0.sequence + 1 } ?? 0))
        #expect(killed > rounds / 2, "most rounds were killed mid-run: \(killed) killed, \(completed) completed")
        #expect(partialRounds > rounds / 4, "the kills landed at different points: \(partialRounds) rounds cut mid-drive")
        print("track kill -9 test: \(rounds) rounds, \(killed) killed (\(completed) ran to the end), \(partialRounds) cut mid-drive, "
            + "\(recovery.nextSequence) records, \(tornTailsSaid) torn tails cut at the next start, 0 flushed records lost")
        _ = runProcess(["rm", "-rf", scratch])
    }
}
