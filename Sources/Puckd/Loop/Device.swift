import IMU
import CLinux
import Configuration
import Console
import Controls
import Glibc
import GpsdServer
import Hardware
import Heading
import NMEA
import Simulation
import State
import SystemCalls
import Tracking

/// The device: one thread and one `poll()` over the GPS source, a timerfd for IMU sampling and the
/// tracking tick (armed for whichever is next; a tick near an IMU poll shares its wake-up), the button
/// lines, the PPS line, the console and a signalfd; bytes become
/// fixes (`NMEAPipeline`), IMU samples become headings (`HeadingEstimator`), both feed the puck and
/// camera (`TrackingCore`); buttons become core commands, LEDs show fix, mode and faults.
///
/// Built at start-up from a `DeviceSetup` (everything that allocates happens there); `run(gps:)`
/// then loops until SIGTERM/SIGINT. Each wake-up reads the monotonic clock once and passes it down,
/// and allocates nothing (proved by `DeviceAllocationTests`). Degraded instead of dead: a missing IMU,
/// GPIO chip, PPS input or state directory is reported once and the device runs without it.
public final class Device {
    // MARK: configuration
    /// The running configuration.
    public internal(set) var configuration: PuckdConfiguration
    /// The configuration as loaded (documents and where each value came from), for `config` and `config save`.
    var loaded: LoadedConfiguration
    /// `config KEY VALUE` changes not saved yet, in the order made (`section.key`, value text).
    var consoleChanges: [(key: String, value: String)] = []
    let sources: ConfigurationSources
    let gpsDescription: String

    // MARK: the pure core
    var pipeline: NMEAPipeline
    public internal(set) var heading: HeadingEstimator
    public internal(set) var core: TrackingCore
    var baudSearch: BaudRateSearch?
    /// Configuring the receiver: the configurator, the UBX reader, what the log said.
    let receiverLink: DeviceReceiverLink
    var calibration: DeviceCalibration
    var gyroCalibration = GyroscopeCalibration()
    /// The gyroscope bias measured by `calibrate gyro` or restored from the state, rad/s.
    var savedGyroBias: Vector3?
    /// Follow-puck options set on the console (`viewport follow zoom=…`), nil for the configured ones.
    var followViewport: SavedFollowViewport?

    // MARK: edges
    public internal(set) var imu: IMUDevice<DeviceI2CBus>?
    let imuProblem: String?
    public let simulation: SimulatedBoard?
    let gpio: (any GPIOController)?
    var buttons: ButtonPanel?
    var leds: LEDOutputs?
    let ledPatterns = LEDPatterns()
    var modeCycle: ButtonModeCycle<ModeCycleEntry>
    var presses = ButtonPressBatch()
    var ppsLine: GPIOLineHandle?
    var ppsDevice: PPSDevice?
    var ppsLastSequence: UInt32 = 0
    public internal(set) var pps = PPSPairing()
    var ppsEvents = GPIOEventBatch()
    let console: DeviceConsole?
    /// The gpsd-compatible server (`[server]`), nil when off (Outputs/DeviceGpsdServer.swift).
    let gpsdServer: GpsdServer?
    /// chrony's refclock socket (`[time] chrony_socket`), nil when none.
    let chrony: ChronySocket?
    var lastIMUSampleForServer: IMUSample?
    let stateStore: StateStore?
    let notifier: SystemdNotifier
    let output: DeviceOutput
    let signalDescriptor: Int32
    /// One timerfd, armed (absolute, one-shot) for the next IMU poll or tick, whichever comes first;
    /// a tick within `coalesceNanoseconds` of an IMU poll shares its wake-up.
    let wakeTimer: Int32
    var armedWakeNanoseconds: Int64 = 0
    var coalesceNanoseconds: Int64
    static let pollCapacity = 9
    let pollSet: UnsafeMutablePointer<pollfd>
    let readBuffer: UnsafeMutableRawBufferPointer
    var statusScratch = OutputBuffer(capacity: 512)
    let printsReport: Bool

