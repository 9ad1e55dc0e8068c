import Configuration
import GpsdServer
import Hardware
import Simulation
import SystemCalls

/// What `puckd run` opened before the device starts: the configuration and the hardware edges (each
/// possibly missing, with the reason), the systemd notifier, and the descriptors to use.
public struct DeviceSetup {
    /// The loaded configuration and where it came from.
    public var loaded: LoadedConfiguration
    public var sources: ConfigurationSources
    /// The GPS source as the report shows it, e.g. "/dev/serial0 at 9600 baud".
    public var gpsDescription: String
    /// The GPIO chip, or nil with the reason.
    public var gpio: (any GPIOController)?
    public var gpioProblem: String?
    /// The IMU bus, or nil with the reason (nil reason: no IMU configured).
    public var imuBus: DeviceI2CBus?
    public var imuProblem: String?
    /// The simulated board, when the profile is simulated.
    public var simulation: SimulatedBoard?
    /// True when the GPS bytes are a recording (a FILE source, the simulated board's log): receiver
    /// dates are then the log's own (`GPSDatePivot.resolver(recorded:)`).
    public var gpsIsRecording = false
    /// The signalfd of SIGTERM, SIGINT and SIGHUP (`clinux_device_signalfd`); nil for none (tests).
    public var signalDescriptor: FileDescriptor?
    /// Where report, log and status lines go (standard error when the console owns standard output).
    public var outputDescriptor: FileDescriptor = .standardOutput
    /// The console.
    public var console: DeviceConsoleEndpoint = .none
    /// The systemd notifier (inactive unless `$NOTIFY_SOCKET` is set).
    public var notifier = SystemdNotifier(socketPath: nil)
    /// Stop by itself at this monotonic time (tests, benchmarks); nil: run until a signal.
    public var stopAtNanoseconds: Int64?
    /// The gpsd-compatible server `puckd run` opened (`Device.openGpsdServer`), and its report lines.
    public var gpsdServer: GpsdServer?
    public var gpsdServerReport: [String] = []
    /// Keys that replace NTP0 + unit for `[time] shm` (tests: `SharedMemorySegment.privateKey`); nil: the units' own.
    public var ntpSharedMemoryKeys: (coarse: Int32, pulse: Int32)?
    /// The track journal's files (nil: the board's disk with the flusher thread; tests pass the simulated disk).
    public var trackFiles: DeviceTrackFiles?
    /// Print the start-up report.
    public var printsReport = true
    /// Ticks on demand (docs/power.md §2): the tracking tick runs at the full rate only while the
    /// camera or the puck animates or a reader wants frames, otherwise after an input and at the next
    /// time-based change. `puckd run` sets it; false keeps the steady full-rate tick.
    public var ticksOnDemand = false

    public init(loaded: LoadedConfiguration, sources: ConfigurationSources, gpsDescription: String) {
        self.loaded = loaded
        self.sources = sources
        self.gpsDescription = gpsDescription
    }
}
