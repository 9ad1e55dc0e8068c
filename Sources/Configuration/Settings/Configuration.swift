import IMU
import Console
import Controls
import Hardware
import Heading
import Receiver
import Tracking

/// Everything `puckd run` can be configured with, typed: one nested value per section of
/// `/etc/puckd.conf`. The defaults here are the defaults of the key table (`ConfigurationKeys`), which
/// is the single source of truth for spelling, parsing, validation and `puckd --help-config`.
public struct PuckdConfiguration: Sendable, Equatable {
    /// `[board]`: what the profile describes.
    public var board = BoardSettings()
    /// `[gps]`: the NMEA source.
    public var gps = GPSSettings()
    /// `[imu]`: the I2C IMU.
    public var imu = IMUSettings()
    /// `[heading]`: the heading estimator's tuning (module Heading).
    public var heading = HeadingConfiguration()
    /// `[tracking]`: the puck and camera core (module Tracking) and its start state.
    public var tracking = TrackingSettings()
    /// `[gpio]`: buttons and LEDs.
    public var gpio = GPIOSettings()
    /// `[pps]`: the pulse-per-second input.
    public var pps = PPSSettings()
    /// `[loop]`: the device loop's rates.
    public var loop = LoopSettings()
    /// `[console]`: where commands come from and the live status line.
    public var console = ConsoleSettings()
    /// `[server]`: the gpsd-compatible server.
    public var server = ServerSettings()
    /// `[time]`: time for chrony.
    public var time = TimeSettings()
    /// `[state]`: persistent state.
    public var state = StateSettings()
    /// `[track]`: the track journal (module TrackLog).
    public var track = TrackSettings()
    /// `[uplink]`: the fleet uplink (MQTT) from the track journal.
    public var uplink = UplinkSettings()
    /// `[sim]`: the simulated board (used when `board.simulated` is true).
    public var sim = SimulationSettings()

    public init() {}
}

/// `[board]`: a human name and whether the board is the simulated twin.
public struct BoardSettings: Sendable, Equatable {
    /// Shown in the start-up report, e.g. "Raspberry Pi 4 + BerryGPS-IMU v4".
    public var name = "unnamed board"
    /// True: GPS, IMU and GPIO are the simulated twins (`puckd run --board sim`).
    public var simulated = false
}

/// The serial line speed setting: a fixed rate, or a gpsd-like search (`auto`).
public enum GPSBaudSetting: Sendable, Equatable {
    /// Hunt for the receiver's rate with `BaudRateSearch`.
    case auto
    /// This rate, bits per second.
    case fixed(Int)
}

/// `[gps]`: where NMEA comes from.
public struct GPSSettings: Sendable, Equatable {
    /// A source address (`SourceAddress` spelling); empty = none configured.
    public var source = ""
    /// Serial line speed (ignored by non-serial sources).
    public var baud = GPSBaudSetting.fixed(9600)
    /// Drop sentences without a checksum.
    public var strict = false
    /// No fix for this long: the fix LED blinks fast and the GPS counts as silent, seconds.
    public var staleSeconds = 3.0
    /// An epoch whose learned cycle ender does not come closes when the line has been quiet for this
    /// fraction of the receiver's cycle after its last byte (0: only the next epoch closes it).
    public var quietCloseFraction = 0.25
    /// What puckd tells the receiver (rate, baud, constellations, sentences, save): docs/receivers.md.
    public var receiver = ReceiverSettings()
    /// What receiver dates are resolved against (GPS week rollover).
    public var datePivot = GPSDatePivot.build
}

/// Which IMU to expect: probe, none, or a specific chip (checked against the probe's result).
public enum IMUChipSetting: Sendable, Equatable {
    case auto
    case none
    case chip(IMUChip)
}

