import Hardware
import Testing
import TestSupport
@testable import Puckd

/// The console inside the device loop allocates nothing after start-up: `watch status 60` redrawn on
/// every tick for 100 000 ticks, with the whole simulated board running (GPS over the pty, IMU twin,
/// button presses, LEDs, state writes), the console state refreshed from the device before each
/// frame, and the frames written to the console's output. Also the everyday commands (status, mode,
/// viewport, leds, stats, json) typed while it runs. Debug and release (`make test`).
@Suite(.serialized) struct DeviceConsoleAllocationTests {
    /// Steps the device once per tick period (60 Hz) `ticks` times; returns the allocations counted.
    func run(_ c: ConsoleDeviceHarness, ticks: Int, pressEvery: Int = 3000) -> UInt64 {
        let h = c.h
        let period: Int64 = 1_000_000_000 / 60 + 1
        var k = 0
        var presses = 0
        return allocationCount {
            while k < ticks {
                if k % pressEvery == 0 {
                    _ = h.board.press(presses % 3 == 2 ? .primary : .primary, long: presses % 3 == 1,
                                      longPressNanoseconds: 1_000_000_000, nowNanoseconds: h.now)
                    presses += 1
                }
                h.now += period
                _ = h.device.step(gps: &h.source, nowNanoseconds: h.now, ready: .all)
                k += 1
            }
        }
    }

    @Test(arguments: [true, false]) func watchStatus60ForHundredThousandTicksAllocatesNothing(interactive: Bool) throws {
        let c = try ConsoleDeviceHarness(interactive: interactive, discardOutput: true,
                                         overrides: ["state.save_interval_s=1"])
        defer { c.h.removeDirectory() }
        // Warm-up: every path once (presses, mode changes, LED writes, state writes, frames).
        c.type("watch status 60\n")
        _ = run(c, ticks: 2000, pressEvery: 200)
        let frames0 = c.console.session.counters.watchFrames
        let counters0 = c.device.counters
        let allocations = run(c, ticks: 100_000)
        let frames = c.console.session.counters.watchFrames - frames0
        let counters = c.device.counters
        #expect(allocations == 0)
        #expect(frames >= 99_000, "a frame per tick: \(frames)")
        #expect(c.console.writtenBytes > Int64(frames) * 1000, "the frames were written to the output")
        #expect(counters.fixes - counters0.fixes > 10_000)
        #expect(counters.imuSamples - counters0.imuSamples >= 99_000, "an IMU sample per wake-up")
        #expect(counters.shortPresses + counters.longPresses > counters0.shortPresses + counters0.longPresses + 20)
        #expect(counters.stateWrites > counters0.stateWrites)
        let watching = c.console.session.isWatching
        #expect(watching)
    }

    @Test func everydayCommandsAllocateNothing() throws {
        let c = try ConsoleDeviceHarness(discardOutput: true)
        defer { c.h.removeDirectory() }
        let script = "status\ngps\nsats\nheading\npuck\ncamera\nleds\nstats\nevents 20\nmode next\nmode follow immediate\n"
            + "viewport overview\nviewport follow\nviewport idle\nshow off\nshow on\naccuracy reduced\naccuracy full\n"
            + "precise MLNAccuracyAuthorizationDescription\npan 10 5\nzoom 15\npitch 20\nrotate 10\nconfig\n"
            + "config gps.baud\nversion\npress\njson on\nstatus\nstats\njson off\n"
        let bytes = Array(script.utf8)
        // Warm-up twice (the first run fills the runtime's metadata caches).
        for _ in 0..<2 {
            c.type(script)
            _ = run(c, ticks: 600)
        }
        let commands0 = c.device.counters.commands
        var allocations: UInt64 = 0
        for _ in 0..<5 {
            c.type(String(decoding: bytes, as: UTF8.self))   // typed outside the counted region
            allocations += run(c, ticks: 600)
        }
        #expect(allocations == 0)
        #expect(c.device.counters.commands - commands0 == 5 * 29)
    }

    /// The production loop (poll over the real descriptors, one clock read per wake-up) with the console
    /// watching at 60 Hz, in real time.
    @Test func realLoopWithAWatchAllocatesNothing() throws {
        let c = try ConsoleDeviceHarness(interactive: true, discardOutput: true, pastNanoseconds: 20_000_000_000)
        defer { c.h.removeDirectory() }
        let h = c.h
        c.type("watch status 60\n")
        h.advance(by: 20_000_000_000 - 100_000_000)
        h.catchUpWithRealTime()
        var now = h.now
        now = h.device.loop(gps: &h.source, nowNanoseconds: now, maximumWakeUps: 300, describe: { _ in nil },
                            setBaud: { _, _, _ throws(SourceError) in })
        let frames0 = c.console.session.counters.watchFrames
        var allocations: UInt64 = 0
        allocations = allocationCount {
            now = h.device.loop(gps: &h.source, nowNanoseconds: now, maximumWakeUps: 600, describe: { _ in nil },
                                setBaud: { _, _, _ throws(SourceError) in })
        }
        #expect(allocations == 0)
        #expect(c.console.session.counters.watchFrames - frames0 > 100)
    }
}
