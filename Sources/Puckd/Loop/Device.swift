import IMU
import Configuration
import Console
import Controls
import GpsdServer
import Hardware
import Heading
import NMEA
import Simulation
import State
import SystemCalls
import Tracking

/// The device: one thread, one `poll()`, and a router over owned components (the wake scheduler,
/// GPS link, IMU link, controls, PPS input, persistence, board twin and console link; see
/// DEVELOPERS.md, "The loop's parts"). Each wake-up reads the monotonic clock once, services the parts
/// whose descriptors are ready or whose deadlines passed, and routes what they produce: fixes and IMU
/// samples to the heading and the tracking core (puck and camera), presses and console commands to core
/// commands, the core's events to the LEDs and the state.
///
/// Built at start-up from a `DeviceSetup` (everything that allocates happens there); `run(gps:)`
/// then loops until a `StopReason`. A wake-up allocates nothing (proved by `DeviceAllocationTests`).
/// Degraded instead of dead: a missing IMU, GPIO chip, PPS input or state directory is reported once
/// and the device runs without it.
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
    /// The GPS link: pipeline, baud search, receiver configurator, source status.
    let gpsLink: GPSLink
    public internal(set) var core: TrackingCore
    /// Follow-puck options set on the console (`viewport follow zoom=…`), nil for the configured ones.
    var followViewport: SavedFollowViewport?

    // MARK: edges
    /// The IMU device, its probe state and counters, the heading estimator and the calibration runs.
    var imuLink: IMULink
    /// The world around the board: nothing on hardware, the simulated board's receiver, motion and hand.
    let board: BoardTwin
    let gpio: (any GPIOController)?
    /// Buttons, LEDs, the mode cycle.
    var controls: ControlsLink
    /// The PPS line or kernel PPS device and its pairing with whole-second fixes.
    var ppsInput: PPSInput
    let console: DeviceConsole?
    /// The gpsd-compatible server (`[server]`), nil when off (Outputs/DeviceGpsdServer.swift).
    let gpsdServer: GpsdServer?
    /// Its listening addresses as the console's `server` view shows them.
    let serverListening: ConsoleText
    /// chrony's refclock socket (`[time] chrony_socket`), nil when none.
    let chrony: ChronySocket?
    /// chrony's refclock socket for PPS pulse samples (`[time] chrony_pps_socket`), nil when none.
    let chronyPPS: ChronySocket?
    /// NTP shared memory (`[time] shm`): the coarse unit and the PPS unit, nil when none (Outputs/DeviceNTPSharedMemory.swift).
    let ntpShm: NTPSharedMemory?
    let ntpShmPPS: NTPSharedMemory?
    /// The track journal (`[track]`, Outputs/DeviceTrackRecorder.swift).
    let trackRecorder: DeviceTrackRecorder
    /// The fleet uplinks (`[uplink]`, Outputs/DeviceUplink.swift): MQTT and OsmAnd, each off unless its URL is set.
    let uplink: DeviceUplink
    /// The state file: store, dirty flag, write intervals.
    var persistence: Persistence
    let notifier: SystemdNotifier
    let output: DeviceOutput
    let signalDescriptor: FileDescriptor?
    /// The timerfd, the tick schedule and the poll set.
    var scheduler: WakeScheduler
    var statusScratch = OutputBuffer(capacity: 512)
    let printsReport: Bool

    // MARK: time
    /// Ticks on demand (`DeviceSetup.ticksOnDemand`, Loop/DeviceTickDemand.swift).
    let ticksOnDemand: Bool
    /// On demand: an input asked for a tick (cleared by the tick).
    var tickRequested = false
    public let startNanoseconds: Int64
    let imuPeriodNanoseconds: Int64
    var nextStatusNanoseconds: Int64
    let stopAtNanoseconds: Int64?

    // MARK: what the device knows
    public internal(set) var lastGoodFix: SavedFix?
    var accuracySetting: AccuracyAuthorization
    public internal(set) var faults: DeviceFaults = []
    var loggedFaults: DeviceFaults = []
    var gpioProblem: String?
    /// Counters of the parts the router runs itself (GPS, IMU, console, reloads); `counters` adds the
    /// components' own.
    var routerCounters = DeviceCounters()
    /// Fixed texts of the console's source table and fault reasons, made at start-up.
    var consoleTexts = DeviceConsoleTexts()
    /// Allocations of the loop thread when the loop started (-1: the malloc counter is not linked).
    var allocationBaseline: Int64 = -1
    /// A line built before it is logged or answered (console access replies).
    var resultScratch = OutputBuffer(capacity: 512)

    // MARK: control
    /// Why the loop stops; nil while it runs.
    public internal(set) var stopReason: StopReason?
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
        board = BoardTwin(setup.simulation)
        gpio = setup.gpio
        gpsdServer = setup.gpsdServer
        serverListening = Device.listeningText(setup.gpsdServer)
        chrony = c.time.chronySocketPath.map { ChronySocket(path: $0) }
        chronyPPS = c.time.chronyPPSSocketPath.map { ChronySocket(path: $0) }
        let shm = Device.openNTPSharedMemory(c, keys: setup.ntpSharedMemoryKeys)
        (ntpShm, ntpShmPPS) = (shm.coarse, shm.pulse)
        notifier = setup.notifier
        output = DeviceOutput(fileDescriptor: setup.outputDescriptor)
        signalDescriptor = setup.signalDescriptor
        stopAtNanoseconds = setup.stopAtNanoseconds
        printsReport = setup.printsReport
        ticksOnDemand = setup.ticksOnDemand
        gpioProblem = setup.gpioProblem
        startNanoseconds = now
        imuPeriodNanoseconds = 1_000_000_000 / Int64(c.imu.rateHertz)
        nextStatusNanoseconds = now
        var epochs = EpochAssembler.Configuration()
        epochs.quietCloseFraction = c.gps.quietCloseFraction
        // Until the receiver's cycle ender is learned, an epoch closes at the end of its burst, a few
        // character times at the line's speed (docs/nmea-epochs.md §1, a quiet line); auto-baud: the slowest rate tried.
        if case .fixed(let rate) = c.gps.baud {
            epochs.lineCharacterNanoseconds = EpochAssembler.characterNanoseconds(baud: rate)
        } else {
            epochs.lineCharacterNanoseconds = EpochAssembler.characterNanoseconds(baud: 4800)
        }
        epochs.dates = c.gps.datePivot.resolver(recorded: setup.gpsIsRecording || setup.simulation != nil)
        accuracySetting = c.tracking.accuracy

        // State.
        persistence = Persistence(directory: c.state.directory, nowNanoseconds: now)
        trackRecorder = DeviceTrackRecorder(c.track, stateDirectory: c.state.directory, files: setup.trackFiles, output: output)
        let saved = persistence.saved
        if let record = saved, record.accuracy != accuracySetting { accuracySetting = record.accuracy }
        lastGoodFix = saved?.lastFix

        // Tracking core (the heading estimator is the IMU link's, below).
        followViewport = saved?.followViewport
        var coreConfiguration = c.tracking.coreConfiguration()
        // The one heading filter (tracking.md 4.2) is the core's; its key is `[heading] heading_filter_deg`.
        coreConfiguration.headingFilterDegrees = min(180, max(0, c.heading.headingFilterDegrees))
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
        // Timers and console.
        scheduler = WakeScheduler(tickHertz: c.loop.tickHertz, imuPeriodNanoseconds: setup.imuBus == nil ? nil : imuPeriodNanoseconds,
                                  nowNanoseconds: now)
        imuLink = IMULink(bus: setup.imuBus, problem: setup.imuProblem, mounting: c.imu.mounting,
                          pollIntervalNanoseconds: imuPeriodNanoseconds,
                          burstIntervalNanoseconds: c.imu.burstHertz > 0 ? 1_000_000_000 / Int64(c.imu.burstHertz) : 0,
                          interruptLine: c.imu.interruptLine, gpio: setup.gpio, slot: scheduler.pollSet.reserve(1).first,
                          heading: c.heading, saved: saved, output: output)
        let slots = scheduler.routerSlots
        var degradations: [String] = []
        if gpio == nil, !c.gpio.disabled, let gpioProblem = setup.gpioProblem {
            degradations.append("no buttons and LEDs: " + gpioProblem)
        }
        controls = ControlsLink(c.gpio, gpio: setup.gpio, output: output, slots: PollSlots(first: slots[3], count: 2), nowNanoseconds: now,
                                degradations: &degradations)
        ppsInput = PPSInput(c.pps, gpio: setup.gpio, slot: slots[5])
        let machineID: String? = c.uplink.deviceID.isEmpty && !(c.uplink.mqttURL.isEmpty && c.uplink.osmandURL.isEmpty)
            ? (try? WholeFile.read("/etc/machine-id", limitBytes: 256)).map { String(decoding: $0, as: UTF8.self) } : nil
        uplink = DeviceUplink(c.uplink, track: c.track, stateDirectory: c.state.directory, machineID: machineID,
                              slots: scheduler.pollSet.reserve(4), output: output)
        degradations += uplink.degradations
        self.degradations = degradations
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
        console?.slots = PollSlots(first: slots[6], count: 2)
        gpsLink = GPSLink(c.gps, epochs: epochs, output: output, console: console, nowNanoseconds: now)
        loadConsolePassword(c.console.passwordFile)

        startupReport = persistence.reportLines + trackRecorder.reportLines + uplink.reportLines + setup.gpsdServerReport + shm.lines
        probeIMU(now: now)
        buildReport(now: now)
        prepareConsoleState()
    }

    /// The last fix the GPS link completed.
    public var lastFix: Fix? { gpsLink.lastFix }

    deinit {
        scheduler.close()
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