    // MARK: time
    public let startNanoseconds: Int64
    var tickPeriodNanoseconds: Int64
    var nextTickNanoseconds: Int64
    let imuPeriodNanoseconds: Int64
    var nextStatusNanoseconds: Int64
    let stopAtNanoseconds: Int64?

    // MARK: what the device knows
    public internal(set) var lastFix: Fix?
    var lastFixNanoseconds: Int64?
    var lastPositionNanoseconds: Int64?
    var lastSentenceCount = 0
    var lastSentenceNanoseconds: Int64
    public internal(set) var lastGoodFix: SavedFix?
    var gpsStatus: SourceStatus = .connecting
    var baudLockLogged = false
    var gpsDescribed = false
    var lastLoggedGPSError: SourceError?
    var repeatedGPSErrors = 0
    var accuracySetting: AccuracyAuthorization
    public internal(set) var faults: DeviceFaults = []
    var loggedFaults: DeviceFaults = []
    var modeChangedAtNanoseconds: Int64
    var imuState: IMUDeviceState = .probing
    var imuFaultLogged = false
    var ppsProblem: String?
    var gpioProblem: String?
    var stateProblem: String?
    var stateWriteFailed = false
    public internal(set) var counters = DeviceCounters()
    /// The last GPS source error as text (the console's fault list), empty when none.
    var gpsErrorText = ConsoleText()
    /// Fixed texts of the console's source table and fault reasons, made at start-up.
    var consoleTexts = DeviceConsoleTexts()
    /// Allocations of the loop thread when the loop started (-1: the malloc counter is not linked).
    var allocationBaseline: Int64 = -1
    /// The outcome of the last finished calibration (console `heading`, `calibrate stop`).
    var lastCalibrationResult = ConsoleText()
    var resultScratch = OutputBuffer(capacity: 512)

    // MARK: state persistence
    var stateDirty = false
    var nextStateWriteNanoseconds: Int64 = 0
    var nextFixRefreshNanoseconds: Int64 = 0

    // MARK: control
    /// Why the loop stops: a signal number, or one of the `Device.stop…` reasons (negative); 0 = running.
    public internal(set) var stopSignal: Int32 = 0
    /// `stopSignal` values that are no signal.
    static let stopRunTime: Int32 = -1
    static let stopConsoleQuit: Int32 = -2
    static let stopEndOfInput: Int32 = -3
    static let stopOutputClosed: Int32 = -4
    /// SIGHUPs received since the last reload: all of them are served by the next one.
    var pendingReloadRequests = 0
    /// No reload before this monotonic time: a storm of SIGHUPs makes one reload per interval.
    var nextReloadNanoseconds: Int64 = 0
    /// The shortest time between two reloads, nanoseconds (1 s).
    static let reloadIntervalNanoseconds: Int64 = 1_000_000_000
    var startupReport: [String] = []
    /// The serial console's password (`[console] password_file`), and why it cannot be used when the
    /// file is set but unusable (a serial console then stays locked: it fails closed).
    var consolePassword: ConsolePassword?
    var consolePasswordProblem: String?
    var degradations: [String] = []

