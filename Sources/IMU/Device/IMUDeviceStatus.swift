/// Where the IMU device state machine is:
/// probing → initializing → running → (fault) faulted → backoff → initializing (re-init) or probing.
public enum IMUDeviceState: Sendable, Equatable {
    /// Looking for an IMU on the bus.
    case probing
    /// Running the chip's initialization program (possibly waiting out a reset delay).
    case initializing
    /// Delivering samples.
    case running
    /// A fault just happened (see `IMUDeviceStatus.lastFault`); the next poll enters backoff.
    case faulted
    /// Waiting before the next recovery attempt (exponential backoff).
    case backoff

    /// Lower-case name for status output.
    public var name: StaticString {
        switch self {
        case .probing: "probing"
        case .initializing: "initializing"
        case .running: "running"
        case .faulted: "faulted"
        case .backoff: "backoff"
        }
    }
}

/// Counters of everything that went wrong, by kind. Fixed size, no heap.
public struct IMUErrorCounters: Sendable {
    private var busErrors: InlineArray<8, Int> = .init(repeating: 0)
    /// Identification register mismatches at (re-)initialization.
    public private(set) var wrongChip = 0
    /// Chips that did not come back after a reset in time.
    public private(set) var resetTimeouts = 0
    /// Stuck-output faults.
    public private(set) var stuckData = 0
    /// Data-timeout faults (no new sample for too long).
    public private(set) var dataTimeouts = 0
    /// Probes that found no supported IMU.
    public private(set) var probeFailures = 0
    /// Magnetometer samples dropped because the chip flagged a magnetic overflow.
    public private(set) var magnetometerOverflows = 0

    public init() {}

    /// Failed bus transfers of one kind.
    public subscript(kind: I2CErrorKind) -> Int { busErrors[kind.rawValue] }

    /// All failed bus transfers.
    public var busErrorTotal: Int {
        var total = 0
        var i = 0
        while i < 8 { total += busErrors[i]; i += 1 }
        return total
    }

    /// Counts one failed transfer.
    public mutating func count(_ error: I2CError) { busErrors[error.kind.rawValue] += 1 }

    /// Counts a fault that is not a single failed transfer.
    public mutating func count(_ fault: IMUFault) {
        switch fault {
        case .bus(let e): count(e)
        case .wrongChip: wrongChip += 1
        case .resetTimeout: resetTimeouts += 1
        case .stuckData: stuckData += 1
        case .dataTimeout: dataTimeouts += 1
        case .probe: probeFailures += 1
        }
    }

    /// Counts a magnetometer overflow.
    public mutating func countMagnetometerOverflow() { magnetometerOverflows += 1 }
}

/// The IMU device's state, chip and counters, for the console, LEDs and logs.
public struct IMUDeviceStatus: Sendable {
    /// State machine position.
    public var state: IMUDeviceState = .probing
    /// The chip in use (nil until a probe found one).
    public var chip: IMUChipInstance?
    /// Error counters by kind.
    public var errors = IMUErrorCounters()
    /// The most recent fault.
    public var lastFault: IMUFault?
    /// Monotonic time of the most recent fault, nanoseconds.
    public var lastFaultNanoseconds: Int64?
    /// Samples delivered.
    public var samples = 0
    /// Completed initializations (1 after start-up; more after recoveries).
    public var initializations = 0
    /// Faults (each leads to a backoff and a recovery attempt).
    public var faults = 0
    /// Failed transfers in a row while running (reset by a good sample).
    public var consecutiveErrors = 0
    /// FIFO bursts read (FIFO mode only).
    public var fifoBursts = 0
    /// FIFO overruns: the chip flagged lost samples; each reset the FIFO (FIFO mode only).
    public var fifoOverruns = 0

    public init() {}
}

/// Settings of the IMU device loop. Defaults suit 100 Hz chips on a Pi.
public struct IMUDeviceConfiguration: Sendable {
    /// Sensor → vehicle mounting.
    public var mounting: MountingOrientation = .identity
    /// LIS3MDL → LSM6DSL axis relation on separate-package boards (BerryIMU v3, BerryGPS-IMU v4);
    /// identity until checked on hardware.
    public var lis3mdlAxisRemap: IMUAxisRemap = .identity
    /// How often to poll a data-ready status while running, nanoseconds. A sample's timestamp is the
    /// midpoint between the poll that saw it and the previous (empty) poll, so the timestamp error is
    /// at most half of this.
    public var pollIntervalNanoseconds: Int64 = 2_000_000
    /// With a chip whose FIFO the driver reads: how often the FIFO is read in a burst, nanoseconds
    /// (0: the chip is polled every `pollIntervalNanoseconds` instead).
    public var burstIntervalNanoseconds: Int64 = 0
    /// With the FIFO read in bursts: route its watermark to the chip's INT1 pin, wired to a GPIO line
    /// whose rising edges the caller passes to `poll(nowNanoseconds:into:watermarkEdgeNanoseconds:)`.
    public var watermarkInterrupt = false
    /// Failed transfers in a row while running before the chip is declared faulted.
    public var maximumConsecutiveErrors = 3
    /// Samples with identical raw output in a row that count as stuck data (0 = never).
    public var stuckSampleLimit = 100
    /// No new sample for this long while running is a fault, nanoseconds.
    public var dataTimeoutNanoseconds: Int64 = 250_000_000
    /// First backoff after a fault, nanoseconds (doubles per fault up to the maximum).
    public var initialBackoffNanoseconds: Int64 = 50_000_000
    /// Longest backoff, nanoseconds.
    public var maximumBackoffNanoseconds: Int64 = 5_000_000_000

    public init() {}
}
