import TestSupport
import Testing
import Tracking
import TrackingScenario

/// Ticks on demand (docs/power.md): a core ticked only after an input, while `animates`, and at
/// `nextChangeNanoseconds` gives, on every golden scenario, the same events at the same times as one
/// ticked at the full rate, and at every skipped tick of the full-rate grid a tick taken there (on a
/// copy of the core) gives exactly the full-rate puck and camera and no event.
@Suite struct OnDemandTickTests {
    /// The display rate of the device's default configuration (`[tracking] tick_hz`).
    static let hertz: Int64 = 60

    struct Comparison {
        var ticks = 0
        var skipped = 0
        var problems: [String] = []
    }

    /// Runs `scenario` at the full rate and on demand side by side on the same grid.
    static func compare(_ scenario: Scenario, name: String) throws -> Comparison {
        var full = try TrackingCore(configuration: scenario.configuration)
        var lazy = full
        full.setShowsUserLocation(true, atNanoseconds: 0)
        lazy.setShowsUserLocation(true, atNanoseconds: 0)
        var fullEvents: [TimedTrackingEvent] = [], lazyEvents: [TimedTrackingEvent] = []
        func drain(_ core: inout TrackingCore, into events: inout [TimedTrackingEvent]) {
            while let e = core.popEvent() { events.append(e) }
        }
        drain(&full, into: &fullEvents)
        drain(&lazy, into: &lazyEvents)
        var result = Comparison()
        var next = 0
        var inputSinceTick = true
        var k: Int64 = 0
        while true {
            let t = k * 1_000_000_000 / hertz
            if t > scenario.endNanoseconds { break }
            while next < scenario.events.count && scenario.events[next].timeNanoseconds <= t {
                let event = scenario.events[next]
                next += 1
                ScenarioInputApplier.apply(event.input, to: &full, at: event.timeNanoseconds)
                ScenarioInputApplier.apply(event.input, to: &lazy, at: event.timeNanoseconds)
                drain(&full, into: &fullEvents)
                drain(&lazy, into: &lazyEvents)
                inputSinceTick = true
            }
            full.tick(atNanoseconds: t)
            drain(&full, into: &fullEvents)
            result.ticks += 1
            let due = lazy.nextChangeNanoseconds.map { $0 <= t } ?? false
            if inputSinceTick || lazy.animates || due {
                lazy.tick(atNanoseconds: t)
                drain(&lazy, into: &lazyEvents)
                inputSinceTick = false
                if lazy.camera != full.camera || lazy.puck != full.puck {
                    result.problems.append("\(name): tick at \(t) ns differs from the full rate's")
                }
            } else {
                result.skipped += 1
                var probe = lazy
                probe.tick(atNanoseconds: t)
                var probeEvents: [TimedTrackingEvent] = []
                drain(&probe, into: &probeEvents)
                if !probeEvents.isEmpty {
                    result.problems.append("\(name): a skipped tick at \(t) ns would have said \(probeEvents)")
                }
                if probe.camera != full.camera {
                    result.problems.append("\(name): camera at a skipped tick \(t) ns differs: \(probe.camera) vs \(full.camera)")
                }
                if probe.puck != full.puck {
                    result.problems.append("\(name): puck at a skipped tick \(t) ns differs: \(probe.puck) vs \(full.puck)")
                }
            }
            if result.problems.count > 3 { break }
            k += 1
        }
        if fullEvents != lazyEvents {
            let i = zip(fullEvents, lazyEvents).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(fullEvents.count, lazyEvents.count)
            result.problems.append("\(name): events differ from #\(i): full \(fullEvents.dropFirst(i).prefix(2)), "
                + "on demand \(lazyEvents.dropFirst(i).prefix(2))")
        }
        return result
    }

    static func scenario(_ name: String) throws -> Scenario {
        let bytes = try #require(Fixtures.bytes(GoldenScenarioTests.folder + "/" + name))
        guard case .success(let scenario) = ScenarioParser.parse(bytes) else {
            Issue.record("\(name) does not parse")
            throw ScenarioMissing()
        }
        return scenario
    }
    struct ScenarioMissing: Error {}

    @Test(arguments: GoldenScenarioTests.scenarios) func onDemandTicksGiveTheFullRateOutput(_ name: String) throws {
        let result = try Self.compare(try Self.scenario(name), name: name)
        #expect(result.problems.isEmpty, "\(result.problems.joined(separator: "\n"))")
    }

    /// The policy skips ticks at all: the golden scenarios are short and busy (an input or an animation
    /// in most of their seconds), yet about half of their 60 Hz ticks have nothing to do (12 679 of 24 282
    /// when written); a core that said it always animates would pass the equality above and fail here.
    @Test func mostTicksOfTheScenarioSetAreSkipped() throws {
        var ticks = 0, skipped = 0
        for name in GoldenScenarioTests.scenarios {
            let result = try Self.compare(try Self.scenario(name), name: name)
            ticks += result.ticks
            skipped += result.skipped
        }
        #expect(ticks > 0 && skipped * 5 > ticks * 2, "\(skipped) of \(ticks) ticks skipped")
    }

    /// A still puck: after its glide to the first fix the core neither animates nor has a change
    /// pending until the stale deadline (30 s after the fix).
    @Test func aStillPuckWaitsForTheStaleDeadline() throws {
        guard case .success(let scenario) = ScenarioParser.parse(Array("view 800 480\n1 fix 52.52 13.405 acc=5\n40 end\n".utf8)) else {
            Issue.record("the scenario does not parse")
            return
        }
        var core = try TrackingCore(configuration: scenario.configuration)
        core.setShowsUserLocation(true, atNanoseconds: 0)
        core.tick(atNanoseconds: 0)
        #expect(!core.animates)
        ScenarioInputApplier.apply(scenario.events[0].input, to: &core, at: 1_000_000_000)
        core.tick(atNanoseconds: 1_000_000_000)
        core.tick(atNanoseconds: 5_000_000_000)
        #expect(!core.animates)
        #expect(core.nextChangeNanoseconds == 1_000_000_000 + Int64(scenario.configuration.staleTimeoutSeconds * 1e9))
        core.tick(atNanoseconds: 31_000_000_000)
        #expect(core.puck.isStale && core.nextChangeNanoseconds == nil)
    }
}