    /// Starts the device at `nowNanoseconds` (monotonic): loads the state, builds the core, requests the
    /// GPIO lines, probes the IMU, arms the timers. Problems with optional parts degrade it; the report
    /// (printed by `run`) says what was opened and what is missing.
    public init(setup: DeviceSetup, nowNanoseconds now: Int64) {
        let c = setup.loaded.configuration
        configuration = c
        loaded = setup.loaded
        sources = setup.sources
        gpsDescription = setup.gpsDescription
        simulation = setup.simulation
        gpio = setup.gpio
        gpsdServer = setup.gpsdServer
        chrony = c.time.chronySocketPath.map { ChronySocket(path: $0) }
        notifier = setup.notifier
        output = DeviceOutput(fileDescriptor: setup.outputDescriptor)
        signalDescriptor = setup.signalDescriptor
        stopAtNanoseconds = setup.stopAtNanoseconds
        printsReport = setup.printsReport
        imuProblem = setup.imuProblem
        gpioProblem = setup.gpioProblem
        startNanoseconds = now
        lastSentenceNanoseconds = now
        modeChangedAtNanoseconds = now
        readBuffer = .allocate(byteCount: 256, alignment: 16)
        pollSet = .allocate(capacity: Self.pollCapacity)
        pollSet.initialize(repeating: pollfd(fd: -1, events: 0, revents: 0), count: Self.pollCapacity)
        tickPeriodNanoseconds = 1_000_000_000 / Int64(c.loop.tickHertz)
        nextTickNanoseconds = now + tickPeriodNanoseconds
        imuPeriodNanoseconds = 1_000_000_000 / Int64(c.imu.rateHertz)
        nextStatusNanoseconds = now
        var epochs = EpochAssembler.Configuration()
        epochs.quietCloseFraction = c.gps.quietCloseFraction
        epochs.dates = c.gps.datePivot.resolver(recorded: setup.gpsIsRecording || setup.simulation != nil)
        pipeline = NMEAPipeline(strict: c.gps.strict, configuration: epochs)
        receiverLink = DeviceReceiverLink(c.gps)
        calibration = DeviceCalibration(goalCoverageFraction: c.heading.goodCoverageFraction)
        modeCycle = (try? ButtonModeCycle(c.gpio.modeCycle)) ?? (try! ButtonModeCycle([ModeCycleEntry.mode(.none)]))
        accuracySetting = c.tracking.accuracy

        // State.
        var saved: DeviceStateRecord?
        var stateLines: [String] = []
        do {
            switch StateStore.open(directory: c.state.directory) {
            case .success(let store):
                stateStore = store
                switch store.load() {
                case .none:
                    stateLines.append("state: " + store.path + ": none yet (first start), defaults apply")
                case .loaded(let record):
                    saved = record
                    stateLines.append("state: " + store.path + ": loaded (mode " + record.trackingMode.name.description
                        + (record.lastFix.map { ", last fix " + Self.coordinates($0) } ?? ", no fix yet")
                        + (record.calibration != nil ? ", magnetometer calibration" : ", no magnetometer calibration") + ")")
                case .corrupt(let error, let movedTo):
                    stateLines.append("state: " + store.path + " is damaged (" + error.reason + "); "
                        + (movedTo.map { "moved it to " + $0 } ?? "could not move it aside") + "; starting from defaults")
                case .unreadable(let code, let movedTo):
                    stateLines.append("state: cannot read " + store.path + " (" + code.message + "); "
                        + (movedTo.map { "moved it to " + $0 } ?? "could not move it aside") + "; starting from defaults")
                }
                if store.removedStaleTemporary {
                    stateLines.append("state: removed " + store.directory + "/state.tmp, left by a save that was cut short "
                        + "(the state file itself is whole)")
                }
            case .failure(let error):
                stateStore = nil
                stateProblem = error.message
            }
        }
        if let record = saved, record.accuracy != accuracySetting { accuracySetting = record.accuracy }
        lastGoodFix = saved?.lastFix

        // Heading and tracking core.
        savedGyroBias = saved?.gyroBiasRadiansPerSecond
        followViewport = saved?.followViewport
        heading = HeadingEstimator(configuration: c.heading,
                                   calibration: Self.calibration(saved?.calibration, gyroBias: saved?.gyroBiasRadiansPerSecond))
        var coreConfiguration = c.tracking.coreConfiguration()
        if let fix = saved?.lastFix {
            coreConfiguration.initialLatitudeDegrees = fix.latitudeDegrees
            coreConfiguration.initialLongitudeDegrees = fix.longitudeDegrees
            coreConfiguration.initialZoom = c.tracking.trackingZoom
        }
        core = (try? TrackingCore(configuration: coreConfiguration)) ?? (try! TrackingCore())
        if let fix = saved?.lastFix {
            // The last known location, fed as a fix older than the stale timeout: the puck starts stale
            // ("acquiring") where it was, until the first fresh fix.
            let age = Int64((c.tracking.staleSeconds + 1) * 1e9)
            core.updateLocation(fix.fix, atNanoseconds: now - age)
            heading.updateLocation(latitudeDegrees: fix.latitudeDegrees, longitudeDegrees: fix.longitudeDegrees,
                                   heightMeters: fix.altitudeMSLMeters ?? 0,
                                   utcNanoseconds: fix.utcNanoseconds ?? 1_767_225_600_000_000_000)
        }
        core.changeAuthorization(status: saved?.authorization ?? .authorized, accuracy: accuracySetting, atNanoseconds: now)
        core.setShowsUserLocation(saved?.showsLocation ?? c.tracking.showsLocation, atNanoseconds: now)
        core.setTrackingMode(saved?.trackingMode ?? c.tracking.mode, animated: true, atNanoseconds: now)
        switch saved?.viewport ?? c.tracking.viewport {
        case .idle: break
        case .followPuck:
            core.transitionViewport(to: .followPuck(saved?.followViewport?.options ?? c.tracking.followOptions),
                                    transition: .immediate, atNanoseconds: now)
        case .overview:
            core.transitionViewport(to: .overview(OverviewOptions()), transition: .immediate, atNanoseconds: now)
        }
        while core.popEvent() != nil {}

        // IMU.
        if let bus = setup.imuBus {
            var imuConfiguration = IMUDeviceConfiguration()
            imuConfiguration.mounting = c.imu.mounting
            imuConfiguration.pollIntervalNanoseconds = imuPeriodNanoseconds
            imu = IMUDevice(bus: bus, configuration: imuConfiguration)
        } else {
            imu = nil
        }

        // Timers and console.
        wakeTimer = clinux_timerfd_create()
        coalesceNanoseconds = imu == nil ? 0 : min(imuPeriodNanoseconds, tickPeriodNanoseconds) / 2
        switch setup.console {
        case .none:
            console = nil
        case .standardStreams(let input, let output, let interactive, let rawMode):
            console = DeviceConsole(transport: ConsoleTransport(standardInput: input, output: output, interactive: interactive,
                                                                rawMode: rawMode),
                                    startCommand: c.console.startCommand, name: "standard input/output")
        case .serial(let path, let baud):
            console = DeviceConsole(transport: ConsoleTransport(serialPath: path, baudRate: baud),
                                    startCommand: c.console.startCommand, name: path)
        }
        loadConsolePassword(c.console.passwordFile)

        startupReport = stateLines + setup.gpsdServerReport
        openGPIO(now: now)
        openPPS()
        probeIMU(now: now)
        buildReport(now: now)
        nextStateWriteNanoseconds = now
        nextFixRefreshNanoseconds = now
        prepareConsoleState()
    }

    /// The magnetometer calibration to start the heading with, carrying `gyroBias` (which seeds the
    /// filter's bias estimate even when there is no magnetometer calibration).
    static func calibration(_ magnetometer: MagnetometerCalibration?, gyroBias: Vector3?) -> MagnetometerCalibration? {
        guard let gyroBias else { return magnetometer }
        var c = magnetometer ?? .identity
        c.gyroBiasRadiansPerSecond = gyroBias
        return c
    }

    deinit {
        readBuffer.deallocate()
        pollSet.deallocate()
        if wakeTimer >= 0 { Glibc.close(wakeTimer) }
    }

    /// "41.5749660 -93.7505720" (allocates; reports only).
    static func coordinates(_ fix: SavedFix) -> String {
        func f(_ v: Double) -> String {
            let scaled = (v * 1e7).rounded()
            let sign = scaled < 0 ? "-" : ""
            let magnitude = Int64(abs(scaled))
            let fraction = String(magnitude % 10_000_000)
            return sign + String(magnitude / 10_000_000) + "." + String(repeating: "0", count: 7 - fraction.count) + fraction
        }
        return f(fix.latitudeDegrees) + " " + f(fix.longitudeDegrees)
    }
}
