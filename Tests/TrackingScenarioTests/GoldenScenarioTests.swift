import Console
import TestSupport
import Testing
import TrackingScenario
#if canImport(Glibc)
import Glibc
#endif

/// The golden scenarios of Tests/Fixtures/tracking (README there): every `NAME.scenario` run at 10 Hz
/// gives exactly the bytes of `NAME.expected.jsonl` (`make goldens` regenerates them for review), and
/// every numbered rule of docs/tracking.md and every place the core once disagreed with the SDKs' source (SDKSourceMatchTests) has one.
@Suite struct GoldenScenarioTests {
    static let folder = "tracking"
    /// The rate the expected outputs were written at (`puckd scenario FILE --hz 10`).
    static let hertz = 10

    /// What `puckd scenario` prints for `bytes` (nil: the scenario does not parse or run).
    static func output(of bytes: [UInt8], hertz: Int = hertz) -> [UInt8]? {
        guard case .success(let scenario) = ScenarioParser.parse(bytes),
              var runner = try? ScenarioRunner(scenario: scenario, ticksPerSecond: hertz) else { return nil }
        var out = OutputBuffer(capacity: 1 << 16)
        var all: [UInt8] = []
        var more = true
        while more {
            more = runner.run(into: &out)
            out.withBytes { all.append(contentsOf: $0) }
            out.removeAll()
        }
        return all
    }

    /// "line N differs: …" for the first line where `actual` and `expected` part, nil when equal.
    static func difference(_ actual: [UInt8], _ expected: [UInt8]) -> String? {
        if actual == expected { return nil }
        let a = actual.split(separator: 0x0A, omittingEmptySubsequences: false)
        let e = expected.split(separator: 0x0A, omittingEmptySubsequences: false)
        var i = 0
        while i < min(a.count, e.count) && a[i] == e[i] { i += 1 }
        let got = i < a.count ? String(decoding: a[i], as: UTF8.self) : "(end of output)"
        let want = i < e.count ? String(decoding: e[i], as: UTF8.self) : "(end of expected output)"
        return "line \(i + 1) differs:\n  got      \(got)\n  expected \(want)"
    }

    static var scenarios: [String] { Fixtures.files(in: folder, suffix: ".scenario") }

    @Test func thereAreGoldenScenarios() {
        #expect(Self.scenarios.count >= 90)
    }

    @Test(arguments: GoldenScenarioTests.scenarios) func givesItsExpectedOutput(_ name: String) throws {
        let input = try #require(Fixtures.bytes(Self.folder + "/" + name))
        let stem = String(name.dropLast(".scenario".count))
        let expected = try #require(Fixtures.bytes(Self.folder + "/" + stem + ".expected.jsonl"),
                                    "\(stem).expected.jsonl is missing: run make goldens")
        let actual = try #require(Self.output(of: input), "\(name) does not parse")
        let difference = Self.difference(actual, expected)
        #expect(difference == nil, "\(name): \(difference ?? "") (make goldens regenerates; review the diff)")
    }

    @Test func everyExpectedOutputHasItsScenario() {
        let scenarios = Set(Self.scenarios.map { $0.dropLast(".scenario".count) })
        for name in Fixtures.files(in: Self.folder, suffix: ".expected.jsonl") {
            #expect(scenarios.contains(name.dropLast(".expected.jsonl".count)), "\(name) has no scenario")
        }
    }

    /// Rule ids of docs/tracking.md: every `### N.M` heading, and every `## N` without sub-rules that has
    /// text of its own (§6); §0 (sources), §14 (the table) and §15 (choices) are not rules.
    static func ruleIds() -> [String] {
        let path = Fixtures.directory + "/../../docs/tracking.md"
        let lines = String(decoding: Fixtures.readFile(path) ?? [], as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false)
        var ids: [String] = []
        var i = 0
        while i < lines.count {
            let line = lines[i]
            let id = String(line.drop(while: { $0 == "#" }).dropFirst().prefix(while: { $0 != " " }))
            if line.hasPrefix("### "), id.contains("."), id.first?.isNumber == true { ids.append(id) }
            if line.hasPrefix("## "), let n = Int(id), n >= 1, n <= 13 {
                var j = i + 1
                var hasText = false
                while j < lines.count && !lines[j].hasPrefix("#") {
                    if !lines[j].isEmpty { hasText = true }
                    j += 1
                }
                if hasText { ids.append(id) }
            }
            i += 1
        }
        return ids
    }

    @Test func everyRuleHasAGoldenScenario() {
        let ids = Self.ruleIds()
        #expect(ids.count >= 80, "docs/tracking.md not found or not parsed")
        let names = Self.scenarios
        for id in ids {
            #expect(names.contains { $0.hasPrefix("r\(id)-") }, "rule \(id) has no golden scenario r\(id)-….scenario")
        }
        // And no scenario names a rule that does not exist.
        for name in names where name.hasPrefix("r") {
            let id = String(name.dropFirst().prefix(while: { $0 != "-" }))
            #expect(ids.contains(id), "\(name) names rule \(id), which docs/tracking.md does not have")
        }
    }

    @Test func everyMismatchOfIssue16HasAGoldenScenario() {
        for n in 1...9 {
            #expect(Self.scenarios.contains { $0.hasPrefix("m\(n)-") }, "mismatch \(n) has no scenario m\(n)-….scenario")
        }
    }
}
