import Console
@testable import FuzzSupport
import Testing
import TestSupport
import Tracking
@testable import TrackingScenario

/// The `scenario` fuzz target's harness (`ScenarioFuzzHarness`): its seeds and the golden scenarios
/// keep every invariant, so do seeded mutations of them, and each kind of check does fail when its
/// invariant is broken (so a fuzz run that passes says something).
@Suite struct ScenarioFuzzTests {
    static let seeds: [[UInt8]] = Fixtures.files(in: "fuzz/scenario", suffix: "").compactMap {
        Fixtures.bytes("fuzz/scenario/" + $0)
    }
    static let goldens: [[UInt8]] = Fixtures.files(in: "tracking", suffix: ".scenario").compactMap {
        Fixtures.bytes("tracking/" + $0)
    }

    static func run(_ bytes: [UInt8]) -> ScenarioFuzzHarness.Report {
        bytes.withUnsafeBytes { ScenarioFuzzHarness.run($0) }
    }

    @Test func seedsAndGoldensParseRunAndKeepEveryInvariant() throws {
        try #require(Self.seeds.count >= 10)
        try #require(Self.goldens.count >= 60)
        for (i, bytes) in (Self.seeds + Self.goldens).enumerated() {
            let report = Self.run(bytes)
            #expect(report.parsed, "file \(i) does not parse")
            #expect(report.violation == nil, "file \(i): \(report.violation ?? "")")
            #expect(report.ticks > 0)
        }
    }

    @Test func theEdgesSeedRunsATruncatedDayAtOneHertz() throws {
        let bytes = try #require(Fixtures.bytes("fuzz/scenario/edges.scenario"))
        let report = Self.run(bytes)
        #expect(report.parsed && report.violation == nil, "\(report.violation ?? "")")
        #expect(report.inputs == 26)
        #expect(report.ticks == ScenarioFuzzHarness.maximumTicks)     // 86 400 s at 1 Hz, cut at the bound
    }

    /// First `make fuzz` finding of the scenario target (a mutated golden file): a fix without `acc=`
    /// leaves the puck's accuracy at −1 ("none", as CoreLocation's negative accuracy), which the
    /// harness took for a broken range. The core is right; the invariant now allows exactly −1.
    @Test func aFixWithoutAccuracyIsAnUnknownAccuracyNotAViolation() throws {
        let finding = try #require(Fixtures.bytes("fuzz/scenario/finding-fix-without-accuracy.scenario"))
        #expect(Self.run(finding).violation == nil)
        guard case .success(let scenario) = ScenarioParser.parse("0 fix 52.52 13.4\n1 end\n") else {
            Issue.record("does not parse"); return
        }
        var runner = try ScenarioRunner(scenario: scenario, ticksPerSecond: 10)
        var out = OutputBuffer(capacity: 1 << 16)
        _ = runner.run(into: &out)
        #expect(runner.core.puck.hasLocation && runner.core.puck.horizontalAccuracyMeters == -1)
        #expect(ScenarioFuzzRun.check(runner.core.puck) == nil)
        var p = runner.core.puck
        p.horizontalAccuracyMeters = -2
        #expect(ScenarioFuzzRun.check(p) != nil)
    }

