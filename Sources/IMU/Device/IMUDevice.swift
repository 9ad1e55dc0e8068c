/// The IMU as the device loop sees it: call `poll(nowNanoseconds:)` at `nextPollNanoseconds` (or on
/// any tick) and get a board-frame `IMUReading` whenever the chip has a new sample.
///
/// Internally a small state machine: **probing** the bus (`IMUProbe`) → **initializing** (the
/// chip's register program, delays honoured without blocking) → **running** (data-ready polling,
/// burst reads, scaling, axis remap, mounting) → on a fault (persistent I/O errors, wrong chip, stuck
/// output, data timeout) **faulted** → **backoff** (50 ms doubling to 5 s) → re-initialization of the
/// same chip (every fourth recovery attempt re-probes the whole bus instead). Isolated I/O errors
/// while running are counted and skipped; `maximumConsecutiveErrors` in a row make a fault.
///
/// Pure: the bus is generic (`I2CBus`), time comes in as monotonic nanoseconds. After start-up a poll
/// allocates nothing (proved by the driver allocation test).
public struct IMUDevice<Bus: I2CBus> {
    /// The bus (owned; a class-backed bus is shared).
    public var bus: Bus
    /// Settings.
    public let configuration: IMUDeviceConfiguration
    /// State, chip, counters, last fault.
    public internal(set) var status = IMUDeviceStatus()
    /// When the loop should call `poll` next, monotonic nanoseconds.
    public internal(set) var nextPollNanoseconds: Int64 = 0
    /// The most recent bus probe (nil before the first).
    public private(set) var lastProbe: IMUProbeReport?
    /// True while samples come from the chip's FIFO in bursts (`poll(nowNanoseconds:into:)`).
    public var readsFIFO: Bool { driver?.readsFIFO ?? false }
    /// True while running with the FIFO watermark routed to INT1 (the caller waits for its edges).
    public var signalsWatermark: Bool { status.state == .running && routesWatermark }
    /// True when the chip's program routes the FIFO watermark to INT1 (asked for, and its driver can).
    public var routesWatermark: Bool { driver?.signalsWatermark == true }

    var driver: IMUDriver?
    private var runner = IMUInitRunner()
    var backoffNanoseconds: Int64
    private var backoffDeadlineNanoseconds: Int64 = 0
    var lastNewDataNanoseconds: Int64 = 0
    private var previousEmptyPollNanoseconds: Int64?
    var lastFingerprint: UInt64 = 0
    var identicalSamples = 0
    var recoveryAttempts = 0
    /// Times of FIFO samples (the chip's rate once running).
    var sampleClock = IMUSampleClock(outputDataRateHertz: 100)
    /// The next burst follows samples lost to an overrun.
    var fifoGapPending = false

    /// A device that probes the bus for its IMU on the first poll.
    public init(bus: Bus, configuration: IMUDeviceConfiguration = IMUDeviceConfiguration()) {
        self.bus = bus
        self.configuration = configuration
        backoffNanoseconds = configuration.initialBackoffNanoseconds
    }

    /// A device for a known chip (no probe; initialization starts on the first poll).
    public init(bus: Bus, chip: IMUChipInstance, configuration: IMUDeviceConfiguration = IMUDeviceConfiguration()) {
        self.init(bus: bus, configuration: configuration)
        useChip(chip)
    }

    /// Advances the state machine; returns a reading (board frame, SI units) when a new sample arrived.
    public mutating func poll(nowNanoseconds now: Int64) -> IMUReading? {
        switch status.state {
        case .probing:
            probe(now)
            return status.state == .initializing ? initialize(now) : nil
        case .initializing:
            return initialize(now)
        case .running:
            return read(now)
        case .faulted, .backoff:
            status.state = .backoff
            guard now >= backoffDeadlineNanoseconds else {
                nextPollNanoseconds = backoffDeadlineNanoseconds
                return nil
            }
            recoveryAttempts += 1
            if driver == nil || recoveryAttempts % 4 == 0 {
                status.state = .probing
                probe(now)
                return status.state == .initializing ? initialize(now) : nil
            }
            runner.reset()
            status.state = .initializing
            return initialize(now)
        }
    }

