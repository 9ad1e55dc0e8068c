import Glibc
import SystemCalls
import Testing
import TestSupport
@testable import NMEA
@testable import Commands
@testable import Puckd

func puckd(_ arguments: [String], input: [UInt8] = []) throws -> ProcessResult {
    try #require(access(puckdExecutable, X_OK) == 0, "build puckd first (swift build --build-tests)")
    return try #require(runProcess([puckdExecutable] + arguments, input: input))
}

@Suite struct ReplayCommandTests {
    @Test func optionsParse() {
        #expect(ReplayOptions.parse([]) == .success(ReplayOptions()))
        var expected = ReplayOptions()
        expected.source = .file("log.nmea")
        expected.json = true
        expected.realtime = true
        expected.strict = true
        #expect(ReplayOptions.parse(["log.nmea", "--json", "--realtime", "--strict"]) == .success(expected))
        var stdin = ReplayOptions()
        stdin.source = .standardInput
        #expect(ReplayOptions.parse(["-"]) == .success(stdin))
        #expect(ReplayOptions.parse(["--fast"]) == .failure("unknown option '--fast'"))
        #expect(ReplayOptions.parse(["a", "b"]) == .failure("more than one input given ('b')"))
    }

    @Test func builtInDrivePrintsOneLinePerFixAndASummary() throws {
        let r = try puckd(["replay"])
        #expect(r.status == 0)
        let lines = r.output.split(separator: "\n")
        let fixLines = lines.filter { $0.hasPrefix("2020-03-18T") }
        #expect(fixLines.count == 122)
        #expect(fixLines[0].hasPrefix("2020-03-18T13:28:19.600Z  41.5749659 N 93.7505719 W  alt 278.2 m  0.08 m/s 124.9°  3D dgps"))
        #expect(fixLines[121].contains("rtk-fixed"))
        #expect(r.output.contains("summary: 122 epochs (122 with a fix, 0 without a date)"))
        #expect(r.output.contains("GGA 122 RMC 122"))
        #expect(r.output.contains("gaps > 2 s 1"))
        #expect(r.output.contains("framer dropped: 0,"))
    }

