/// Counters of the device loop, for the status line, the console (`stats`) and tests.
public struct DeviceCounters: Sendable, Equatable {
    /// Wake-ups of the loop (returns from poll, or steps in tests).
    public var wakeUps: UInt64 = 0
    /// Tracking ticks run, and ticks skipped because the loop fell behind by more than one period.
    public var ticks: UInt64 = 0
    public var skippedTicks: UInt64 = 0
    /// Bytes read from the GPS source and fixes (epochs) completed.
    public var gpsBytes: UInt64 = 0
    public var fixes: UInt64 = 0
    /// GPS source errors reported.
    public var gpsErrors: UInt64 = 0
    /// IMU polls and samples delivered, headings published to the tracking core.
    public var imuPolls: UInt64 = 0
    public var imuSamples: UInt64 = 0
    public var headingsPublished: UInt64 = 0
    /// Button presses recognised (short, long).
    public var shortPresses: UInt64 = 0
    public var longPresses: UInt64 = 0
    /// PPS edges seen.
    public var ppsEdges: UInt64 = 0
    /// LED line writes, GPIO errors.
    public var ledWrites: UInt64 = 0
    public var gpioErrors: UInt64 = 0
    /// Console commands handled.
    public var commands: UInt64 = 0
    /// State writes (successful, failed).
    public var stateWrites: UInt64 = 0
    public var stateWriteFailures: UInt64 = 0
    /// Longest delay between the moment the wake timer was armed for and the wake-up, nanoseconds.
    public var maxWakeLatencyNanoseconds: Int64 = 0
    /// Timer wake-ups measured for it.
    public var timerWakeUps: UInt64 = 0
    /// SIGHUPs received, and reloads run for them (fewer in a storm: one per second at most).
    public var reloadRequests: UInt64 = 0
    public var reloads: UInt64 = 0

    public init() {}
}

/// Which descriptors poll() reported readable in one wake-up (tests pass `.all` to service everything).
public struct DeviceReadiness: OptionSet, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let signal = DeviceReadiness(rawValue: 1)
    /// The wake timer (IMU poll and/or tick due).
    public static let timer = DeviceReadiness(rawValue: 2)
    /// The IMU's interrupt line (`[imu] interrupt_line`) has an edge: its FIFO reached the watermark.
    public static let imuInterrupt = DeviceReadiness(rawValue: 4)
    public static let gps = DeviceReadiness(rawValue: 8)
    public static let primaryButton = DeviceReadiness(rawValue: 16)
    public static let secondaryButton = DeviceReadiness(rawValue: 32)
    public static let pps = DeviceReadiness(rawValue: 64)
    public static let console = DeviceReadiness(rawValue: 128)
    /// The console's output can take bytes.
    public static let consoleOutput = DeviceReadiness(rawValue: 256)
    /// A client of the gpsd-protocol server (or a connection) is ready.
    public static let gpsdServer = DeviceReadiness(rawValue: 512)
    /// The MQTT uplink's connection is readable or writable (or finished connecting).
    public static let uplink = DeviceReadiness(rawValue: 1024)
    /// The OsmAnd uplink's connection is readable or writable (or finished connecting).
    public static let osmandUplink = DeviceReadiness(rawValue: 2048)
    public static let all = DeviceReadiness(rawValue: 0xFFFF)
}

extension Device {
    /// Every counter of the loop: the router's own (GPS, IMU, console, reloads) and each component's.
    public var counters: DeviceCounters {
        var c = routerCounters
        c.gpsBytes = gpsLink.bytes
        c.fixes = gpsLink.fixes
        c.gpsErrors = gpsLink.errors
        c.imuPolls = imuLink.polls
        c.imuSamples = imuLink.samples
        c.headingsPublished = imuLink.headingsPublished
        c.wakeUps = scheduler.wakeUps
        c.ticks = scheduler.ticks
        c.skippedTicks = scheduler.skippedTicks
        c.timerWakeUps = scheduler.timerWakeUps
        c.maxWakeLatencyNanoseconds = scheduler.maxWakeLatencyNanoseconds
        c.shortPresses = controls.shortPresses
        c.longPresses = controls.longPresses
        c.ledWrites = controls.ledWrites
        c.gpioErrors = controls.gpioErrors &+ ppsInput.gpioErrors
        c.ppsEdges = ppsInput.edges
        c.stateWrites = persistence.writes
        c.stateWriteFailures = persistence.writeFailures
        return c
    }
}