    private mutating func useChip(_ chip: IMUChipInstance) {
        driver = IMUDriver(instance: chip, lis3mdlRemap: configuration.lis3mdlAxisRemap,
                           burstIntervalNanoseconds: configuration.burstIntervalNanoseconds,
                           watermarkInterrupt: configuration.watermarkInterrupt)
        sampleClock = IMUSampleClock(outputDataRateHertz: chip.chip.driver.outputDataRateHertz)
        status.chip = chip
        runner.reset()
        status.state = .initializing
    }

    private mutating func probe(_ now: Int64) {
        let report = IMUProbe.run(bus: &bus)
        lastProbe = report
        if let found = report.found {
            useChip(found)
        } else {
            fault(.probe(report.failure ?? .nothingFound), now)
        }
    }

    private mutating func initialize(_ now: Int64) -> IMUReading? {
        guard var d = driver else { status.state = .probing; nextPollNanoseconds = now; return nil }
        do throws(IMUFault) {
            switch try runner.run(d.initializationProgram, addresses: d.instance, bus: &bus, nowNanoseconds: now) {
            case .waitUntil(let t):
                nextPollNanoseconds = t
            case .finished:
                d.finishInitialization(captured: runner.captured, nowNanoseconds: now)
                driver = d
                status.state = .running
                status.initializations += 1
                status.consecutiveErrors = 0
                lastNewDataNanoseconds = now
                previousEmptyPollNanoseconds = nil
                identicalSamples = 0
                sampleClock.restart()
                fifoGapPending = status.initializations > 1
                nextPollNanoseconds = d.readsFIFO ? now + d.burstIntervalNanoseconds : now
            }
        } catch {
            if case .wrongChip = error { driver = nil }
            fault(error, now)
        }
        return nil
    }

    private mutating func read(_ now: Int64) -> IMUReading? {
        guard var d = driver else { status.state = .probing; nextPollNanoseconds = now; return nil }
        nextPollNanoseconds = now + configuration.pollIntervalNanoseconds
        let result: IMUReading?
        do throws(I2CError) {
            result = try d.readSample(bus: &bus, nowNanoseconds: now)
            driver = d
        } catch {
            driver = d
            status.errors.count(error)
            status.consecutiveErrors += 1
            if status.consecutiveErrors >= configuration.maximumConsecutiveErrors {
                status.consecutiveErrors = 0
                fault(.bus(error), now, alreadyCounted: true)
            }
            return nil
        }
        status.consecutiveErrors = 0
        guard var reading = result else {
            if now - lastNewDataNanoseconds > configuration.dataTimeoutNanoseconds {
                fault(.dataTimeout(milliseconds: Int((now - lastNewDataNanoseconds) / 1_000_000)), now)
            } else {
                previousEmptyPollNanoseconds = now
            }
            return nil
        }
        lastNewDataNanoseconds = now
        if let empty = previousEmptyPollNanoseconds, empty < now, now - empty <= 2 * configuration.pollIntervalNanoseconds {
            reading.sample.timestampNanoseconds = empty + (now - empty) / 2
        }
        previousEmptyPollNanoseconds = nil
        if reading.rawDataFingerprint == lastFingerprint {
            identicalSamples += 1
            if configuration.stuckSampleLimit > 0, identicalSamples >= configuration.stuckSampleLimit {
                fault(.stuckData(samples: identicalSamples + 1), now)
                return nil
            }
        } else {
            identicalSamples = 0
            lastFingerprint = reading.rawDataFingerprint
        }
        if reading.magnetometerOverflow { status.errors.countMagnetometerOverflow() }
        backoffNanoseconds = configuration.initialBackoffNanoseconds
        recoveryAttempts = 0
        status.samples += 1
        reading.sample = configuration.mounting.apply(to: reading.sample)
        return reading
    }

    mutating func fault(_ fault: IMUFault, _ now: Int64, alreadyCounted: Bool = false) {
        if !alreadyCounted { status.errors.count(fault) }
        status.lastFault = fault
        status.lastFaultNanoseconds = now
        status.faults += 1
        status.state = .faulted
        backoffDeadlineNanoseconds = now + backoffNanoseconds
        nextPollNanoseconds = backoffDeadlineNanoseconds
        backoffNanoseconds = min(backoffNanoseconds * 2, configuration.maximumBackoffNanoseconds)
    }
}
