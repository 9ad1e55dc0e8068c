import Console
import Hardware
@testable import Simulation
import Testing
import TestSupport
@testable import Puckd

/// Timer slack (docs/power.md §1.6): with ticks on demand, the deadlines that may be met late (the
/// status line, the state write, the simulated PPS pulse's fall) ride on wake-ups the loop makes
/// anyway, and every wake-up is counted under the reason it was armed for (`stats loop.wake.*`).
@Suite(.serialized) struct DeviceWakeSlackTests {
    struct Run {
        var wakeUps = 0
        /// Wake-ups at the PPS pulse's fall with nothing else due then.
        var fallOnly = 0
        var statusLines = 0
    }

    /// Steps `h` for `nanoseconds`, each wake-up at the time its timer was armed for (as poll() would return).
    static func run(_ h: SimulatedDeviceHarness, nanoseconds: Int64) -> Run {
        var r = Run()
        let lines0 = h.output.split(separator: "\n").filter { $0.hasPrefix("status ") }.count
        let end = h.now + nanoseconds
        while h.now < end {
            let d = h.device
            h.now = min(max(d.scheduler.armedWakeNanoseconds, h.now + 1), h.now + 1_000_000_000)
            if h.now >= h.board.ppsFallNanoseconds && h.now < h.board.promptDeadlineNanoseconds
                && d.scheduler.armedReason == .board { r.fallOnly += 1 }
            _ = d.step(gps: &h.source, nowNanoseconds: h.now, ready: .timer)
            r.wakeUps += 1
        }
        r.statusLines = h.output.split(separator: "\n").filter { $0.hasPrefix("status ") }.count - lines0
        return r
    }

    static func harness(_ overrides: [String]) throws -> SimulatedDeviceHarness {
        try SimulatedDeviceHarness(overrides: ["console.status_interval_s=1", "tracking.mode=none"] + overrides,
                                   setupChanges: { $0.ticksOnDemand = true })
    }

    /// Nothing animating, without the IMU: the status line comes once a second and the PPS pulse falls
    /// once a second, but no wake-up is armed for either (each rides on an epoch's, 100 ms apart), and
    /// the loop wakes no more often than the board's own prompt deadlines (epochs, the pulse's rise)
    /// and the ticks ask. With `slackNanoseconds` 0 (checked): 29 of 357 wake-ups in 30 s are the
    /// status line's and 24 the fall's alone; with the slack 6 (where the drive has a gap) and 0 of 310.
    @Test func statusLineAndPulseFallRideOnEpochs() throws {
        let h = try Self.harness(["sim.imu=none"])
        defer { h.removeDirectory() }
        _ = Self.run(h, nanoseconds: 5_000_000_000)            // start-up, first fixes
        // `puckd run` starts the status line at its own time, not on the board's 100 ms epoch grid.
        h.device.nextStatusNanoseconds += 37_000_000
        let reasons0 = h.device.scheduler.wakeReasons
        let pulses0 = h.board.pps?.pulses ?? 0
        let r = Self.run(h, nanoseconds: 30_000_000_000)
        let reasons = h.device.scheduler.wakeReasons
        let pulses = (h.board.pps?.pulses ?? 0) - pulses0

        #expect(pulses >= 20, "PPS pulses in 30 s: \(pulses)")
        #expect(r.statusLines >= 29 && r.statusLines <= 31, "status lines in 30 s: \(r.statusLines)")
        // Only where the drive has a gap (no epoch within the slack) does the status line wake the loop.
        #expect(reasons[.status] - reasons0[.status] <= 8, "wake-ups armed for the status line: \(reasons[.status] - reasons0[.status])")
        #expect(reasons[.housekeeping] == reasons0[.housekeeping])
        #expect(r.fallOnly == 0, "wake-ups for the PPS pulse's fall alone: \(r.fallOnly)")
        // 295 epochs, 24 pulse rises (the drive has gaps), the quiet-line deadlines; the fix LED is steady.
        #expect(r.wakeUps <= 330, "wake-ups in 30 s: \(r.wakeUps)")
    }

    /// Every wake-up is counted under one reason: the counters sum to the wake-ups, and on the
    /// simulated board with the IMU's bursts riding on the epochs most are the board's.
    @Test func everyWakeUpHasOneReason() throws {
        let h = try Self.harness([])
        defer { h.removeDirectory() }
        let before = h.device.scheduler.wakeReasons
        let r = Self.run(h, nanoseconds: 20_000_000_000)
        let after = h.device.scheduler.wakeReasons
        var sum: UInt64 = 0
        for reason in [WakeReason.imu, .tick, .epoch, .board, .buttons, .status, .housekeeping, .source, .descriptor, .timeout] {
            sum += after[reason] - before[reason]
        }
        #expect(sum == UInt64(r.wakeUps))
        #expect(after[.board] - before[.board] >= 150, "board wake-ups in 20 s: \(after[.board] - before[.board])")
        #expect(after[.imu] - before[.imu] <= 30, "wake-ups armed for an IMU burst in 20 s: \(after[.imu] - before[.imu])")
        // The `stats` table has a row per reason, and room for them.
        var state = ConsoleDeviceState()
        h.device.refreshCounters(&state)
        #expect(state.counters.overflow == 0)
        #expect(state.counters.value("loop.wake.board") == Int64(after[.board]))
        #expect(state.counters.value("loop.wake.timeout") == Int64(after[.timeout]))
    }
}
