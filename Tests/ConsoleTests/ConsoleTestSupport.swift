import IMU
import Testing
import TestSupport
import NMEA
import Heading
import Tracking
@testable import Console

/// A realistic console state: the fix, sky view and counters come from a real u-blox NEO-M9N
/// recording in the gpsd corpus (the richest sky in the fixtures: 40+ signals); the puck and camera
/// from a `TrackingCore` fed that fix and a heading; the device part as the device loop fills it.
enum ConsoleTestState {
    static let log = "nmea/gpsd/ublox-neo-m9n-nmea.nmea"

    /// Built once (the pipeline run is the slow part).
    static let realistic: ConsoleState = build()

    static func build() -> ConsoleState {
        var state = ConsoleState()
        state.loadGPS(fromRecordedLog: Fixtures.bytes(log) ?? [])

        var core = try! TrackingCore()
        core.setShowsUserLocation(true, atNanoseconds: 0)
        if let fix = state.fix { core.updateLocation(fix, atNanoseconds: 500_000_000) }
        core.setTrackingMode(.followWithHeading, animated: false, atNanoseconds: 600_000_000)
        core.updateHeading(HeadingSample(timeNanoseconds: 700_000_000, trueHeadingDegrees: 271.3,
                                         magneticHeadingDegrees: 268.1, headingAccuracyDegrees: 4))
        core.tick(atNanoseconds: 2_000_000_000)
        state.update(from: core)
        while let e = core.popEvent() { state.events.record(e) }

        state.heading = HeadingEstimate(timestampNanoseconds: 1_990_000_000, magneticHeadingDegrees: 268.1,
                                        trueHeadingDegrees: 271.3, declinationDegrees: 3.2, rollDegrees: 1.25,
                                        pitchDegrees: -0.5, orientation: .identity, headingAccuracyDegrees: 4,
                                        calibrationState: .calibrated, calibrationNeeded: false, magnetometer: .accepted)
        state.magnetometerCalibration = MagnetometerCalibration(hardIronMicrotesla: Vector3(12, -3, 40), fieldMicrotesla: 48.2,
                                                                coverageFraction: 0.78, residualFraction: 0.031,
                                                                sampleCount: 812, utcNanoseconds: 1_754_000_000_000_000_000)
        var d = ConsoleDeviceState()
        d.version = "0.1.0"
        d.board = ConsoleText("sim")
        d.nowNanoseconds = 2_000_000_000
        d.uptimeNanoseconds = 93_784_000_000_000   // 1 d 02:03:04
        d.fixReceivedNanoseconds = 1_800_000_000
        d.sources.set(ConsoleSource(name: "gps", description: ConsoleText("/dev/ttyAMA0 9600 baud"), state: "connected", isHealthy: true))
        d.sources.set(ConsoleSource(name: "imu", description: ConsoleText("LSM9DS1 on /dev/i2c-1 0x6a"), state: "running", isHealthy: true))
        d.sources.set(ConsoleSource(name: "gpio", description: ConsoleText("pinctrl-bcm2711"), state: "denied", isHealthy: false))
        d.leds.append(ConsoleLED(name: "fix", isOn: true, pattern: "on: 3D fix", line: 17))
        d.leds.append(ConsoleLED(name: "mode", isOn: false, pattern: "4 short blinks every 2 s: followWithHeading", color: "blue", line: 27))
        d.leds.append(ConsoleLED(name: "fault", isOn: true, pattern: "on: a source is in error", line: 22))
        d.leds.append(ConsoleLED(name: "heartbeat", isOn: false, pattern: "double blink every 1 s"))
        d.faults.append(ConsoleFault(source: "gpio", reason: ConsoleText(
            "permission denied on \"/dev/gpiochip0\"; add the puckd user to the gpio group")))
        let names: [StaticString] = ["i2c.errors.nack", "i2c.errors.timeout", "gpio.events", "gpio.bounces",
                                     "loop.wakeups", "loop.ticks", "loop.maxLatencyNanoseconds", "imu.samples",
                                     "heading.published", "allocations.afterStart"]
        for (i, name) in names.enumerated() { d.counters.append(name, Int64(i * 1000 + 7)) }
        d.config.set(key: ConsoleText("gps.device"), value: ConsoleText("/dev/ttyAMA0"), isDefault: false)
        d.config.set(key: ConsoleText("gps.baud"), value: ConsoleText("9600"), isDefault: true)
        d.config.set(key: ConsoleText("imu.rateHz"), value: ConsoleText("100"), isDefault: true)
        d.config.set(key: ConsoleText("tracking.mode"), value: ConsoleText("followWithHeading"), isDefault: false)
        d.config.set(key: ConsoleText("console.device"), value: ConsoleText("stdio"), isDefault: true)
        d.configPath = ConsoleText("/etc/puckd.conf")
        d.calibration = .magnetometer(coverageFraction: 0.34, samples: 120, elapsedNanoseconds: 12_000_000_000)
        d.lastCalibrationResult = ConsoleText("magnetometer calibration applied: coverage 78 %, residual 3.1 %")
        state.device = d
        return state
    }
}

/// Drives a `ConsoleSession` like the device loop would: feeds text, replies to each command with
/// `state`, and collects everything the session wrote. For tests (allocates freely).
final class ConsoleDriver {
    var session: ConsoleSession
    var state: ConsoleState
    /// Commands the session handed to the device, in order.
    var commands: [ConsoleCommand] = []
    /// When false, commands are collected but not replied to.
    var autoReply = true

    init(interactive: Bool, state: ConsoleState = ConsoleTestState.realistic, options: ((inout ConsoleOptions) -> Void)? = nil) {
        var o = ConsoleOptions(interactive: interactive)
        options?(&o)
        session = ConsoleSession(options: o)
        self.state = state
    }

    /// Feeds `bytes`, replying to each command; returns the output written meanwhile.
    @discardableResult
    func feed(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while let command = session.feed(raw, from: &offset) {
                commands.append(command)
                if autoReply { session.reply(to: command, state: state) }
            }
        }
        return drain()
    }

    /// Feeds the UTF-8 bytes of `text`.
    @discardableResult
    func type(_ text: String) -> String { feed(Array(text.utf8)) }

    /// True while a watch runs.
    var isWatching: Bool { session.isWatching }

    /// Takes everything pending in the outgoing buffer.
    @discardableResult
    func drain() -> String {
        let bytes = session.withPendingOutput { Array($0) }
        session.consumeOutput(bytes.count)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Ticks the watch at `now` and returns what it wrote.
    func tick(_ now: Int64) -> String {
        session.tick(nowNanoseconds: now, state: state)
        return drain()
    }
}

/// Parses JSON lines with python3 and prints the requested expressions, one result per line
/// (`rows` is the list of parsed objects). Nil when python3 fails (invalid JSON).
func pythonJSON(_ json: String, _ expressions: [String]) -> [String]? {
    let script = "import json,sys\nrows=[json.loads(l) for l in sys.stdin.read().split('\\n') if l.strip()]\n"
        + expressions.map { "print(\($0))" }.joined(separator: "\n")
    guard let r = runProcess(["python3", "-c", script], input: Array(json.utf8)), r.status == 0 else { return nil }
    return r.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
}

/// A rendered piece of output as a String.
func rendered(capacity: Int = 65_536, _ body: (inout OutputBuffer) -> Void) -> String {
    var out = OutputBuffer(capacity: capacity)
    body(&out)
    return out.string
}

