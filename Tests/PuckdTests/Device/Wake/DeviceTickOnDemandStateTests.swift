import Hardware
@testable import Simulation
import Testing
import TestSupport
import Tracking
@testable import Puckd

/// Ticks on demand show what the steady tick shows (docs/power.md §2.1): the same drive through two
/// routers, one ticking at the steady 60 Hz and one on demand, in lockstep (each woken whenever either's
/// timer is due, so every fix and IMU burst reaches both cores at the same time). At every steady
/// tick the on-demand core (ticked there on a copy when it did not tick itself: the core's state is a
/// function of its inputs and the tick's time) has the same camera and puck, bit for bit except the
/// puck's bearing while it turns (within 1°) and its on-screen rotation (within 2°), and a skipped
/// tick would have said nothing (no event beyond a location update).
@Suite(.serialized) struct DeviceTickOnDemandStateTests {
    static let timerAndGPS: DeviceReadiness = [.timer, .gps]

    @Test(arguments: ["follow", "none"])
    func onDemandShowsTheSteadyTicksPuckAndCamera(_ mode: String) throws {
        let overrides = ["gpio.led_heartbeat=26", "tracking.mode=" + mode]
        let steady = try SimulatedDeviceHarness(overrides: overrides, setupChanges: { $0.ticksOnDemand = false })
        let lazy = try SimulatedDeviceHarness(overrides: overrides, startNanoseconds: steady.now,
                                              setupChanges: { $0.ticksOnDemand = true })
        defer { steady.removeDirectory(); lazy.removeDirectory() }
        let start = steady.now
        let ready = Self.timerAndGPS
        var elapsed: Int64 = 0
        var compared = 0, lazyTicked = 0, moved = 0
        var problems: [String] = []
        var bearingDifference = 0.0, screenDifference = 0.0
        var lastCoordinate = steady.device.core.puck.coordinate
        while elapsed < 25_000_000_000 && problems.count < 4 {
            let next = min(steady.device.scheduler.armedWakeNanoseconds, lazy.device.scheduler.armedWakeNanoseconds) - start
            elapsed = min(max(next, elapsed + 1), elapsed + 1_000_000_000)
            steady.now = start + elapsed
            lazy.now = start + elapsed
            let (ticks, lazyTicks) = (steady.device.scheduler.ticks, lazy.device.scheduler.ticks)
            _ = steady.device.step(gps: &steady.source, nowNanoseconds: steady.now, ready: ready)
            _ = lazy.device.step(gps: &lazy.source, nowNanoseconds: lazy.now, ready: ready)
            guard steady.device.scheduler.ticks > ticks, elapsed > 3_000_000_000 else { continue }
            let shown = steady.device.core
            var probe = lazy.device.core
            if lazy.device.scheduler.ticks > lazyTicks {
                lazyTicked += 1
            } else {
                probe.tick(atNanoseconds: lazy.now)
                while let timed = probe.popEvent() {
                    if case .didUpdateUserLocation = timed.event { continue }
                    problems.append("\(elapsed) ns: a skipped tick would have said \(timed.event)")
                }
            }
            compared += 1
            if shown.puck.coordinate != lastCoordinate { moved += 1; lastCoordinate = shown.puck.coordinate }
            // The bearing's turn starts at the tick that selects it (a period later on demand at most),
            // and the on-screen rotation is redrawn only past 0.57° (`headingRedrawThresholdRadians`)
            // at a tick, so which ticks ran decides when: both may differ a little while a turn runs
            // (measured up to 0.17° and 1.0°). Everything else is bit for bit.
            var puck = probe.puck
            bearingDifference = max(bearingDifference, Self.difference(puck.bearingDegrees, shown.puck.bearingDegrees))
            screenDifference = max(screenDifference, Self.difference(puck.bearingOnScreenDegrees, shown.puck.bearingOnScreenDegrees))
            puck.bearingDegrees = shown.puck.bearingDegrees
            puck.bearingOnScreenDegrees = shown.puck.bearingOnScreenDegrees
            if puck != shown.puck { problems.append("\(elapsed) ns: puck \(probe.puck) on demand, \(shown.puck) at 60 Hz") }
            if probe.camera != shown.camera {
                problems.append("\(elapsed) ns: camera \(probe.camera) on demand, \(shown.camera) at 60 Hz")
            }
        }
        print("on demand vs 60 Hz, mode \(mode): \(compared) ticks compared, puck bearing up to \(bearingDifference)°, "
              + "on screen up to \(screenDifference)°")
        #expect(bearingDifference <= 1 && screenDifference <= 2, "bearing \(bearingDifference)°, on screen \(screenDifference)°")
        #expect(problems.isEmpty, "\(problems)")
        #expect(compared > 1000 && moved > 150, "compared \(compared) steady ticks, the puck moved at \(moved)")
        #expect(lazyTicked * 2 < compared, "the on-demand router ticked at \(lazyTicked) of \(compared)")
        #expect(lazy.device.counters.fixes == steady.device.counters.fixes)
        #expect(lazy.device.counters.imuSamples == steady.device.counters.imuSamples)
    }

    /// |a − b| the short way round, degrees; 360 when one is nil and the other not.
    static func difference(_ a: Double?, _ b: Double?) -> Double {
        guard let a, let b else { return a == nil && b == nil ? 0 : 360 }
        return abs((a - b + 540).truncatingRemainder(dividingBy: 360) - 180)
    }
}
