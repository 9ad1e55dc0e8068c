import Configuration
import Hardware
import Heading
import IMU
import State
import Tracking

/// The IMU link as a loop component: the IMU device on its bus (probe, initialization, faults and
/// backoff inside `IMUDevice`), why there is none, the state the log last said, its counters, and
/// what its samples become: the heading estimator, the calibration runs (magnetometer and gyroscope)
/// and the last sample (the gpsd server's ATT). `service` reads when the poll is due: one polled
/// sample, or a FIFO burst (`[imu] burst_hz`), into `burst`, fuses its readings in order, feeds a
/// running calibration and returns the heading samples for the tracking core (IMULink+Component.swift).
/// With `[imu] interrupt_line` the burst is read at the INT1 edge instead of by the timer, and timed by
/// the edge; the timer stays armed half a burst later as the fallback for a silent line.
struct IMULink {
    private(set) var device: IMUDevice<DeviceI2CBus>?
    /// The heading estimator the samples are fused into (AHRS, magnetometer calibration, declination).
    var heading: HeadingEstimator
    /// The magnetometer calibration run and the gyroscope bias measurement (one runs at a time).
    var calibration: DeviceCalibration
    var gyroCalibration = GyroscopeCalibration()
    /// The gyroscope bias measured by `calibrate gyro` or restored from the state, rad/s.
    var savedGyroBias: Vector3?
    /// The newest sample read (the gpsd server's ATT reports its raw axes), nil before the first.
    var lastSample: IMUSample?
    /// The heading samples of the last service for the tracking core, oldest first (`Events.headings`).
    var headingSamples = InlineArray<32, HeadingSample>(repeating: HeadingSample(
        timeNanoseconds: 0, trueHeadingDegrees: nil, magneticHeadingDegrees: nil, headingAccuracyDegrees: nil, source: .imu))
    /// Samples after which the estimator published a heading.
    var headingsPublished: UInt64 = 0
    /// The last position fix routed to the link (or the saved one): a re-seeded estimator starts there.
    var lastPosition: SavedFix?
    /// The UTC time of the last fix routed to the link, ns since 1970: stamped on a fitted calibration.
    var lastFixUTCNanoseconds: Int64?
    /// The calibration run's timeout as started, seconds (the failure line says it).
    var calibrationTimeoutSeconds = 0.0
    /// The last calibration's outcome, one line (console `heading`, `calibrate stop`).
    let calibrationResult = CalibrationResultLine()
    /// The log (state changes, FIFO overruns, calibration results): made once at start-up.
    let output: DeviceOutput
    /// True when an IMU bus was opened (the device exists, whether or not a chip answers).
    let isPresent: Bool
    /// Why the configured IMU could not be opened (nil: opened, or none configured).
    let problem: String?
    private var loggedState: IMUDeviceState = .probing
    private var faultLogged = false
    private(set) var polls: UInt64 = 0
    private(set) var samples: UInt64 = 0
    /// The readings of the last service, oldest first (a fixed buffer: no allocation per burst).
    private(set) var burst = IMUBurst()
    private var overrunLogged = false
    /// The INT1 line (`[imu] interrupt_line`), nil without one or when it could not be requested.
    private(set) var interrupt: IMUInterruptLine?
    /// Why the configured interrupt line is not used (nil: used, or none configured).
    let interruptProblem: String?
    /// How long after a burst was due the timer reads it when no edge came, nanoseconds.
    private let fallbackSlackNanoseconds: Int64
    /// Bursts read by the timer because no edge came in time (a missed edge or a silent line).
    private(set) var interruptTimeouts: UInt64 = 0
    /// Bursts read at an edge.
    private(set) var interruptBursts: UInt64 = 0
    private var timeoutLogged = false

    /// The IMU on `bus` polled every `pollIntervalNanoseconds`, or with `burstIntervalNanoseconds` > 0
    /// read in FIFO bursts that often where the chip's driver reads its FIFO; with `interruptLine` on
    /// `gpio`, at the FIFO watermark's INT1 edges, the line's descriptor in poll slot `slot` (start-up).
    /// The heading starts from `saved` (magnetometer calibration, gyroscope bias, last position).
    init(bus: DeviceI2CBus?, problem: String?, mounting: MountingOrientation, pollIntervalNanoseconds: Int64,
         burstIntervalNanoseconds: Int64 = 0, interruptLine: Int? = nil, gpio: (any GPIOController)? = nil, slot: Int = -1,
         heading settings: HeadingConfiguration, saved: DeviceStateRecord?, output: DeviceOutput) {
        self.problem = problem
        self.output = output
        calibration = DeviceCalibration(goalCoverageFraction: settings.goodCoverageFraction)
        savedGyroBias = saved?.gyroBiasRadiansPerSecond
        heading = HeadingEstimator(configuration: settings,
                                   calibration: Self.calibration(saved?.calibration, gyroBias: saved?.gyroBiasRadiansPerSecond))
        lastPosition = saved?.lastFix
        if let fix = saved?.lastFix { Self.seedLocation(&heading, fix) }
        isPresent = bus != nil
        fallbackSlackNanoseconds = burstIntervalNanoseconds / 2
        var lineProblem: String?
        if let offset = interruptLine, bus != nil {
            if burstIntervalNanoseconds == 0 {
                lineProblem = "[imu] interrupt_line \(offset) is set but burst_hz = 0 (polled): the line is not used; set burst_hz"
            } else if let gpio {
                do throws(GPIOError) { interrupt = try IMUInterruptLine(gpio: gpio, offset: offset, slot: slot) } catch {
                    lineProblem = "IMU interrupt line \(offset): " + error.description + "; the FIFO is read by the timer"
                }
            } else {
                lineProblem = "IMU interrupt line \(offset): no GPIO chip; the FIFO is read by the timer"
            }
        }
        interruptProblem = lineProblem
        guard let bus else { return }
        var configuration = IMUDeviceConfiguration()
        configuration.mounting = mounting
        configuration.pollIntervalNanoseconds = pollIntervalNanoseconds
        configuration.burstIntervalNanoseconds = burstIntervalNanoseconds
        configuration.watermarkInterrupt = interrupt != nil
        device = IMUDevice(bus: bus, configuration: configuration)
    }

