import Hardware
import IMU

/// The IMU link as a loop component: the IMU device on its bus (probe, initialization, faults and
/// backoff inside `IMUDevice`), why there is none, the state the log last said, and its counters.
/// `service` reads when the poll is due: one polled sample, or a FIFO burst (`[imu] burst_hz`), into
/// `burst`; the router fuses its readings into the heading in order (DeviceIMU.swift). With
/// `[imu] interrupt_line` the burst is read at the INT1 edge instead of by the timer, and timed by
/// the edge; the timer stays armed half a burst later as the fallback for a silent line.
struct IMULink {
    private(set) var device: IMUDevice<DeviceI2CBus>?
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
    init(bus: DeviceI2CBus?, problem: String?, mounting: MountingOrientation, pollIntervalNanoseconds: Int64,
         burstIntervalNanoseconds: Int64 = 0, interruptLine: Int? = nil, gpio: (any GPIOController)? = nil, slot: Int = -1) {
        self.problem = problem
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
    mutating func service(nowNanoseconds now: Int64, timerDue: Bool = true, edgeReady: Bool = false, output: DeviceOutput) -> Int {
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
            noteTimeout(now: now, output: output)
        }
        device!.poll(nowNanoseconds: now, into: &burst, watermarkEdgeNanoseconds: edge)
        noteState(output: output)
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
    private mutating func noteTimeout(now: Int64, output: DeviceOutput) {
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
    private mutating func noteState(output: DeviceOutput) {
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
