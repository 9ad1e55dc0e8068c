import Console
import TestSupport
import Testing
import Tracking
@testable import TrackingScenario

/// `ScenarioRunner`: tick times, the order of input, event and tick lines, determinism and allocation-free
/// ticks (docs/scenarios.md).
@Suite struct ScenarioRunnerTests {
    static let small = """
        view 800 480
        0 camera 52.52 13.405 zoom=16
        0 fix 52.52 13.405 acc=5
        0.25 camera zoom=14
        0.5 end
        """

    /// The output lines of `text` run at `hertz`.
    func lines(_ text: String, hertz: Int) throws -> [String] {
        let bytes = try #require(GoldenScenarioTests.output(of: Array(text.utf8), hertz: hertz))
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func inputsComeBeforeTheTickAtOrAfterTheirTime() throws {
        let out = try lines(Self.small, hertz: 10)
        let ticks = out.filter { $0.contains("\"camera\":") }
        #expect(ticks.count == 6)                                    // 0, 0.1, …, 0.5 (the end is inclusive)
        #expect(ticks.first?.hasPrefix("{\"t\":0.0000,") == true && ticks.last?.hasPrefix("{\"t\":0.5000,") == true)
        // The input of line 4 (at 0.25 s) sits between the ticks of 0.2 and 0.3 s, with its own time.
        let input = try #require(out.firstIndex(of: "{\"t\":0.2500,\"event\":\"input\",\"line\":4}"))
        #expect(out[input - 1].hasPrefix("{\"t\":0.2000,\"camera\":{") && out[input - 1].contains("\"zoom\":16.0000"))
        let next = try #require(out[(input + 1)...].first { $0.contains("\"camera\":") })
        #expect(next.hasPrefix("{\"t\":0.3000,\"camera\":{") && next.contains("\"zoom\":14.0000"))
        #expect(out[(input + 1)...].prefix { !$0.contains("\"camera\":") }.allSatisfy { $0.hasPrefix("{\"t\":0.2500,\"event\":") })
        // Line 2 and 3 come before the first tick, each followed by what the core said about it.
        #expect(out[0] == "{\"t\":0.0000,\"event\":\"input\",\"line\":2}")
        #expect(out.firstIndex(of: "{\"t\":0.0000,\"event\":\"input\",\"line\":3}")! < out.firstIndex(of: ticks[0])!)
        #expect(out.contains("{\"t\":0.0000,\"event\":\"didUpdateUserLocation\"}"))
    }

    @Test func theRateSetsTheTicksNotTheRun() throws {
        let slow = try lines(Self.small, hertz: 10).filter { $0.contains("\"camera\":") }
        let fast = try lines(Self.small, hertz: 60).filter { $0.contains("\"camera\":") }
        #expect(fast.count == 31)
        // The tick at 0.5 s is the same at either rate (the camera jumped; nothing animates).
        #expect(slow.last == fast.last)
        // A tick at t = k/hz exactly: 1/3 s at 60 Hz is tick 20.
        #expect(fast[20].hasPrefix("{\"t\":0.3333,"))
    }

    @Test func equalRunsGiveEqualBytes() throws {
        let text = try #require(Fixtures.bytes("tracking/r10.9-default-transition-zooming-out.scenario"))
        let a = try #require(GoldenScenarioTests.output(of: text, hertz: 60))
        let b = try #require(GoldenScenarioTests.output(of: text, hertz: 60))
        #expect(a == b && a.count > 10_000)
    }

    @Test func theRunStopsWhenTheBufferIsNearlyFullAndGoesOn() throws {
        guard case .success(let scenario) = ScenarioParser.parse(Self.small) else { Issue.record("parse"); return }
        var runner = try ScenarioRunner(scenario: scenario, ticksPerSecond: 1000)
        var out = OutputBuffer(capacity: ScenarioRunner.reserveBytes + 2048)
        var rounds = 0
        var total = 0
        while runner.run(into: &out) {
            let overflowed = out.overflowed
            #expect(!overflowed)
            total += out.count
            out.removeAll()
            rounds += 1
        }
        total += out.count
        #expect(rounds > 10 && runner.isFinished && runner.tickCount == 501)
        #expect(total == GoldenScenarioTests.output(of: Array(Self.small.utf8), hertz: 1000)?.count)
    }

    /// Ticks and their lines allocate nothing: a run ten times as long (same inputs) allocates the same.
    @Test func ticksAllocateNothing() throws {
        func allocations(endSeconds: Int) throws -> UInt64 {
            let text = """
                view 800 480
                0 camera 52.52 13.405 zoom=16
                0 fix 52.52 13.405 acc=5 speed=10 course=90
                0 mode followWithCourse
                1 fix 52.52 13.4051476 acc=5 speed=10 course=95
                1.5 viewport follow bearing=course
                \(endSeconds) end
                """
            guard case .success(let scenario) = ScenarioParser.parse(text) else { return .max }
            var out = OutputBuffer(capacity: 1 << 16)
            var runner = try ScenarioRunner(scenario: scenario, ticksPerSecond: 60)
            return allocationCount {
                while runner.run(into: &out) { out.removeAll() }
                out.removeAll()
            }
        }
        _ = try allocations(endSeconds: 3)                          // warm up
        let short = try allocations(endSeconds: 3)
        let long = try allocations(endSeconds: 30)
        #expect(short == long, "\(short) allocations for 3 s, \(long) for 30 s")
    }
}
