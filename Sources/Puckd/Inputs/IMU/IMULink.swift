import IMU

/// The IMU link as a loop component: the IMU device on its bus (probe, initialization, faults and
/// backoff inside `IMUDevice`), why there is none, the state the log last said, and its counters.
/// `service` reads when the poll is due: one polled sample, or a FIFO burst (`[imu] burst_hz`), into
/// `burst`; the router fuses its readings into the heading in order (DeviceIMU.swift).
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

    /// The IMU on `bus` polled every `pollIntervalNanoseconds`, or with `burstIntervalNanoseconds` > 0
    /// read in FIFO bursts that often where the chip's driver reads its FIFO (start-up).
    init(bus: DeviceI2CBus?, problem: String?, mounting: MountingOrientation, pollIntervalNanoseconds: Int64,
         burstIntervalNanoseconds: Int64 = 0) {
        self.problem = problem
        isPresent = bus != nil
        guard let bus else { return }
        var configuration = IMUDeviceConfiguration()
        configuration.mounting = mounting
        configuration.pollIntervalNanoseconds = pollIntervalNanoseconds
        configuration.burstIntervalNanoseconds = burstIntervalNanoseconds
        let opened = IMUDevice(bus: bus, configuration: configuration)
        deadlineNanoseconds = opened.nextPollNanoseconds
        device = opened
    }

    /// The device's status (chip, state, faults, error counters); nil without an IMU.
    var status: IMUDeviceStatus? { device?.status }

    /// When the next poll is due, monotonic ns (nil: no IMU); the device's, kept after each poll.
    private(set) var deadlineNanoseconds: Int64?

    /// Polls once at start-up so the report can say which chip answered (or why none did).
    mutating func probe(nowNanoseconds now: Int64) {
        guard device != nil else { return }
        _ = device?.poll(nowNanoseconds: now)
        deadlineNanoseconds = device?.nextPollNanoseconds
        loggedState = device?.status.state ?? .probing
    }

    /// Polls the IMU at `now` (the board twin has let the simulated chips catch up) into `burst`;
    /// returns how many readings it holds. Logs state changes and the first FIFO overrun.
    mutating func service(nowNanoseconds now: Int64, output: DeviceOutput) -> Int {
        polls &+= 1
        guard device != nil else { burst.removeAll(); return 0 }
        device!.poll(nowNanoseconds: now, into: &burst)
        deadlineNanoseconds = device?.nextPollNanoseconds
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
