/// What every chip driver provides: an initialization program (data, run by `IMUInitRunner`) and a
/// non-blocking sample read. Drivers are caseless types with static requirements only, so a chip-table
/// row names its driver by metatype and every chip's running state is one `IMUDriverState`; the bus is
/// passed in, generic, so nothing in the sample path is boxed or allocates.
public protocol IMUChipDriver: Sendable {
    /// Nominal output data rate of the accel/gyro (or fusion) output, hertz.
    static var outputDataRateHertz: Double { get }
    /// Register steps that bring the chip from any state (also half-initialized, after a fault) to
    /// continuous conversion at about 100 Hz.
    static func initializationProgram(for instance: IMUChipInstance) -> [IMURegisterStep]
    /// Called once the program has run (`state.captured` holds the bytes its `.capture` steps read).
    static func finishInitialization(_ state: inout IMUDriverState, nowNanoseconds: Int64)
    /// Reads one sample when the chip has a new one (data-ready status or the chip's own timer);
    /// nil when nothing new is available. Vectors are in the sensor frame, SI units; the sample's
    /// timestamp is `nowNanoseconds`.
    static func readSample<Bus: I2CBus>(_ state: inout IMUDriverState, bus: inout Bus,
                                        nowNanoseconds: Int64) throws(I2CError) -> IMUReading?
    /// Samples (accel + gyro sets) the chip's FIFO holds; 0 when the driver reads no FIFO (polled only).
    static var fifoCapacitySamples: Int { get }
    /// Register steps, run after the initialization program, that start the FIFO at the output data
    /// rate with a watermark of `watermarkSamples` samples.
    static func fifoProgram(watermarkSamples: Int) -> [IMURegisterStep]
    /// Register steps, run after `fifoProgram`, that route the FIFO watermark to the chip's INT1 pin
    /// (`[imu] interrupt_line`); empty when the driver cannot (the FIFO is then read by the timer).
    static var watermarkInterruptProgram: [IMURegisterStep] { get }
    /// Appends every complete sample the FIFO holds (oldest first, at most until `burst` is full,
    /// then `moreAvailable`) in the sensor frame, without times; sets `burst.overrun` instead when the
    /// chip flags an overrun. The newest sample carries the magnetometer field read with the burst.
    static func readFIFO<Bus: I2CBus>(_ state: inout IMUDriverState, bus: inout Bus,
                                      into burst: inout IMUBurst) throws(I2CError)
    /// Empties the FIFO and restarts it (after an overrun), keeping its configuration.
    static func resetFIFO<Bus: I2CBus>(_ state: inout IMUDriverState, bus: inout Bus, watermarkSamples: Int) throws(I2CError)
}

extension IMUChipDriver {
    /// Most chips need nothing after their program.
    public static func finishInitialization(_ state: inout IMUDriverState, nowNanoseconds: Int64) {}
    /// Chips without a FIFO driver are polled.
    public static var fifoCapacitySamples: Int { 0 }
    /// No FIFO, no steps.
    public static func fifoProgram(watermarkSamples: Int) -> [IMURegisterStep] { [] }
    /// No watermark interrupt.
    public static var watermarkInterruptProgram: [IMURegisterStep] { [] }
    /// No FIFO: nothing to read.
    public static func readFIFO<Bus: I2CBus>(_ state: inout IMUDriverState, bus: inout Bus,
                                             into burst: inout IMUBurst) throws(I2CError) {}
    /// No FIFO: nothing to reset.
    public static func resetFIFO<Bus: I2CBus>(_ state: inout IMUDriverState, bus: inout Bus,
                                              watermarkSamples: Int) throws(I2CError) {}
}

/// The running state of a chip driver, the same shape for every chip: the chip and its addresses,
/// the board's magnetometer relation, the bytes the program captured and the driver's own timer.
public struct IMUDriverState: Sendable {
    /// The chip and its addresses.
    public var instance: IMUChipInstance
    /// The board's magnetometer → accel/gyro axis relation for chips in two packages (LSM6DSL +
    /// LIS3MDL on BerryIMU v3 / BerryGPS-IMU v4); identity elsewhere.
    public var boardMagnetometerRemap: IMUAxisRemap
    /// Bytes the initialization program's `.capture` steps read (AK8963 fuse ROM).
    public var captured: InlineArray<4, UInt8> = .init(repeating: 0)
    /// When a timer-driven chip (no data-ready flag) is read next, monotonic nanoseconds.
    public var nextReadNanoseconds: Int64 = 0

    public init(instance: IMUChipInstance, boardMagnetometerRemap: IMUAxisRemap = .identity) {
        self.instance = instance
        self.boardMagnetometerRemap = boardMagnetometerRemap
    }
}

/// Turns signed 16-bit raw axis values into a scaled vector.
@inline(__always)
func scaledVector(_ x: Int16, _ y: Int16, _ z: Int16, _ scale: Double) -> Vector3 {
    Vector3(Double(x) * scale, Double(y) * scale, Double(z) * scale)
}
