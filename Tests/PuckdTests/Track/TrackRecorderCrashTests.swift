import Glibc
import Testing
import TestSupport
import TrackLog

/// `puckd run --board sim` records by default, and its journal survives SIGKILL at any moment
/// (docs/track-log.md §4): 60 rounds of the real binary killed at a random point and restarted on the
/// same state directory, then one clean stop and `puckd track export --gpx` checked by xmllint
/// against the GPX 1.1 schema. What it proves: (1) every record the device said was durable (`track
/// seq A durable D` in its status lines) is in the journal after the kill; (2) the sequence numbers go
/// on from the journal's last record after each restart, with no gap and no damaged record; (3) by
/// the device's own clock, a record appended at t was reported durable by t + flush interval + 2 s
/// (one fdatasync, generously). SIGKILL keeps the page cache, so this is the process dying, not the
/// power: the power cut is the simulated disk's test in TrackLogTests.
@Suite(.serialized) struct TrackRecorderCrashTests {
    /// One status line's device time (s), last appended and last durable sequence (-1: none).
    struct StatusPoint { var seconds: Double; var appended: Int64; var durable: Int64 }

    static func points(_ output: String) -> [StatusPoint] {
        output.split(separator: "\n" as Character).compactMap { line -> StatusPoint? in
            guard line.hasPrefix("status "), let range = line.firstRange(of: "| track seq ") else { return nil }
            let words = line[range.upperBound...].split(separator: " ")
            let time = line.dropFirst(7).split(separator: " ").first.flatMap { Double($0) }
            guard words.count >= 3, let time else { return nil }
            return StatusPoint(seconds: time, appended: Int64(words[0]) ?? -1, durable: Int64(words[2]) ?? -1)
        }
    }

    @Test func killedAtRandomMomentsNothingReportedDurableIsLost() throws {
        let scratch = Fixtures.temporaryDirectory(prefix: "puckd-run-crash")
        defer { _ = runProcess(["rm", "-rf", scratch]) }
        let flushSeconds = 0.2
        let arguments = ["run", "--board", "sim", "--set", "state.directory=" + scratch, "--set", "console.device=none",
                         "--set", "console.status_interval_s=0.1", "--set", "track.flush_interval_s=\(flushSeconds)"]
        let journal = scratch + "/track"
        var random = SeededRandom(seed: 1313)
        var lastInJournal: Int64 = -1
        var lateDurable = 0, killed = 0, reportedDurable: Int64 = -1
        let rounds = 60
        for round in 0...rounds {
            let p = try #require(PuckdProcess(arguments, standardInputNull: true))
            // A random number of status lines (0.1 s apart on the device's clock), then a random extra moment.
            let lines = 1 + random.below(25)
            p.waitUntil(seconds: 20) { Self.points($0).count >= lines }
            usleep(UInt32(random.below(150_000)))
            if round < rounds {
                p.signal(SIGKILL)
                killed += p.waitForExit(seconds: 10) == 128 + SIGKILL ? 1 : 0
            } else {
                p.signal(SIGTERM)
                #expect(p.waitForExit(seconds: 20) == 0, "the last round stops cleanly: \(p.errorOutput)")
                #expect(p.output.contains("track: ") && p.output.contains(" records flushed to " + journal))
            }
            let points = Self.points(p.output)
            #expect(!points.isEmpty, "round \(round): status lines: \(p.output.suffix(400)) \(p.errorOutput.suffix(400))")
            if round == 0 { #expect(p.output.contains("track: recording every fix into " + journal)) }
            // (3) every record appended was reported durable within the flush interval and one fsync.
            for a in points {
                if let later = points.first(where: { $0.seconds >= a.seconds + flushSeconds + 2 }), later.durable < a.appended {
                    lateDurable += 1
                }
            }
            let durable = points.last?.durable ?? -1
            reportedDurable = max(reportedDurable, durable)
            // (1) and (2): read the journal as `puckd track export` does.
            let records = TrackJournalReader(directory: journal, files: PosixTrackFiles()).records(fromSequence: 0)
            #expect(records.enumerated().allSatisfy { $0.element.sequence == UInt64($0.offset) }, "round \(round): no gap")
            let last = Int64(records.count) - 1
            #expect(last >= durable, "round \(round): the journal ends at \(last), the device said \(durable) was durable")
            #expect(last >= lastInJournal, "round \(round): nothing that was in the journal went away")
            // The restarted device goes on from the journal's tail (its first line says the tail, or a record after it).
            if let first = points.first {
                #expect(first.appended >= lastInJournal, "round \(round): the sequence goes on after the journal's last record")
                #expect(points.allSatisfy { $0.durable >= lastInJournal }, "round \(round): the recovered tail counts as durable")
            }
            lastInJournal = last
        }
        #expect(lateDurable == 0, "records reported durable later than the flush interval + 2 s: \(lateDurable)")
        #expect(killed == rounds, "every round but the last was killed: \(killed)")
        #expect(lastInJournal > Int64(rounds) * 5, "the rounds recorded: \(lastInJournal + 1) records")
        // The whole journal as GPX 1.1, valid against the schema.
        let gpx = try #require(runProcess([PuckdProcess.binary, "track", "export", "--gpx", "--set", "state.directory=" + scratch]))
        #expect(gpx.status == 0)
        let gpxPath = try #require(Fixtures.temporaryFile(named: "all.gpx", contents: Array(gpx.output.utf8)))
        let schema = Fixtures.path("gpx/gpx-1.1.xsd")
        let lint = try #require(runProcess(["xmllint", "--noout", "--schema", schema, gpxPath]))
        #expect(lint.status == 0, "\(lint.output)")
        #expect(gpx.output.ranges(of: "<trkpt ").count == Int(lastInJournal + 1), "every record exported")
        print("puckd run kill -9 test: \(rounds) rounds killed + 1 clean stop, \(lastInJournal + 1) records, "
            + "highest sequence reported durable \(reportedDurable), 0 reported-durable records lost, \(lateDurable) late")
    }
}