/// `[imu]`: the IMU on I2C.
public struct IMUSettings: Sendable, Equatable {
    /// `/dev/i2c-N`, or `adapter:NAME` to find the bus by its adapter name.
    public var bus = "/dev/i2c-1"
    /// Expected chip.
    public var chip = IMUChipSetting.auto
    /// Sensor → vehicle mounting.
    public var mounting = MountingOrientation.identity
    /// Poll rate, hertz.
    public var rateHertz = 100
    /// FIFO bursts a second on chips whose FIFO puckd reads (LSM6DSL); 0: poll every sample.
    public var burstHertz = 0
    /// The GPIO line (BCM offset on `[gpio] chip`) wired to the IMU's INT1, which rises when its FIFO
    /// reaches the watermark; nil: none, the FIFO is read by the timer.
    public var interruptLine: Int?
    /// A magnetometer calibration run gives up after this long, seconds.
    public var calibrationTimeoutSeconds = 120.0
}

/// The viewport the device starts in (Mapbox viewport API).
public enum InitialViewport: UInt8, Sendable, Equatable {
    case idle = 0
    case followPuck = 1
    case overview = 2
}

/// `[tracking]`: start state and the parts of `TrackingConfiguration` a device sets.
public struct TrackingSettings: Sendable, Equatable {
    /// Tracking mode at the first start (later starts restore the saved mode).
    public var mode = TrackingMode.follow
    /// showsUserLocation at start.
    public var showsLocation = true
    /// Viewport at the first start.
    public var viewport = InitialViewport.idle
    /// Location accuracy authorization at the first start.
    public var accuracy = AccuracyAuthorization.full
    /// View size, points.
    public var viewportWidthPoints = 800
    public var viewportHeightPoints = 480
    /// Zoom the tracking modes use, 512-pt tiles.
    public var trackingZoom = 14.0
    /// Follow-puck viewport zoom and pitch.
    public var followZoom = 16.35
    public var followPitchDegrees = 45.0
    /// No fresh fix for this long → stale puck, seconds.
    public var staleSeconds = 30.0
    /// Show the heading fan on the puck.
    public var showsHeadingIndicator = true
    /// Slowest speed whose course counts, m/s.
    public var courseMinimumSpeedMetersPerSecond = 0.5
    /// Heading modes fall back to the GPS course without a compass heading (tracking.md 4.7).
    public var headingFallsBackToCourse = true
    /// Fixes reporting 0 m accuracy are ignored (tracking.md Q21).
    public var ignoresZeroAccuracyFixes = true

    /// The core's configuration: library defaults plus these settings.
    public func coreConfiguration() -> TrackingConfiguration {
        var c = TrackingConfiguration()
        c.viewportWidthPoints = Double(viewportWidthPoints)
        c.viewportHeightPoints = Double(viewportHeightPoints)
        c.trackingDefaultZoom = trackingZoom
        c.staleTimeoutSeconds = staleSeconds
        c.showsUserHeadingIndicator = showsHeadingIndicator
        c.courseMinimumSpeedMetersPerSecond = courseMinimumSpeedMetersPerSecond
        c.headingFallsBackToCourse = headingFallsBackToCourse
        c.ignoresZeroAccuracyFixes = ignoresZeroAccuracyFixes
        return c
    }

    /// The follow-puck viewport options.
    public var followOptions: FollowPuckOptions {
        FollowPuckOptions(zoom: followZoom, pitchDegrees: followPitchDegrees, bearing: .heading)
    }
}

/// `[gpio]`: the chip, buttons and LEDs (line offsets are BCM numbers; nil = not fitted).
public struct GPIOSettings: Sendable, Equatable {
    /// `auto`, a label, `gpiochipN` or a path (`GPIOChipSelector` spelling); `none` disables GPIO.
    public var chip = "auto"
    public var button: Int? = 17
    public var buttonActiveLow = true
    public var buttonBias = GPIOBias.pullUp
    public var button2: Int? = nil
    public var debounceMilliseconds = 30
    /// 0 disables long presses.
    public var longPressMilliseconds = 1000
    public var actions = ButtonActionMap()
    public var modeCycle: [ModeCycleEntry] = TrackingMode.defaultButtonCycle.map { .mode($0) }
    public var ledFix: Int? = 22
    public var ledMode: Int? = 23
    public var ledFault: Int? = 24
    public var ledHeartbeat: Int? = nil
    public var ledModeRed: Int? = nil
    public var ledModeGreen: Int? = nil
    public var ledModeBlue: Int? = nil
    public var ledActiveLow = false

