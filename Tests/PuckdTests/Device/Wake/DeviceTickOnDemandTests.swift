import Hardware
@testable import Simulation
import Testing
import TestSupport
@testable import Puckd

/// Ticks on demand in the router (`DeviceSetup.ticksOnDemand`, docs/power.md §2): the loop woken
/// where its own timer is armed (a synthetic clock that jumps to `scheduler.armedWakeNanoseconds`, as
/// poll() would return) ticks far less often than at the steady 60 Hz, still sees every fix, IMU
/// sample and LED edge, and allocates nothing.
@Suite(.serialized) struct DeviceTickOnDemandTests {
    /// Steps `h` for `nanoseconds`, each wake-up at the time its timer was armed for (at most 1 s later).
    static func runOnItsTimer(_ h: SimulatedDeviceHarness, nanoseconds: Int64) -> Int {
        let ready = timerAndGPS                  // an option-set literal in the loop would allocate in debug
        let end = h.now + nanoseconds
        var wakeUps = 0
        while h.now < end {
            let armed = h.device.scheduler.armedWakeNanoseconds
            h.now = min(max(armed, h.now + 1), h.now + 1_000_000_000)
            _ = h.device.step(gps: &h.source, nowNanoseconds: h.now, ready: ready)
            wakeUps += 1
        }
        return wakeUps
    }

    static let timerAndGPS: DeviceReadiness = [.timer, .gps]

    static func harness(onDemand: Bool) throws -> SimulatedDeviceHarness {
        try SimulatedDeviceHarness(overrides: ["gpio.led_heartbeat=26"], setupChanges: { $0.ticksOnDemand = onDemand })
    }

    @Test func onDemandTicksLessAndMissesNoInput() throws {
        var figures: [(ticks: UInt64, fixes: UInt64, imu: UInt64, leds: UInt64, wakeUps: Int)] = []
        for onDemand in [false, true] {
            let h = try Self.harness(onDemand: onDemand)
            defer { h.removeDirectory() }
            _ = Self.runOnItsTimer(h, nanoseconds: 5_000_000_000)            // start-up, first fixes
            let c0 = h.device.counters
            let wakeUps = Self.runOnItsTimer(h, nanoseconds: 30_000_000_000)
            let c = h.device.counters
            figures.append((c.ticks - c0.ticks, c.fixes - c0.fixes, c.imuSamples - c0.imuSamples, c.ledWrites - c0.ledWrites,
                            wakeUps))
            #expect(h.device.core.puck.hasLocation)
        }
        let (full, lazy) = (figures[0], figures[1])
        #expect(full.ticks >= 1790, "the steady tick: \(full.ticks) in 30 s")
        #expect(lazy.ticks * 2 < full.ticks, "on demand: \(lazy.ticks) ticks against \(full.ticks)")
        #expect(lazy.fixes >= full.fixes - 2 && lazy.fixes >= 200, "fixes \(lazy.fixes) against \(full.fixes)")
        #expect(lazy.imu >= full.imu - 20, "IMU samples \(lazy.imu) against \(full.imu)")
        // The heartbeat LED's double beat: 4 edges a second, each written once, in both modes.
        #expect(lazy.leds >= 115 && full.leds >= 115, "LED writes \(lazy.leds) on demand, \(full.leds) at full rate")
    }

    @Test func onDemandWakeUpsAllocateNothing() throws {
        let h = try Self.harness(onDemand: true)
        defer { h.removeDirectory() }
        _ = Self.runOnItsTimer(h, nanoseconds: 20_000_000_000)
        let c0 = h.device.counters
        let allocations = allocationCount { _ = Self.runOnItsTimer(h, nanoseconds: 30_000_000_000) }
        let c = h.device.counters
        #expect(allocations == 0)
        #expect(c.ticks > c0.ticks && c.fixes - c0.fixes >= 200 && c.imuSamples - c0.imuSamples > 2500)
    }

    /// Without the IMU nothing wakes the loop on a period: each part's own deadline must (the simulated
    /// board's epochs and PPS edges, the button's debounce decision, the status line, the state write).
    /// The loop wakes where its timer is armed, with every descriptor ready, and is never late for one
    /// (the status line, the state write and the PPS pulse's fall: never more than the timer slack).
    @Test func withoutTheIMUEachDeadlineWakesTheLoop() throws {
        let h = try SimulatedDeviceHarness(overrides: ["sim.imu=none", "console.status_interval_s=1"],
                                           setupChanges: { $0.ticksOnDemand = true })
        defer { h.removeDirectory() }
        var wakes: [Int64] = []
        wakes.reserveCapacity(4000)
        var late: [String] = []
        func run(_ nanoseconds: Int64) {
            let end = h.now + nanoseconds
            while h.now < end {
                let d = h.device
                // The status line, the state write and the PPS pulse's fall may come up to the timer slack late.
                let slack = WakeScheduler.slackNanoseconds
                let due = min(min(h.board.promptDeadlineNanoseconds, d.controls.deadlineNanoseconds ?? .max),
                              min(min(d.nextStatusNanoseconds, d.persistence.deadlineNanoseconds ?? .max),
                                  h.board.ppsFallNanoseconds == .max ? .max : h.board.ppsFallNanoseconds) + slack)
                h.now = min(max(d.scheduler.armedWakeNanoseconds, h.now + 1), h.now + 1_000_000_000)
                if h.now > due && !wakes.isEmpty {      // the first step opens the source and arms the timer
                    late.append("woke at \(h.now - start) for \(due - start): board \(h.board.promptDeadlineNanoseconds - start), "
                        + "buttons \(d.controls.deadlineNanoseconds.map { $0 - start } ?? -1), status \(d.nextStatusNanoseconds - start)")
                }
                _ = d.step(gps: &h.source, nowNanoseconds: h.now, ready: .all)
                wakes.append(h.now)
            }
        }
        let start = h.now
        run(5_000_000_000)
        let lines0 = h.output.split(separator: "\n").filter { $0.hasPrefix("status ") }.count
        let pressedAt = h.now
        #expect(h.board.press(.primary, long: false, longPressNanoseconds: 1_000_000_000, nowNanoseconds: pressedAt))
        h.now += 1                                   // the line's edge wakes poll() (its descriptor is readable)
        _ = h.device.step(gps: &h.source, nowNanoseconds: h.now, ready: .all)
        run(10_000_000_000)
        #expect(late.isEmpty, "wake-ups after a deadline had passed (of \(wakes.count)): \(late)")
        let decision = pressedAt + SimulatedBoard.shortPressNanoseconds + h.device.configuration.gpio.timing.debounceNanoseconds
        #expect(h.device.controls.shortPresses == 1)
        #expect(wakes.contains(decision), "a wake-up at the release's debounce decision")
        let lines = h.output.split(separator: "\n").filter { $0.hasPrefix("status ") }.count - lines0
        #expect(lines >= 9 && lines <= 11, "status lines in 10 s: \(lines)")
    }
}