    @Test func jsonGoesToStandardOutputAndTheSummaryToStandardError() throws {
        let log = try #require(Fixtures.bytes("nmea/gpsd/rst39.nmea"))
        let r = try puckd(["replay", "-", "--json"], input: log)
        #expect(r.status == 0)
        let lines = r.output.split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("{\"time\":\"2014-02-19T20:41:") && $0.hasSuffix("}") })
        #expect(r.errorOutput.contains("summary:") && r.errorOutput.contains("derived velocities"))
    }

    @Test func strictModeDropsSentencesWithoutChecksum() throws {
        let text = Array("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,\r\n".utf8)
        let lenient = try puckd(["replay", "-"], input: text)
        #expect(lenient.status == 0 && lenient.output.contains("1 framed (1 without checksum)"))
        let strict = try puckd(["replay", "-", "--strict"], input: text)
        #expect(strict.output.contains("missing checksums 1"))
        #expect(strict.status == ExitStatus.dataError)
        #expect(strict.errorOutput == "puckd replay: all 1 sentences lack a checksum and --strict drops them; "
            + "run without --strict to accept them\n")
    }

    @Test func missingFileIsOneClearSentence() throws {
        let r = try puckd(["replay", "/nonexistent/drive.nmea"])
        #expect(r.status == ExitStatus.noInput)
        #expect(r.errorOutput == "puckd replay: /nonexistent/drive.nmea does not exist; give the path of an NMEA "
            + "log, '-' for standard input, or no FILE for the built-in drive\n")
        #expect(r.output.isEmpty)
    }

    @Test func directoryIsRefused() throws {
        let r = try puckd(["replay", "/tmp"])
        #expect(r.status == ExitStatus.noInput && r.errorOutput.contains("/tmp is a directory"))
    }

    @Test(.enabled(if: geteuid() != 0, "root may read any file"))
    func unreadableFileNamesTheFix() throws {
        let path = try #require(Fixtures.temporaryFile(named: "secret.nmea", contents: Array("$GPGGA\n".utf8)))
        chmod(path, 0)
        let r = try puckd(["replay", path])
        #expect(r.status == ExitStatus.permission && r.errorOutput.contains("chmod a+r"))
    }

    @Test func notNMEAIsADataError() throws {
        let r = try puckd(["replay", "-"], input: Array("hello world\n".utf8))
        #expect(r.status == ExitStatus.dataError)
        #expect(r.errorOutput.contains("no NMEA sentences found"))
        #expect(r.output.contains("garbage bytes 11"))
    }

    @Test func unknownOptionIsAUsageError() throws {
        let r = try puckd(["replay", "--fast"])
        #expect(r.status == ExitStatus.usage && r.errorOutput.contains("unknown option '--fast'"))
    }

    @Test func helpListsReplay() throws {
        let r = try puckd(["--help"])
        #expect(r.status == 0 && r.output.contains("puckd replay [FILE|-] [--json] [--realtime] [--strict]"))
    }

    @Test func realtimeStepsFollowTheRecordingAndAreCapped() {
        var a = Fix(timeOfDayNanoseconds: 43_200_000_000_000)
        a.utcNanoseconds = 1_000_000_000_000_000_000
        var b = a
        b.timeOfDayNanoseconds += 200_000_000
        b.utcNanoseconds! += 200_000_000
        #expect(RealtimePacer.step(from: nil, to: a) == 0)
        #expect(RealtimePacer.step(from: a, to: b) == 200_000_000)
        #expect(RealtimePacer.step(from: b, to: a) == 0)                        // backwards: no pause
        var c = b
        c.utcNanoseconds! += 3600 * 1_000_000_000
        #expect(RealtimePacer.step(from: b, to: c) == RealtimePacer.maximumStepNanoseconds)
        var d = Fix(timeOfDayNanoseconds: 100_000_000)                          // undated, after midnight
        d.utcNanoseconds = nil
        var e = Fix(timeOfDayNanoseconds: 86_399_900_000_000)
        e.utcNanoseconds = nil
        #expect(RealtimePacer.step(from: e, to: d) == 200_000_000)
    }

    @Test func realtimeReplayRuns() throws {
        // Three epochs 50 ms apart: exercises the paced path (the test does not time it).
        let text = ["$GPGGA,120000.00,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,",
                    "$GPGGA,120000.05,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,",
                    "$GPGGA,120000.10,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,"]
            .map { $0 + "\r\n" }.joined()
        let r = try puckd(["replay", "-", "--realtime"], input: Array(text.utf8))
        #expect(r.status == 0 && r.output.split(separator: "\n").filter { $0.hasPrefix("date?T12:00:00") }.count == 3)
    }

    /// The replay loop allocates nothing per byte, sentence or fix: replaying the whole corpus costs
    /// exactly the start-up allocations of replaying one short log.
    @Test func replayAllocationsDoNotGrowWithInput() throws {
        let short = try #require(Fixtures.bytes("nmea/gpsd/april6_2019.nmea"))
        let corpus = Fixtures.files(in: "nmea/gpsd", suffix: ".nmea").flatMap { Fixtures.bytes("nmea/gpsd/" + $0) ?? [] }
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        func allocations(_ bytes: [UInt8], json: Bool) -> UInt64 {
            var options = ReplayOptions()
            options.json = json
            return bytes.withUnsafeBytes { raw in
                allocationCount { _ = ReplayCommand.replay(raw, options: options, output: FileDescriptor(known: null), summary: FileDescriptor(known: null)) }
            }
        }
        for json in [false, true] {
            _ = allocations(corpus, json: json)                                  // warm up
            let few = allocations(short, json: json)
            let many = allocations(corpus, json: json)
            #expect(many == few, "json \(json): \(few) allocations for 3 sentences, \(many) for the corpus")
        }
    }
}
