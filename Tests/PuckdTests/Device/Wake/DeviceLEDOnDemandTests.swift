import CBundledData
import Hardware
import Testing
import TestSupport
@testable import Puckd

/// The LED patterns keep their timing with ticks on demand (docs/power.md §2.1): a stale fix blinks
/// the fix LED at 4 Hz over seconds of synthetic time, with the loop woken where its own timer is
/// armed, also when each wake-up comes late (as poll() returns on a loaded board).
@Suite(.serialized) struct DeviceLEDOnDemandTests {
    /// A device replaying the first 30 epochs of the drive once, then silent: the fix goes stale.
    static func silentAfterAFewFixes(onDemand: Bool) throws -> SimulatedDeviceHarness {
        let h0 = try SimulatedDeviceHarness()
        let log = h0.board.receiver.schedule.epochs.prefix(30).map { e in
            String(decoding: UnsafeRawBufferPointer(start: bundled_drive_bytes()! + e.start, count: e.end - e.start), as: UTF8.self)
        }.joined()
        let path = h0.writeFile("short.nmea", log)
        return try SimulatedDeviceHarness(overrides: ["sim.gps_log=" + path, "sim.loop=false"], directory: h0.directory,
                                          setupChanges: { $0.ticksOnDemand = onDemand })
    }

    /// Steps `h` for `nanoseconds`, each wake-up `latencies[i % count]` after the time its timer was
    /// armed for (at most 1 s later), with the timer and the GPS source ready (a pty with no bytes reads nothing).
    static func runOnItsTimer(_ h: SimulatedDeviceHarness, nanoseconds: Int64, latencies: [Int64]) {
        let end = h.now + nanoseconds
        var i = 0
        while h.now < end {
            let armed = h.device.scheduler.armedWakeNanoseconds
            h.now = min(max(armed + latencies[i % latencies.count], h.now + 1), h.now + 1_000_000_000)
            _ = h.device.step(gps: &h.source, nowNanoseconds: h.now, ready: Self.timerAndGPS)
            i += 1
        }
    }

    static let timerAndGPS: DeviceReadiness = [.timer, .gps]

    /// Rising edges of the fix LED (line 22) in the window `from ..< to`, and the shortest and longest
    /// time it held one level there (the first and last, cut by the window, left out).
    static func fixLED(_ h: SimulatedDeviceHarness, from: Int64, to: Int64) -> (rises: Int, shortest: Int64, longest: Int64) {
        let changes = h.ledChanges(22, from: from).filter { $0.0 < to }
        var rises = 0, shortest = Int64.max, longest: Int64 = 0
        var i = 1
        while i < changes.count {
            if changes[i].1 && !changes[i - 1].1 { rises += 1 }
            if i >= 2 {
                shortest = min(shortest, changes[i].0 - changes[i - 1].0)
                longest = max(longest, changes[i].0 - changes[i - 1].0)
            }
            i += 1
        }
        return (rises, shortest, longest)
    }

    @Test(arguments: [[0], [2_000_000], [0, 9_000_000, 4_000_000, 1_000_000]] as [[Int64]])
    func aStaleFixBlinksAt4HzOnDemand(latencies: [Int64]) throws {
        let h = try Self.silentAfterAFewFixes(onDemand: true)
        defer { h.removeDirectory() }
        Self.runOnItsTimer(h, nanoseconds: 8_000_000_000, latencies: latencies)   // 3 s of fixes, then over stale_s = 3 s
        #expect(h.device.fixIndicator(nowNanoseconds: h.now) == .stale)
        let start = h.now
        Self.runOnItsTimer(h, nanoseconds: 4_000_000_000, latencies: latencies)
        let led = Self.fixLED(h, from: start, to: start + 4_000_000_000)
        // 4 Hz: 16 rises in 4 s, each level held 125 ms; an edge shows at its time, or late by the
        // wake-up's latency plus at most a tick period (ticks come at most one a period) and the IMU's
        // coalescing window (5 ms at 100 Hz): the steady 60 Hz tick's own bound.
        let slack = 16_666_667 + 5_000_000 + (latencies.max() ?? 0)
        #expect(led.rises >= 15 && led.rises <= 17, "rises in 4 s: \(led.rises)")
        #expect(led.shortest >= 125_000_000 - slack && led.longest <= 125_000_000 + slack,
                "levels held \(led.shortest / 1_000_000) … \(led.longest / 1_000_000) ms")
        #expect(h.device.counters.ticks < 60 * 12, "on demand: fewer ticks than the steady 60 Hz")
    }
}
