import Glibc
import Hardware
@testable import Simulation
import Testing
import TestSupport
@testable import Controls

/// The GPIO part of the device loop on the simulated board: each wake-up polls the button descriptors,
/// drains edges, makes debounce/long-press decisions, maps presses to actions, steps the mode cycle and
/// writes the LED frame. 100k wake-ups must allocate nothing (run in debug and in release).
@Suite struct ButtonLEDAllocationTests {
    final class Board {
        let gpio = SimulatedGPIO()
        var panel: ButtonPanel
        var leds: LEDOutputs
        let patterns = LEDPatterns()
        let actions = ButtonActionMap()
        let cycle: ButtonModeCycle<TestMode>
        var fds: [pollfd]
        var presses = ButtonPressBatch()
        var mode = TestMode.none
        var modeChangedAt: Int64 = 0
        var overview = false
        var calibrations = 0
        var shortPresses = 0, longPresses = 0

        init() throws {
            panel = try ButtonPanel(primary: ButtonLine(offset: 17),
                                    secondary: ButtonLine(offset: 27, activeLow: false, bias: .pullDown),
                                    controller: gpio)
            leds = try LEDOutputs(configuration: LEDLineConfiguration(
                fix: LEDLine(offset: 22), mode: LEDLine(offset: 23, activeLow: true),
                modeRed: LEDLine(offset: 5), modeGreen: LEDLine(offset: 6), modeBlue: LEDLine(offset: 13),
                fault: LEDLine(offset: 24), heartbeat: LEDLine(offset: 25)), controller: gpio)
            cycle = try ButtonModeCycle([.none, .follow, .followWithCourse, .followWithHeading, .overview])
            fds = [pollfd(fd: panel.descriptor(of: .primary, on: gpio)?.rawValue ?? -1, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: panel.descriptor(of: .secondary, on: gpio)?.rawValue ?? -1, events: Int16(POLLIN), revents: 0)]
        }

        /// Scripted user: every 2 s a press with 5 bounce edges in 10 ms; short (200 ms) and long (1.5 s)
        /// presses alternate; every fourth press is on the second button.
        func script(wakeUp k: Int, now: Int64) {
            let slot = k % 120, press = k / 120
            let offset: UInt32 = press % 4 == 3 ? 27 : 17
            let releaseSlot = press % 2 == 0 ? 12 : 90
            if slot == 1 || slot == releaseSlot {
                let pressing = slot == 1
                for b in 0..<5 {
                    let t = now - 12_000_000 + Int64(b) * 2_000_000
                    if (b % 2 == 0) == pressing { gpio.press(offset, atNanoseconds: t) } else { gpio.release(offset, atNanoseconds: t) }
                }
            }
        }

        func wakeUp(_ k: Int, now: Int64) throws {
            script(wakeUp: k, now: now)
            presses.removeAll()
            if poll(&fds, 2, 0) > 0 {
                if fds[0].revents != 0 { try panel.drain(.primary, from: gpio, into: &presses) }
                if fds[1].revents != 0 { try panel.drain(.secondary, from: gpio, into: &presses) }
            }
            panel.advance(toNanoseconds: now, into: &presses)
            var i = 0
            while i < presses.count {
                let press = presses[i]
                if press.kind == .short { shortPresses += 1 } else { longPresses += 1 }
                switch actions.action(for: press) {
                case .nextTrackingMode:
                    mode = cycle.next(after: mode)
                    modeChangedAt = press.timeNanoseconds
                case .toggleOverview: overview.toggle()
                case .startMagnetometerCalibration: calibrations += 1
                case .none, .requestFullAccuracy, .toggleLocationVisible: break
                }
                i += 1
            }
            let state = LEDIndicatorState(fix: FixIndicator(rawValue: UInt8((k / 600) % 4))!, modeNumber: cycle.position(of: mode) ?? 0,
                                          modeChangedAtNanoseconds: modeChangedAt, fault: (k / 900) % 2 == 1)
            try leds.show(patterns.frame(for: state, atNanoseconds: now), on: gpio, nowNanoseconds: now)
        }
    }

    @Test func hundredThousandWakeUpsAllocateNothing() throws {
        let board = try Board()
        let tick: Int64 = 16_666_667
        var k = 0
        for _ in 0..<2_400 { try board.wakeUp(k, now: Int64(k) * tick); k += 1 }   // warm-up: 20 presses
        let warmShort = board.shortPresses, warmLong = board.longPresses
        let allocations = try allocationCount {
            for _ in 0..<100_000 {
                try board.wakeUp(k, now: Int64(k) * tick)
                k += 1
            }
        }
        #expect(allocations == 0)
        // The work really happened: 833 presses in 100k wake-ups, half short, half long, none lost.
        let short = board.shortPresses - warmShort, long = board.longPresses - warmLong
        #expect(short + long == 833 || short + long == 834)
        #expect(abs(short - long) <= 1)
        #expect(board.gpio.droppedEventCount == 0 && board.presses.droppedCount == 0)
        #expect(board.calibrations > 0)
        #expect(board.leds.writeCount > 100_000 / 10)
    }
}
