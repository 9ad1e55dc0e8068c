/// The driver of whichever chip the probe found: its row's driver and the running state. Every call
/// goes through the row's driver metatype (one witness-table call, no switch over chips, no box), so
/// the sample path stays allocation-free.
public struct IMUDriver: Sendable {
    /// The running state (chip, addresses, captured bytes, timer).
    public private(set) var state: IMUDriverState

    /// The driver for a probed chip. `lis3mdlRemap` is the board's LIS3MDL → LSM6DSL axis relation.
    public init(instance: IMUChipInstance, lis3mdlRemap: IMUAxisRemap = .identity) {
        state = IMUDriverState(instance: instance, boardMagnetometerRemap: lis3mdlRemap)
    }

    /// The chip and its addresses.
    public var instance: IMUChipInstance { state.instance }

    /// The chip's initialization program.
    public var initializationProgram: [IMURegisterStep] { state.instance.chip.driver.initializationProgram(for: state.instance) }

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
}
