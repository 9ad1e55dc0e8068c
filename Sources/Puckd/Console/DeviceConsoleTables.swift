import Console
import Controls
import Heading
import Tracking

/// The console's LED table and counter table, rebuilt in place from the device before each reply or
/// watch frame (static names, no allocation).
extension Device {
    /// Patterns of the mode LED by blink count (0 … 6, the most a 2 s group shows).
    static let modeBlinkPatterns: [7 of StaticString] = [
        "off (first mode of the cycle)", "1 short blink every 2 s", "2 short blinks every 2 s",
        "3 short blinks every 2 s", "4 short blinks every 2 s", "5 short blinks every 2 s", "6 short blinks every 2 s",
    ]

    /// Names of the RGB mode LED's colours.
    static func colorName(_ c: RGBColor) -> StaticString {
        switch (c.red, c.green, c.blue) {
        case (false, false, false): return "off"
        case (true, false, false): return "red"
        case (false, true, false): return "green"
        case (false, false, true): return "blue"
        case (true, true, false): return "yellow"
        case (false, true, true): return "cyan"
        case (true, false, true): return "magenta"
        case (true, true, true): return "white"
        }
    }

    func refreshLEDs(_ d: inout ConsoleDeviceState, nowNanoseconds now: Int64) {
        d.leds.removeAll()
        guard controls.leds != nil else { return }
        let g = configuration.gpio
        let state = indicatorState(nowNanoseconds: now)
        let frame = controls.ledPatterns.frame(for: state, atNanoseconds: now)
        let entry = currentCycleEntry
        let meaning: StaticString
        switch entry {
        case .mode(let mode): meaning = mode.name
        case .overview: meaning = "overview"
        }
        if let line = g.ledFix {
            let pattern: StaticString
            switch state.fix {
            case .noFix: pattern = "off: no fix"
            case .fix2D: pattern = "1 Hz blink: 2D fix"
            case .fix3D: pattern = "on: 3D fix"
            case .stale: pattern = "4 Hz blink: the fix is stale"
            }
            d.leds.append(ConsoleLED(name: "fix", isOn: frame.fix, pattern: pattern, line: line))
        }
        if let line = g.ledMode {
            let blinks = min(max(state.modeNumber, 0), min(controls.ledPatterns.timing.maximumModeBlinks, 6))
            d.leds.append(ConsoleLED(name: "mode", isOn: frame.mode, pattern: Self.modeBlinkPatterns[blinks], line: line,
                                     meaning: meaning))
        }
        if g.ledModeRed != nil || g.ledModeGreen != nil || g.ledModeBlue != nil {
            d.leds.append(ConsoleLED(name: "modeRGB", isOn: frame.modeColor != .off, pattern: "one colour per mode",
                                     color: Self.colorName(frame.modeColor),
                                     line: g.ledModeRed ?? g.ledModeGreen ?? g.ledModeBlue ?? -1, meaning: meaning))
        }
        if let line = g.ledFault {
            d.leds.append(ConsoleLED(name: "fault", isOn: frame.fault,
                                     pattern: state.fault ? "on: a source is in error (status lists the faults)" : "off: no fault",
                                     line: line))
        }
        if let line = g.ledHeartbeat {
            d.leds.append(ConsoleLED(name: "heartbeat", isOn: frame.heartbeat, pattern: "double beat every second: the loop runs",
                                     line: line))
        }
    }

    func refreshCounters(_ d: inout ConsoleDeviceState) {
        let c = counters
        var t = ConsoleCounterTable()
        scheduler.appendStats(to: &t)
        gpsLink.appendStats(to: &t)
        imuLink.appendStats(to: &t)
        controls.appendStats(to: &t)
        t.append("gpio.errors", Int64(truncatingIfNeeded: controls.gpioErrors &+ ppsInput.gpioErrors))
        ppsInput.appendStats(to: &t)
        t.append("console.commandsApplied", Int64(truncatingIfNeeded: c.commands))
        console?.appendStats(to: &t)
        t.append("log.linesWritten", Int64(output.writtenLines))
        t.append("log.linesDropped", Int64(output.droppedLines))
        persistence.appendStats(to: &t)
        appendGpsdServerCounters(&t)
        trackRecorder.appendStats(to: &t)
        uplink.appendStats(to: &t)
        d.counters = t
    }
}
