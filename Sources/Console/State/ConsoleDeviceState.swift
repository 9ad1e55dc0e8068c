/// What only the device loop knows, in the form the console shows it: version, board, uptime,
/// sources, LEDs, faults, counters, configuration and a running calibration. Fixed capacity, no
/// references: the device keeps one instance and updates fields in place (no allocation).
public struct ConsoleDeviceState: Sendable {
    /// puckd's version (`PuckdVersion.string`).
    public var version: StaticString = "unknown"
    /// Board profile name (`sim`, `pi4-berrygps-imu-v4` …).
    public var board = ConsoleText()
    /// Monotonic time of the wake-up that last updated this state, nanoseconds (ages are computed from it).
    public var nowNanoseconds: Int64 = 0
    /// Time since start-up, nanoseconds.
    public var uptimeNanoseconds: Int64 = 0
    /// Monotonic time the last fix arrived, nanoseconds; nil before the first one.
    public var fixReceivedNanoseconds: Int64?
    /// The byte/sample sources and edges (gps, imu, gpio, pps, console …).
    public var sources = ConsoleSourceTable()
    /// Every LED with its state and pattern.
    public var leds = ConsoleLEDTable()
    /// Current faults with one-line reasons (empty = healthy).
    public var faults = ConsoleFaultList()
    /// Device counters (I2C errors, GPIO events, ticks, allocations, loop latency …).
    public var counters = ConsoleCounterTable()
    /// The track journal (`track`).
    public var track = ConsoleTrackState()
    /// The fleet uplinks (`uplink`).
    public var uplink = ConsoleUplinksState()
    /// The gpsd-compatible server (`server`).
    public var server = ConsoleServerState()
    /// The running configuration, one entry per key.
    public var config = ConsoleConfigTable()
    /// The configuration file `config save` writes.
    public var configPath = ConsoleText()
    /// A calibration in progress, if any.
    public var calibration: ConsoleCalibrationActivity = .idle
    /// The outcome of the last finished calibration, one line (empty when none yet).
    public var lastCalibrationResult = ConsoleText()
    /// Heap allocations on the loop's thread since start-up; nil when the malloc counter is not linked
    /// (the device binary: `stats` says "not measured"; tests and benchmarks link it).
    public var allocationsAfterStartUp: Int64?

    public init() {}
}

/// A calibration the device is running.
public enum ConsoleCalibrationActivity: Sendable, Equatable {
    case idle
    /// A magnetometer run: covered fraction of the sphere of field directions (0...1), samples kept,
    /// time since it started (ns).
    case magnetometer(coverageFraction: Double, samples: Int, elapsedNanoseconds: Int64)
    /// A gyroscope bias measurement: still time so far and needed, seconds.
    case gyroscope(stillSeconds: Double, requiredSeconds: Double)
}

/// One source or edge of the device and its health.
public struct ConsoleSource: Sendable {
    /// Short name: `gps`, `imu`, `gpio`, `pps`, `console`.
    public var name: StaticString
    /// What it is, e.g. `/dev/ttyAMA0 9600 baud` or `LSM9DS1 on /dev/i2c-1 0x6a`.
    public var description: ConsoleText
    /// State word: `connected`, `reconnecting`, `absent`, `simulated` …
    public var state: StaticString
    /// False when the source is in error (also listed as a fault).
    public var isHealthy: Bool

    public init(name: StaticString, description: ConsoleText, state: StaticString, isHealthy: Bool) {
        self.name = name
        self.description = description
        self.state = state
        self.isHealthy = isHealthy
    }
}

/// One LED.
public struct ConsoleLED: Sendable {
    /// `fix`, `mode`, `fault`, `heartbeat`.
    public var name: StaticString
    /// On at this instant.
    public var isOn: Bool
    /// The pattern shown and its meaning, e.g. `1 Hz blink: 2D fix`.
    public var pattern: StaticString
    /// Colour of an RGB LED (`green` …), empty for a single-colour LED.
    public var color: StaticString
    /// GPIO line offset, or -1 when the LED is not wired (shown as `-`).
    public var line: Int
    /// What the pattern means now, e.g. the mode name for the mode LED (empty when the pattern says it).
    public var meaning: StaticString

    public init(name: StaticString, isOn: Bool, pattern: StaticString, color: StaticString = "", line: Int = -1,
                meaning: StaticString = "") {
        self.name = name
        self.isOn = isOn
        self.pattern = pattern
        self.color = color
        self.line = line
        self.meaning = meaning
    }
}

/// One fault: which part and why, in one sentence that says what to do.
public struct ConsoleFault: Sendable {
    /// `gps`, `imu`, `gpio` …
    public var source: StaticString
    /// E.g. `no IMU answered on /dev/i2c-1; check the wiring and the i2c overlay`.
    public var reason: ConsoleText

    public init(source: StaticString, reason: ConsoleText) {
        self.source = source
        self.reason = reason
    }
}

/// One named counter.
public struct ConsoleCounter: Sendable {
    /// Name with unit where needed, e.g. `i2cErrors.nack`, `loop.maxLatencyNanoseconds`.
    public var name: StaticString
    public var value: Int64

    public init(name: StaticString, value: Int64) {
        self.name = name
        self.value = value
    }
}

/// One configuration value.
public struct ConsoleConfigEntry: Sendable {
    /// `section.key` as in the file.
    public var key: ConsoleText
    /// The value as written in the file.
    public var value: ConsoleText
    /// True when the value is the built-in default (not set in the file or by `--set`).
    public var isDefault: Bool
    /// Where the value comes from: `/etc/puckd.conf:12`, `--set gps.baud=auto`, `console (not saved)`;
    /// empty when unknown (then only `isDefault` is shown).
    public var origin: ConsoleText
    /// True when the value was changed but takes effect only at the next start (the running value differs).
    public var needsRestart: Bool

    public init(key: ConsoleText, value: ConsoleText, isDefault: Bool, origin: ConsoleText = ConsoleText(),
                needsRestart: Bool = false) {
        self.key = key
        self.value = value
        self.isDefault = isDefault
        self.origin = origin
        self.needsRestart = needsRestart
    }
}