    /// Bit flips, deleted and duplicated runs, random bytes and lines spliced from another file.
    static func mutate(_ rng: inout SeededRandom) -> [UInt8] {
        let files = seeds + goldens
        var bytes = files[rng.below(files.count)]
        for _ in 0..<(1 + rng.below(4)) {
            guard !bytes.isEmpty else { break }
            let at = rng.below(bytes.count)
            switch rng.below(5) {
            case 0: bytes[at] ^= UInt8(1 << rng.below(8))
            case 1: bytes.removeSubrange(at..<min(bytes.count, at + rng.below(40)))
            case 2: bytes.insert(contentsOf: Array(bytes[at..<min(bytes.count, at + rng.below(80))]), at: rng.below(bytes.count))
            case 3: bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: at)
            default:
                let other = files[rng.below(files.count)]
                let from = rng.below(other.count)
                bytes.insert(contentsOf: other[from..<min(other.count, from + rng.below(120))], at: at)
            }
        }
        return bytes
    }

    @Test func mutatedScenariosKeepEveryInvariant() {
        var rng = SeededRandom(state: 0x5CE7_A210)
        var parsed = 0, failed = 0
        for iteration in 0..<300 {
            let bytes = Self.mutate(&rng)
            let report = Self.run(bytes)
            if let violation = report.violation {
                Issue.record("iteration \(iteration): \(violation)\n\(String(decoding: bytes, as: UTF8.self))")
                break
            }
            if report.parsed { parsed += 1 } else { failed += 1 }
        }
        #expect(parsed > 30 && failed > 30)                        // both paths exercised
    }

    // MARK: each check can fail

    @Test func brokenErrorListsAreViolations() {
        let good = ScenarioErrors(errors: [ScenarioError(line: 2, message: "bad time")])
        #expect(ScenarioFuzzHarness.check(good, lineCount: 3) == nil)
        #expect(ScenarioFuzzHarness.check(ScenarioErrors(errors: []), lineCount: 3) != nil)
        #expect(ScenarioFuzzHarness.check(good, lineCount: 1) != nil)
        let twice = ScenarioErrors(errors: [ScenarioError(line: 2, message: "a"), ScenarioError(line: 2, message: "b")])
        #expect(ScenarioFuzzHarness.check(twice, lineCount: 3) != nil)
        let raw = ScenarioErrors(errors: [ScenarioError(line: 1, message: "unknown input '\u{1B}[2J'")])
        #expect(ScenarioFuzzHarness.check(raw, lineCount: 1) != nil)
        let long = ScenarioErrors(errors: [ScenarioError(line: 1, message: String(repeating: "x", count: ScenarioFuzzHarness.maximumMessageBytes + 1))])
        #expect(ScenarioFuzzHarness.check(long, lineCount: 1) != nil)
    }

    @Test func brokenScenariosAreViolations() {
        let fix = ScenarioInput.touch
        var s = Scenario(events: [ScenarioEvent(timeNanoseconds: 2, line: 2, input: fix),
                                  ScenarioEvent(timeNanoseconds: 1, line: 3, input: fix)], endNanoseconds: 9, hasEndLine: true)
        #expect(ScenarioFuzzHarness.check(s) != nil)                   // time goes back
        s.events[1].timeNanoseconds = 3
        #expect(ScenarioFuzzHarness.check(s) == nil)
        s.endNanoseconds = 2
        #expect(ScenarioFuzzHarness.check(s) != nil)                   // ends before its last input
        s.endNanoseconds = 9
        s.configuration.maximumZoom = -1
        #expect(ScenarioFuzzHarness.check(s) != nil)
    }

    @Test func statesOutsideTheirRangesAreViolations() throws {
        var runner = try ScenarioRunner(scenario: Scenario())
        var out = OutputBuffer(capacity: 1 << 16)
        _ = runner.run(into: &out)
        let configuration = runner.core.configuration
        let camera = runner.core.camera, puck = runner.core.puck
        #expect(ScenarioFuzzRun.check(camera, configuration) == nil)
        #expect(ScenarioFuzzRun.check(puck) == nil)
        var c = camera
        c.bearingDegrees = 360
        #expect(ScenarioFuzzRun.check(c, configuration) != nil)
        c = camera
        c.zoom = configuration.maximumZoom + 0.01
        #expect(ScenarioFuzzRun.check(c, configuration) != nil)
        c = camera
        c.center.longitudeDegrees = .nan
        #expect(ScenarioFuzzRun.check(c, configuration) != nil)
        var p = puck
        p.pulsePhase = 1
        #expect(ScenarioFuzzRun.check(p) != nil)
        p = puck
        p.hasLocation = true
        p.horizontalAccuracyMeters = .infinity
        #expect(ScenarioFuzzRun.check(p) != nil)
        p = puck
        p.headingFanWidthDegrees = 20
        #expect(ScenarioFuzzRun.check(p) != nil)
    }

    @Test func partialOrForeignOutputLinesAreViolations() {
        var run = ScenarioFuzzRun()
        func record(_ text: String) -> String? { Array(text.utf8).withUnsafeBytes { run.record($0) } }
        #expect(record("{\"t\":0}\n{\"t\":1}\n") == nil)
        #expect(record("{\"t\":0}\n{\"t\"") != nil)
        #expect(record("nan\n") != nil)
        #expect(record("{\"t\":0,\u{7}}\n") != nil)
    }
}