    /// True when GPIO is switched off (`chip = none`).
    public var disabled: Bool { chip == "none" }

    /// The LED wiring.
    public var ledLines: LEDLineConfiguration {
        func line(_ offset: Int?) -> LEDLine? { offset.map { LEDLine(offset: UInt32($0), activeLow: ledActiveLow) } }
        return LEDLineConfiguration(fix: line(ledFix), mode: line(ledMode), modeRed: line(ledModeRed),
                                    modeGreen: line(ledModeGreen), modeBlue: line(ledModeBlue),
                                    fault: line(ledFault), heartbeat: line(ledHeartbeat))
    }

    /// Debounce and long-press timing.
    public var timing: ButtonTiming {
        ButtonTiming(debounceNanoseconds: Int64(debounceMilliseconds) * 1_000_000,
                     longPressNanoseconds: longPressMilliseconds == 0 ? nil : Int64(longPressMilliseconds) * 1_000_000)
    }
}

/// One step of the button's mode cycle: a tracking mode, or the overview viewport.
public enum ModeCycleEntry: Sendable, Equatable {
    case mode(TrackingMode)
    case overview

    /// The spelling in `[gpio] mode_cycle`: a tracking mode's name or `overview`.
    public var name: String {
        switch self {
        case .mode(let m): return m.name.description
        case .overview: return "overview"
        }
    }

    /// Parses a spelling of `name`.
    public init?(name: String) {
        if name == "overview" { self = .overview; return }
        guard let mode = TrackingMode(name: name) else { return nil }
        self = .mode(mode)
    }
}

/// `[pps]`: the pulse-per-second input: a GPIO line (edge events) or the kernel PPS device.
public struct PPSSettings: Sendable, Equatable {
    /// GPIO line offset of the PPS signal, nil = none.
    public var line: Int? = nil
    /// Kernel PPS device (`/dev/pps0`), empty = none.
    public var device = ""
}

/// `[loop]`: rates of the device loop.
public struct LoopSettings: Sendable, Equatable {
    /// Tracking tick rate, hertz.
    public var tickHertz = 60
}

/// Where the console is (`[console] device`, `--console`).
public enum ConsoleDeviceSetting: Sendable, Equatable {
    /// Standard input and output when run by hand; none when started by systemd with standard input
    /// on /dev/null (`RunCommand.resolveConsole` decides).
    case auto
    /// Commands on standard input, replies on standard output: interactive with a terminal, scripted
    /// otherwise (end of input stops puckd after the last reply).
    case stdio
    /// No console (log and status lines on standard output).
    case none
    /// A serial port or USB gadget port, e.g. `/dev/ttyGS0` at `baudRate` bit/s: always interactive.
    case serial(path: String, baudRate: Int)

    /// The default line speed of a serial console, bit/s.
    public static let defaultBaudRate = 115200

    /// The spelling in the file: `auto`, `stdio`, `none`, `/dev/ttyGS0` or `/dev/ttyAMA1:9600`.
    public var text: String {
        switch self {
        case .auto: return "auto"
        case .stdio: return "stdio"
        case .none: return "none"
        case .serial(let path, let baud): return baud == Self.defaultBaudRate ? path : path + ":" + String(baud)
        }
    }

