/// The driver of whichever chip the probe found: its row's driver and the running state. Every call
/// goes through the row's driver metatype (one witness-table call, no switch over chips, no box), so
/// the sample path stays allocation-free.
public struct IMUDriver: Sendable {
    /// The running state (chip, addresses, captured bytes, timer).
    public private(set) var state: IMUDriverState

    /// Samples in the FIFO that raise its watermark; 0: the FIFO is not used (polled).
    public let fifoWatermarkSamples: Int
    /// The initialization program, with the FIFO's steps when the FIFO is used (built once, here).
    public let initializationProgram: [IMURegisterStep]
    /// True when the program routes the FIFO watermark to INT1 (asked for, and the driver can).
    public let signalsWatermark: Bool
    /// Time between FIFO bursts, nanoseconds: the one asked for, shortened when the FIFO would fill
    /// past half its depth in that time (the LSM9DS1's 32 levels last 0.27 s at 119 Hz); 0 when polled.
    public let burstIntervalNanoseconds: Int64

    /// The driver for a probed chip. `lis3mdlRemap` is the board's LIS3MDL → LSM6DSL axis relation.
    /// With `burstIntervalNanoseconds` > 0 and a chip whose driver reads a FIFO, the FIFO is started
    /// with a watermark of one interval's samples (at most half the FIFO), and with `watermarkInterrupt`
    /// the watermark drives INT1 where the driver can route it.
    public init(instance: IMUChipInstance, lis3mdlRemap: IMUAxisRemap = .identity, burstIntervalNanoseconds: Int64 = 0,
                watermarkInterrupt: Bool = false) {
        state = IMUDriverState(instance: instance, boardMagnetometerRemap: lis3mdlRemap)
        let driver = instance.chip.driver
        let base = driver.initializationProgram(for: instance)
        if burstIntervalNanoseconds > 0, driver.fifoCapacitySamples > 0 {
            let rate = driver.outputDataRateHertz
            let perBurst = Int((rate * Double(burstIntervalNanoseconds) / 1e9).rounded(.up))
            let limit = max(1, driver.fifoCapacitySamples / 2)
            fifoWatermarkSamples = max(1, min(perBurst, limit))
            self.burstIntervalNanoseconds = perBurst > limit ? Int64(Double(limit) / rate * 1e9) : burstIntervalNanoseconds
            let interrupt = watermarkInterrupt ? driver.watermarkInterruptProgram : []
            signalsWatermark = !interrupt.isEmpty
            initializationProgram = base + driver.fifoProgram(watermarkSamples: fifoWatermarkSamples) + interrupt
        } else {
            fifoWatermarkSamples = 0
            signalsWatermark = false
            self.burstIntervalNanoseconds = 0
            initializationProgram = base
        }
    }

    /// True when samples come from the chip's FIFO in bursts.
    public var readsFIFO: Bool { fifoWatermarkSamples > 0 }

    /// The chip and its addresses.
    public var instance: IMUChipInstance { state.instance }

    /// Nominal output data rate, hertz.
    public var outputDataRateHertz: Double { state.instance.chip.driver.outputDataRateHertz }

    /// See `IMUChipDriver.finishInitialization`.
    public mutating func finishInitialization(captured: InlineArray<4, UInt8>, nowNanoseconds: Int64) {
        state.captured = captured
        let driver = state.instance.chip.driver
        driver.finishInitialization(&state, nowNanoseconds: nowNanoseconds)
    }

    /// See `IMUChipDriver.readSample`.
    @inline(__always)
    public mutating func readSample<Bus: I2CBus>(bus: inout Bus, nowNanoseconds: Int64) throws(I2CError) -> IMUReading? {
        let driver = state.instance.chip.driver
        return try driver.readSample(&state, bus: &bus, nowNanoseconds: nowNanoseconds)
    }

    /// See `IMUChipDriver.readFIFO`.
    @inline(__always)
    public mutating func readFIFO<Bus: I2CBus>(bus: inout Bus, into burst: inout IMUBurst) throws(I2CError) {
        let driver = state.instance.chip.driver
        try driver.readFIFO(&state, bus: &bus, into: &burst)
    }

    /// See `IMUChipDriver.resetFIFO`.
    public mutating func resetFIFO<Bus: I2CBus>(bus: inout Bus) throws(I2CError) {
        let driver = state.instance.chip.driver
        try driver.resetFIFO(&state, bus: &bus, watermarkSamples: fifoWatermarkSamples)
    }
}
