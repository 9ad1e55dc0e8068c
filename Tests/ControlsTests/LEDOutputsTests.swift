import Hardware
@testable import Simulation
import Testing
@testable import Controls

/// LEDs end to end against the GPIO twin: frames computed at a 60 Hz tick, written on change, checked
/// through the twin's recorded output history.
@Suite struct LEDOutputsTests {
    static let tick: Int64 = 16_666_667
    static let lines = LEDLineConfiguration(fix: LEDLine(offset: 22), mode: LEDLine(offset: 23, activeLow: true),
                                            fault: LEDLine(offset: 24), heartbeat: LEDLine(offset: 25))

    /// Runs the LED part of the loop over [from, to) and returns the twin.
    static func run(_ state: (Int64) -> LEDIndicatorState, from: Int64 = 0, to: Int64,
                    lines: LEDLineConfiguration = lines) throws -> (SimulatedGPIO, LEDOutputs) {
        let gpio = SimulatedGPIO()
        var leds = try LEDOutputs(configuration: lines, controller: gpio)
        let patterns = LEDPatterns()
        var now = from
        while now < to {
            try leds.show(patterns.frame(for: state(now), atNanoseconds: now), on: gpio, nowNanoseconds: now)
            now += tick
        }
        return (gpio, leds)
    }

    /// Times (ms, rounded down) at which `offset` turned on.
    static func onsets(_ gpio: SimulatedGPIO, _ offset: UInt32) -> [Int64] {
        gpio.outputHistory(offset).dropFirst().filter(\.active).map { $0.timeNanoseconds / 1_000_000 }
    }

    @Test func fixLEDPerState() throws {
        let (noFix, _) = try Self.run({ _ in LEDIndicatorState(fix: .noFix) }, to: ms(3000))
        #expect(noFix.outputHistory(22).count == 1 && noFix.outputHistory(22)[0].active == false)

        let (fix3D, _) = try Self.run({ _ in LEDIndicatorState(fix: .fix3D) }, to: ms(3000))
        #expect(fix3D.outputHistory(22).map(\.active) == [false, true])

        // 1 Hz: on at each second (first tick at or after it), off half a second later.
        let (fix2D, _) = try Self.run({ _ in LEDIndicatorState(fix: .fix2D) }, to: ms(3000))
        #expect(Self.onsets(fix2D, 22) == [0, 1000, 2000])
        #expect(fix2D.outputWasActive(22, atNanoseconds: ms(400)) == true)
        #expect(fix2D.outputWasActive(22, atNanoseconds: ms(520)) == false)

        // Stale: 4 Hz (the 60 Hz tick samples 125 ms halves, so onsets land on the first tick inside).
        let (stale, _) = try Self.run({ _ in LEDIndicatorState(fix: .stale) }, to: ms(1000))
        #expect(Self.onsets(stale, 22) == [0, 250, 500, 750])
    }

    @Test func activeLowModeLEDIsDrivenLow() throws {
        let (gpio, _) = try Self.run({ _ in LEDIndicatorState(fix: .fix3D, modeNumber: 3) }, to: ms(2000))
        let history = gpio.outputHistory(23)
        #expect(history.first == .init(timeNanoseconds: 0, active: false, physicalHigh: true))
        #expect(history.allSatisfy { $0.physicalHigh != $0.active })
        #expect(Self.onsets(gpio, 23) == [0, 250, 500])           // three blinks in the 2 s group
        #expect(gpio.outputHistory(22).last?.physicalHigh == true) // fix LED active-high
    }

    @Test func modeGroupRestartsAtAModeChange() throws {
        let change = ms(1300)
        let (gpio, _) = try Self.run({ now in
            now < change ? LEDIndicatorState(modeNumber: 1, modeChangedAtNanoseconds: 0)
                         : LEDIndicatorState(modeNumber: 2, modeChangedAtNanoseconds: change)
        }, to: ms(3500))
        #expect(Self.onsets(gpio, 23) == [0, 1300, 1550, 3300])
    }

    @Test func rgbModeLED() throws {
        let lines = LEDLineConfiguration(modeRed: LEDLine(offset: 5), modeGreen: LEDLine(offset: 6),
                                         modeBlue: LEDLine(offset: 13))
        let (gpio, leds) = try Self.run({ now in
            LEDIndicatorState(modeNumber: now < ms(500) ? 1 : 3)   // green, then cyan
        }, to: ms(1000), lines: lines)
        #expect(leds.lineCount == 3)
        #expect(gpio.outputWasActive(6, atNanoseconds: ms(100)) == true)
        #expect(gpio.outputWasActive(13, atNanoseconds: ms(100)) == false)
        #expect(gpio.outputWasActive(6, atNanoseconds: ms(900)) == true)
        #expect(gpio.outputWasActive(13, atNanoseconds: ms(900)) == true)
        #expect(gpio.outputWasActive(5, atNanoseconds: ms(900)) == false)
    }

    @Test func writesOnlyOnChange() throws {
        // 3 s of a steady 3D fix and no fault at 60 Hz: the fix LED is written once, the heartbeat twice a
        // beat; nothing else.
        let (_, leds) = try Self.run({ _ in LEDIndicatorState(fix: .fix3D) }, to: ms(3000))
        #expect(leds.writeCount == 1 + 3 * 4)
    }

    @Test func allOffOnExit() throws {
        let (gpio, leds) = try Self.run({ _ in LEDIndicatorState(fix: .fix3D, modeNumber: 1, fault: true) }, to: ms(100))
        var outputs = leds
        try outputs.allOff(on: gpio, nowNanoseconds: ms(100))
        for offset: UInt32 in [22, 23, 24, 25] {
            #expect(gpio.outputWasActive(offset, atNanoseconds: ms(100)) == false)
        }
        #expect(gpio.isPhysicallyHigh(23))                       // active-low off = high
        // Closing the controller turns them off as well (the path a SIGTERM takes).
        let (other, _) = try Self.run({ _ in LEDIndicatorState(fix: .fix3D, fault: true) }, to: ms(100))
        other.close()
        #expect(other.outputHistory(22).last?.active == false && other.outputHistory(24).last?.active == false)
    }
}