    /// Parses a spelling of `text`; nil with the reason when it is none.
    public static func parse(_ text: String) -> Result<ConsoleDeviceSetting, ConfigurationProblem> {
        switch text {
        case "auto": return .success(.auto)
        case "stdio", "-": return .success(.stdio)
        case "none", "off": return .success(.none)
        default: break
        }
        guard text.hasPrefix("/") else {
            return .failure(.invalid("not a console, write auto, stdio, none or a serial device such as /dev/ttyGS0[:BAUD]"))
        }
        var path = text
        var baud = defaultBaudRate
        if let colon = text.lastIndex(of: ":") {
            let rate = String(text[text.index(after: colon)...])
            guard let value = Int(rate), SerialBaudRate.isStandard(value) else {
                return .failure(.invalid("'" + rate + "' is not a standard baud rate; use one of "
                    + SerialBaudRate.standardRates.map(String.init).joined(separator: ", ")))
            }
            baud = value
            path = String(text[..<colon])
        }
        return .success(.serial(path: path, baudRate: baud))
    }
}

/// `[console]`.
public struct ConsoleSettings: Sendable, Equatable {
    public var device = ConsoleDeviceSetting.auto
    /// Without a console (`device = none`): a live status line this often on standard output, seconds;
    /// 0 = off. (With a console the person asks with `status` or `watch status`.)
    public var statusIntervalSeconds = 0.0
    /// A console command run when an interactive session begins (e.g. `watch status 2`); empty = none.
    public var startCommand = ""
    /// What the console may do: look, operate (the default), or also change device-shaping keys.
    public var access = ConsoleAccess.operate
    /// A file holding the crypt(3) hash a serial console asks for before anything; empty = no password.
    public var passwordFile = ""
    /// After a wrong password, attempts are refused for this long, doubling per further failure, seconds.
    public var loginDelaySeconds = 2.0
}

/// `[state]`: the state directory and how often it is written.
public struct StateSettings: Sendable, Equatable {
    public var directory = "/var/lib/puckd"
    /// At most one write per this many seconds (changes are batched), seconds.
    public var saveIntervalSeconds = 2.0
    /// The last good fix is refreshed in the state at most this often, seconds.
    public var fixIntervalSeconds = 60.0
}

/// `[track]`: the track journal of every fix (docs/track-log.md §3).
public struct TrackSettings: Sendable, Equatable {
    /// Record every fix.
    public var enabled = true
    /// The journal's directory: absolute, or relative to `[state] directory`.
    public var directory = "track"
    /// Buffered records are written and flushed to disk this often (0 = at every fix), seconds.
    public var flushIntervalSeconds = 5.0
    /// The whole journal at most this large (the oldest segments are dropped), megabytes (MiB).
    public var maximumSizeMegabytes = 64.0
    /// Keep the raw NMEA as received beside the records (for `puckd replay`).
    public var rawNMEA = false

    public init() {}

    /// The directory as an absolute path, given the state directory.
    public func resolvedDirectory(stateDirectory: String) -> String {
        if directory.hasPrefix("/") { return directory }
        var base = stateDirectory
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        var tail = Substring(directory)
        while tail.hasSuffix("/") { tail = tail.dropLast() }
        return base + "/" + tail
    }
}

/// Which simulated IMU board the simulated device carries.
public enum SimulatedIMUChoice: UInt8, Sendable, Equatable {
    case berryIMUv3 = 0
    case senseHAT = 1
    case icm20948 = 2
    case mpu9250 = 3
    case none = 4
}

/// `[sim]`: the simulated board.
public struct SimulationSettings: Sendable, Equatable {
    /// The NMEA log the simulated receiver replays; empty = the bundled drive.
    public var gpsLog = ""
    /// Start again at the end of the log.
    public var loop = true
    /// Pauses in the log longer than this are shortened to it, seconds.
    public var maximumGapSeconds = 2.0
    /// The simulated IMU board.
    public var imu = SimulatedIMUChoice.berryIMUv3
    /// A recorded IMU (BROAD or x-io Fusion CSV) the simulated chips replay at recorded pace; empty =
    /// the motion generated from the replayed drive.
    public var imuLog = ""
}
