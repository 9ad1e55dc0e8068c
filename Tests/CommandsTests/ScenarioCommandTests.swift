import Testing
import TestSupport
@testable import Commands
@testable import Puckd

/// `puckd scenario FILE [--hz N]` and `puckd replay --track MODE --script FILE` as processes: output
/// names, the rate, FILE:LINE errors with exit status 65, and script inputs over a recorded drive.
@Suite struct ScenarioCommandTests {
    static let small = """
        view 800 480
        0 camera 52.52 13.405 zoom=16
        0 fix 52.52 13.405 acc=5 speed=10 course=90
        0.5 mode followWithCourse
        1 end
        """

    func file(_ name: String, _ text: String) throws -> String {
        try #require(Fixtures.temporaryFile(named: name, contents: Array(text.utf8)))
    }

    @Test func printsATickLinePerTickWithTheIssuesNames() throws {
        let r = try puckd(["scenario", "-", "--hz", "10"], input: Array(Self.small.utf8))
        #expect(r.status == 0 && r.errorOutput.isEmpty)
        let ticks = r.output.split(separator: "\n").filter { $0.contains("\"camera\":") }
        #expect(ticks.count == 11)
        let first = try #require(ticks.first)
        for name in ["{\"t\":0.0000,", "\"camera\":{\"lat\":", "\"lon\":", "\"zoom\":", "\"bearing\":", "\"pitch\":",
                     "\"padding\":[", "\"puck\":{\"visible\":", "\"x\":", "\"y\":", "\"ring\":", "\"ringVisible\":",
                     "\"halo\":", "\"bearingSource\":", "\"style\":", "\"stale\":", "\"approximate\":",
                     "\"viewport\":\"idle\"", "\"mode\":\"none\""] {
            #expect(first.contains(name), "\(name) missing from \(first)")
        }
        #expect(ticks.last?.contains("\"mode\":\"followWithCourse\"") == true)
        #expect(r.output.contains("{\"t\":0.5000,\"event\":\"input\",\"line\":4}"))
        #expect(r.output.contains("{\"t\":0.5000,\"event\":\"didChangeTrackingMode\",\"mode\":\"followWithCourse\",\"animated\":true}"))
        // 60 Hz by default.
        let fast = try puckd(["scenario", "-"], input: Array(Self.small.utf8))
        #expect(fast.output.split(separator: "\n").filter { $0.contains("\"camera\":") }.count == 61)
    }

    @Test func badLinesAreListedAsFileLineAndNothingRuns() throws {
        let path = try file("bad.scenario", """
            view 800 480
            0 fix 52.52 13.405 acc=5
            0.5 mode sideways
            0.2 fix 52.52 13.405
            1 zoom
            """)
        let r = try puckd(["scenario", path])
        #expect(r.status == 65)
        #expect(r.output.isEmpty)
        let lines = r.errorOutput.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.hasPrefix("\(path):") })
        #expect(lines[0].hasPrefix("\(path):3: ") && lines[0].contains("sideways"))
        #expect(lines[1].hasPrefix("\(path):4: "))
        #expect(lines[2].hasPrefix("\(path):5: "))
    }

    @Test func usageAndFileErrors() throws {
        let none = try puckd(["scenario"])
        #expect(none.status == 64 && none.errorOutput.contains("give the scenario FILE"))
        let hz = try puckd(["scenario", "x", "--hz", "0"])
        #expect(hz.status == 64 && hz.errorOutput.contains("--hz needs a whole number"))
        let missing = try puckd(["scenario", "/nonexistent/x.scenario"])
        #expect(missing.status == 66 && missing.errorOutput.contains("does not exist"))
    }

    @Test func aGoldenScenarioPrintsItsExpectedOutput() throws {
        let name = "tracking/m2-follow-puck-course-bearing-eases"
        let r = try puckd(["scenario", Fixtures.path(name + ".scenario"), "--hz", "10"])
        #expect(r.status == 0)
        #expect(r.standardOutput == Fixtures.bytes(name + ".expected.jsonl"))
    }

    @Test func replayScriptOptions() {
        if case .success(let o) = ReplayOptions.parse(["--track", "follow", "--script", "s.txt"]) {
            #expect(o.script == "s.txt" && o.track == .mode(.follow))
        } else { Issue.record("--script did not parse") }
        #expect(ReplayOptions.parse(["--script", "s.txt"]) == .failure("--script needs --track TARGET (the script drives the tracking core)"))
        #expect(ReplayOptions.parse(["--track", "follow", "--script"]) == .failure("--script needs the FILE of timed inputs"))
        #expect(ReplayOptions.parse(["-", "--track", "follow", "--script", "-"])
                == .failure("the log and the script cannot both come from standard input ('-')"))
    }

    /// Button presses (console commands), a gesture and a compass sample over the bundled drive, at
    /// seconds from its first epoch.
    @Test func replayScriptAppliesTimedInputsOverTheDrive() throws {
        let path = try file("drive.script", """
            # presses over the built-in drive
            2 mode followWithCourse
            5 pan 100 0
            6 mode next
            7.25 heading 45 acc=5
            """)
        let r = try puckd(["replay", "--track", "follow", "--script", path, "--json"])
        #expect(r.status == 0)
        let lines = r.output.split(separator: "\n").map(String.init)
        func index(_ text: String) -> Int? { lines.firstIndex { $0.hasPrefix(text) } }
        let press = try #require(index("{\"timeNanoseconds\":2000000000,\"event\":\"input\",\"line\":2}"))
        #expect(lines[press + 1] == "{\"timeNanoseconds\":2000000000,\"event\":\"didChangeTrackingMode\",\"mode\":\"followWithCourse\",\"animated\":true}")
        // The press sits between the ticks before and after 2 s (and after the fix at 2 s).
        let before = try #require(lines[..<press].last { $0.contains("\"camera\":") })
        #expect(before.hasPrefix("{\"timeNanoseconds\":1983333333,"))
        #expect(lines[..<press].last { $0.contains("\"event\":") } == "{\"timeNanoseconds\":2000000000,\"event\":\"didUpdateUserLocation\"}")
        let after = try #require(lines[press...].first { $0.contains("\"camera\":") })
        #expect(after.hasPrefix("{\"timeNanoseconds\":2000000000,") && after.contains("\"trackingMode\":\"followWithCourse\""))
        // The pan ends tracking; "mode next" cycles from none to follow; the compass sample between ticks.
        let pan = try #require(index("{\"timeNanoseconds\":5000000000,\"event\":\"input\",\"line\":3}"))
        #expect(lines[pan + 1].contains("\"didChangeTrackingMode\",\"mode\":\"none\""))
        let next = try #require(index("{\"timeNanoseconds\":6000000000,\"event\":\"input\",\"line\":4}"))
        #expect(lines[next + 1].contains("\"didChangeTrackingMode\",\"mode\":\"follow\""))
        #expect(index("{\"timeNanoseconds\":7250000000,\"event\":\"input\",\"line\":5}") != nil)
    }

    @Test func replayScriptErrorsAreFileLine() throws {
        let path = try file("bad.script", "2 mode sideways\nnot a line\n")
        let r = try puckd(["replay", "--track", "follow", "--script", path])
        #expect(r.status == 65 && r.output.isEmpty)
        #expect(r.errorOutput.hasPrefix("\(path):1: "))
        #expect(r.errorOutput.contains("\n\(path):2: "))
        let missing = try puckd(["replay", "--track", "follow", "--script", "/nonexistent/s"])
        #expect(missing.status == 66 && missing.errorOutput.hasPrefix("puckd replay --script: /nonexistent/s does not exist"))
    }
}
