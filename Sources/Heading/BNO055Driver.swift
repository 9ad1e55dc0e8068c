/// Driver for the Bosch BNO055 in NDOF fusion mode (100 Hz fusion output). The chip has no per-sample
/// data-ready flag in this mode, so the driver reads on its own 10 ms timer.
///
/// Initialization: page 0, CONFIG mode, system reset (SYS_TRIGGER 0x20) and wait until CHIP_ID reads 0xA0
/// again (≈650 ms; the chip may NACK meanwhile), normal power, page 0, internal oscillator, units
/// m/s² / dps / degrees / °C (UNIT_SEL 0x00), then OPR_MODE NDOF.
/// Reading: one 32-byte burst from ACC_DATA_X_LSB (0x08): accel (1 m/s² = 100 LSB), mag
/// (1 µT = 16 LSB), gyro (1 dps = 16 LSB), Euler heading/roll/pitch (1° = 16 LSB), quaternion w,x,y,z
/// (1 = 2¹⁴ LSB); then TEMP (0x34, 1 °C/LSB, signed) and CALIB_STAT (0x35). All little-endian.
/// Raw vectors are in the chip's axes (AXIS_MAP left at its default).
public struct BNO055Driver: IMUChipDriver {
    /// Register map (page 0).
    public enum Register {
        public static let chipID: UInt8 = 0x00
        public static let pageID: UInt8 = 0x07
        public static let accDataXLSB: UInt8 = 0x08
        public static let temp: UInt8 = 0x34
        public static let calibStat: UInt8 = 0x35
        public static let unitSel: UInt8 = 0x3B
        public static let oprMode: UInt8 = 0x3D
        public static let pwrMode: UInt8 = 0x3E
        public static let sysTrigger: UInt8 = 0x3F
    }

    /// CHIP_ID value.
    public static let chipID: UInt8 = 0xA0
    /// OPR_MODE CONFIG.
    public static let configMode: UInt8 = 0x00
    /// OPR_MODE NDOF (9-axis fusion, fast magnetometer calibration on).
    public static let ndofMode: UInt8 = 0x0C
    /// UNIT_SEL: m/s², dps, degrees, °C.
    public static let unitSelection: UInt8 = 0x00
    /// m/s² per accelerometer LSB.
    public static let accelerationScale = 1.0 / 100
    /// µT per magnetometer LSB.
    public static let magneticScale = 1.0 / 16
    /// rad/s per gyroscope LSB (1/16 dps).
    public static let gyroScale = IMUUnits.radiansPerDegree / 16
    /// Degrees per Euler LSB.
    public static let eulerScale = 1.0 / 16
    /// Quaternion units per LSB.
    public static let quaternionScale = 1.0 / 16384
    /// Fusion output period, nanoseconds (100 Hz).
    public static let readPeriodNanoseconds: Int64 = 10_000_000

    public let instance: IMUChipInstance
    private var nextReadNanoseconds: Int64 = 0

    public init(instance: IMUChipInstance) { self.instance = instance }

    public var outputDataRateHertz: Double { 100 }

    public static let program: [IMURegisterStep] = [
        .write(.primary, register: Register.pageID, value: 0x00),        // a fault may have left page 1
        .expect(.primary, register: Register.chipID, value: chipID),
        .write(.primary, register: Register.oprMode, value: configMode),
        .delay(milliseconds: 25),                                        // any mode → CONFIG: 19 ms
        .write(.primary, register: Register.sysTrigger, value: 0x20),    // RST_SYS
        .delay(milliseconds: 650),
        .awaitValue(.primary, register: Register.chipID, value: chipID, timeoutMilliseconds: 1000),
        .write(.primary, register: Register.pwrMode, value: 0x00),       // normal power
        .delay(milliseconds: 10),
        .write(.primary, register: Register.pageID, value: 0x00),
        .write(.primary, register: Register.sysTrigger, value: 0x00),    // internal oscillator
        .write(.primary, register: Register.unitSel, value: unitSelection),
        .write(.primary, register: Register.oprMode, value: ndofMode),
        .delay(milliseconds: 20),                                        // CONFIG → any mode: 7 ms
    ]

    public var initializationProgram: [IMURegisterStep] { BNO055Driver.program }

    public mutating func finishInitialization(captured: InlineArray<4, UInt8>, nowNanoseconds: Int64) {
        nextReadNanoseconds = nowNanoseconds
    }

    public mutating func readSample<Bus: I2CBus>(bus: inout Bus, nowNanoseconds now: Int64) throws(I2CError) -> IMUReading? {
        guard now >= nextReadNanoseconds else { return nil }
        nextReadNanoseconds += BNO055Driver.readPeriodNanoseconds
        if nextReadNanoseconds <= now { nextReadNanoseconds = now + BNO055Driver.readPeriodNanoseconds }  // fell behind
        let address = instance.primaryAddress
        let block = try bus.readBlock(address: address, register: Register.accDataXLSB, count: 32)
        let tail = try bus.readBlock(address: address, register: Register.temp, count: 2)
        let accel = scaledVector(block.int16LittleEndian(at: 0), block.int16LittleEndian(at: 2),
                                 block.int16LittleEndian(at: 4), BNO055Driver.accelerationScale)
        let mag = scaledVector(block.int16LittleEndian(at: 6), block.int16LittleEndian(at: 8),
                               block.int16LittleEndian(at: 10), BNO055Driver.magneticScale)
        let gyro = scaledVector(block.int16LittleEndian(at: 12), block.int16LittleEndian(at: 14),
                                block.int16LittleEndian(at: 16), BNO055Driver.gyroScale)
        let q = BNO055Driver.quaternionScale
        let e = BNO055Driver.eulerScale
        let fusion = BNO055Fusion(
            headingDegrees: Double(block.int16LittleEndian(at: 18)) * e,
            rollDegrees: Double(block.int16LittleEndian(at: 20)) * e,
            pitchDegrees: Double(block.int16LittleEndian(at: 22)) * e,
            quaternionW: Double(block.int16LittleEndian(at: 24)) * q,
            quaternionX: Double(block.int16LittleEndian(at: 26)) * q,
            quaternionY: Double(block.int16LittleEndian(at: 28)) * q,
            quaternionZ: Double(block.int16LittleEndian(at: 30)) * q,
            calibration: BNO055CalibrationStatus(rawValue: tail[1]))
        let sample = IMUSample(timestampNanoseconds: now, gyroRadiansPerSecond: gyro,
                               accelerationMetersPerSecondSquared: accel, magneticFieldMicrotesla: mag,
                               temperatureCelsius: Double(Int8(bitPattern: tail[0])))
        return IMUReading(sample: sample, chipFusion: fusion, rawDataFingerprint: block.fingerprint(from: 0, count: 32))
    }
}
