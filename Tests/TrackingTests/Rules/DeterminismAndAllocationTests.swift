import Testing
import TestSupport
@testable import Tracking

/// The core's two global rules: bit-identical outputs for the same inputs, and no heap allocation
/// after `init` in `tick` and every input function.
struct DeterminismAndAllocationTests {
    /// Runs the scenario for `ticks` ticks and records every output field and event.
    func record(ticks: Int) -> (bits: [UInt64], events: [TimedTrackingEvent], core: TrackingCore) {
        var core = try! TrackingCore(configuration: TrackingScenario.configuration())
        var bits: [UInt64] = []
        bits.reserveCapacity(ticks * 40)
        var events: [TimedTrackingEvent] = []
        for i in 0..<ticks {
            TrackingScenario.step(&core, tick: i)
            appendBits(&bits, core.puck, core.camera)
            while let e = core.popEvent() { events.append(e) }
        }
        return (bits, events, core)
    }

    @Test func sameScriptGivesBitIdenticalOutputs() {
        let a = record(ticks: 2 * TrackingScenario.ticksPerCycle)
        let b = record(ticks: 2 * TrackingScenario.ticksPerCycle)
        #expect(a.bits.count == b.bits.count && a.bits.count > 0)
        #expect(a.bits == b.bits)
        #expect(a.events == b.events)
        #expect(a.core.events.overflowCount == 0)
    }

    @Test func scenarioReachesEveryModeStateTransitionAndAuthorization() {
        let run = record(ticks: TrackingScenario.ticksPerCycle)
        var modes = Set<UInt8>()
        var statuses = Set<String>()
        var authorizations = Set<String>()
        var styles = Set<UInt8>()
        var indicators = Set<UInt8>()
        for e in run.events {
            switch e.event {
            case .didChangeTrackingMode(let m, _): modes.insert(m.rawValue)
            case .didChangeViewportStatus(let s, _): statuses.insert("\(s)")
            case .didChangeAuthorization(let s, let a): authorizations.insert("\(s) \(a)")
            default: break
            }
        }
        // Replay once more to look at the puck styles reached.
        var core = try! TrackingCore(configuration: TrackingScenario.configuration())
        for i in 0..<TrackingScenario.ticksPerCycle {
            TrackingScenario.step(&core, tick: i)
            styles.insert(core.puck.style.rawValue)
            indicators.insert(core.puck.headingIndicator.rawValue)
        }
        #expect(modes == Set(TrackingMode.allCases.map(\.rawValue)))
        let wanted: Set<String> = ["\(ViewportStatus.idle)", "\(ViewportStatus.state(.followPuck))",
                                   "\(ViewportStatus.state(.overview))",
                                   "\(ViewportStatus.transition(.default, to: .followPuck))",
                                   "\(ViewportStatus.transition(.default, to: .overview))"]
        #expect(wanted.isSubset(of: statuses), "\(statuses)")
        #expect(authorizations.contains("authorized reduced") && authorizations.contains("authorized full")
                && authorizations.contains("denied full"))
        #expect(styles == [PuckStyle.dot.rawValue, PuckStyle.course.rawValue, PuckStyle.approximate.rawValue])
        #expect(indicators == [HeadingIndicator.none.rawValue, HeadingIndicator.fan.rawValue, HeadingIndicator.arrow.rawValue])
        let kinds = Set(run.events.map { "\($0.event)".prefix(12) })
        #expect(kinds.count >= 8)
    }

    @Test func tickAndEveryInputAllocateNothing() {
        var core = try! TrackingCore(configuration: TrackingScenario.configuration())
        // Warm-up: one full cycle fills every lazily initialised runtime cache.
        for i in 0..<TrackingScenario.ticksPerCycle {
            TrackingScenario.step(&core, tick: i)
            while core.popEvent() != nil {}
        }
        let start = TrackingScenario.ticksPerCycle
        let count = allocationCount {
            var i = start
            while i < start + 100_000 {
                TrackingScenario.step(&core, tick: i)
                while core.popEvent() != nil {}
                i += 1
            }
        }
        let ticked = core.camera.timeNanoseconds
        #expect(count == 0)
        #expect(ticked == TrackingScenario.time(start + 100_000 - 1))
    }
}
