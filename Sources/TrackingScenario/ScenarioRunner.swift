import Console
import Tracking

/// Runs a `Scenario` on a fresh `TrackingCore` and writes its JSON lines (`ScenarioOutput`).
///
/// The core starts with the scenario's configuration, showsUserLocation on and tracking mode `none`
/// (the SDKs' default). Ticks run at `ticksPerSecond` (60) at times k/ticksPerSecond s from 0 to the
/// end. Before each tick, the inputs due by then are applied at their own times, in file order; after
/// each input and each tick the core's events are written, then the tick line. Pure and
/// deterministic: the same scenario gives the same bytes. Usage:
/// ```
/// var runner = try ScenarioRunner(scenario: s, ticksPerSecond: 60)
/// while runner.run(into: &out) { flush(out) }   // then flush what is left
/// ```
public struct ScenarioRunner {
    /// The core (read it after the run for checks).
    public private(set) var core: TrackingCore
    /// Ticks per second of scenario time (1...1000).
    public let ticksPerSecond: Int
    /// Ticks written so far.
    public private(set) var tickCount: Int64 = 0
    /// True once the end was reached.
    public private(set) var isFinished = false

    private let scenario: Scenario
    private var nextEvent = 0

    /// Most ticks per second accepted.
    public static let maximumTicksPerSecond = 1000
    /// `run` returns when fewer bytes than this are free in the buffer.
    public static let reserveBytes = 8192

    /// A runner for `scenario` (throws when its configuration is out of range).
    public init(scenario: Scenario, ticksPerSecond: Int = 60) throws(TrackingConfigurationError) {
        self.scenario = scenario
        self.ticksPerSecond = min(max(ticksPerSecond, 1), Self.maximumTicksPerSecond)
        core = try TrackingCore(configuration: scenario.configuration)
        core.setShowsUserLocation(true, atNanoseconds: 0)
    }

    /// Time of tick `k`, nanoseconds.
    public func tickTime(_ k: Int64) -> Int64 { k * 1_000_000_000 / Int64(ticksPerSecond) }

    /// Writes lines until the run ends (returns false) or `out` has less than `reserveBytes` free
    /// (returns true: flush `out` and call again).
    public mutating func run(into out: inout OutputBuffer) -> Bool {
        while !isFinished {
            if out.capacity - out.count < Self.reserveBytes { return true }
            let t = tickTime(tickCount)
            let due = min(t, scenario.endNanoseconds)
            if nextEvent < scenario.events.count && scenario.events[nextEvent].timeNanoseconds <= due {
                let event = scenario.events[nextEvent]
                nextEvent += 1
                ScenarioOutput.appendInput(timeNanoseconds: event.timeNanoseconds, line: event.line, to: &out)
                ScenarioInputApplier.apply(event.input, to: &core, at: event.timeNanoseconds)
                drainEvents(to: &out)
                continue
            }
            if t > scenario.endNanoseconds {
                isFinished = true
                break
            }
            core.tick(atNanoseconds: t)
            drainEvents(to: &out)
            ScenarioOutput.appendTick(camera: core.camera, puck: core.puck, to: &out)
            tickCount += 1
        }
        return false
    }

    private mutating func drainEvents(to out: inout OutputBuffer) {
        while let e = core.popEvent() { ScenarioOutput.appendEvent(e, to: &out) }
    }
}