    /// The device's status (chip, state, faults, error counters); nil without an IMU.
    var status: IMUDeviceStatus? { device?.status }

    /// True while the burst waits for the INT1 edge (the chip routes its watermark there and no more
    /// samples are known to be waiting): the timer is then only the fallback.
    var waitsForEdges: Bool { interrupt != nil && device?.signalsWatermark == true && !burst.moreAvailable }

    /// When the next poll is due, monotonic ns (nil: no IMU): the device's; while waiting for edges,
    /// half a burst interval after it (the fallback for a missed edge or a silent line).
    var deadlineNanoseconds: Int64? {
        guard let next = device?.nextPollNanoseconds else { return nil }
        return waitsForEdges ? next + fallbackSlackNanoseconds : next
    }

    /// The INT1 line's event descriptor, for the poll set (nil: none).
    func fillPollSlots(_ poll: inout PollSet) {
        guard let interrupt else { return }
        poll.set(interrupt.slot, descriptor: interrupt.descriptor, events: .readable)
    }

    /// Polls once at start-up so the report can say which chip answered (or why none did).
    mutating func probe(nowNanoseconds now: Int64) {
        guard device != nil else { return }
        _ = device?.poll(nowNanoseconds: now)
        loggedState = device?.status.state ?? .probing
    }

    /// Polls the IMU at `now` (the board twin has let the simulated chips catch up) into `burst`;
    /// returns how many readings it holds. `edgeReady`: the INT1 line's descriptor was readable;
    /// `timerDue`: the deadline passed. An edge reads the burst timed by the edge's kernel timestamp;
    /// the timer while waiting for edges is a fallback (counted, said once). Logs state changes and
    /// the first FIFO overrun.
    mutating func readBurst(nowNanoseconds now: Int64, timerDue: Bool, edgeReady: Bool) -> Int {
        let waited = waitsForEdges
        var edge: Int64?
        if edgeReady, interrupt != nil { edge = interrupt!.takeNewestRisingEdge() }
        if !waited { edge = nil }
        guard edge != nil || timerDue else { burst.removeAll(); return 0 }
        polls &+= 1
        guard device != nil else { burst.removeAll(); return 0 }
        if edge != nil {
            interruptBursts &+= 1
        } else if waited {
            noteTimeout(now: now)
        }
        device!.poll(nowNanoseconds: now, into: &burst, watermarkEdgeNanoseconds: edge)
        noteState()
        samples &+= UInt64(burst.count)
        if burst.overrun, !overrunLogged {
            overrunLogged = true
            output.line(.warning) { out in
                out.append("imu: FIFO overrun (samples lost: the loop read it too late); FIFO reset, counted in stats imu.fifoOverruns")
            }
        }
        return burst.count
    }

    /// A burst read by the fallback timer: counted; said once (a wrong wire must not stop the heading).
    private mutating func noteTimeout(now: Int64) {
        interruptTimeouts &+= 1
        if timeoutLogged { return }
        timeoutLogged = true
        let offset = interrupt?.line.offset ?? 0
        output.line(.warning) { out in
            out.append("imu: no FIFO watermark edge on interrupt line ")
            out.append(int: Int(offset))
            out.append(" in time: the FIFO is read by the timer until edges come (check the INT1 wire and [imu] interrupt_line); counted in stats imu.interruptTimeouts")
        }
    }

    /// The start-up report's words on the interrupt line (nil: none configured).
    var interruptReportText: String? {
        if let interrupt {
            return "read at INT1 edges on line \(interrupt.line.offset)" + (device?.routesWatermark == true ? ""
                : " (this chip's driver does not route its FIFO watermark to INT1 yet: the timer reads it)")
        }
        return interruptProblem != nil ? "interrupt line not used (see degraded)" : nil
    }

    /// FIFO bursts read and overruns (0 when polled).
    var fifoBursts: Int { device?.status.fifoBursts ?? 0 }
    var fifoOverruns: Int { device?.status.fifoOverruns ?? 0 }

    /// Logs IMU state changes (running, faulted) once each.
    private mutating func noteState() {
        guard let status = device?.status, status.state != loggedState else { return }
        loggedState = status.state
        switch status.state {
        case .running:
            faultLogged = false
            output.line { out in
                out.append("imu: running")
                if let chip = status.chip { out.append(" ("); out.append(chip.chip.name); out.append(")") }
                if status.initializations > 1 { out.append(" again after a fault") }
            }
        case .faulted:
            if faultLogged { return }
            faultLogged = true
            output.line(.error) { out in
                out.append("imu: ")
                if let fault = status.lastFault { out.append(fault.summary) } else { out.append("fault") }
                out.append("; the bearing falls back to the GPS course while puckd retries")
            }
        case .probing, .initializing, .backoff:
            break
        }
    }
}
