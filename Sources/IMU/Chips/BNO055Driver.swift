import Angles

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
public enum BNO055Driver: IMUChipDriver {
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
    public static let gyroScale = Angle.radiansPerDegree / 16
    /// Degrees per Euler LSB.
    public static let eulerScale = 1.0 / 16
    /// Quaternion units per LSB.
    public static let quaternionScale = 1.0 / 16384
    /// Fusion output period, nanoseconds (100 Hz).
    public static let readPeriodNanoseconds: Int64 = 10_000_000

    public static var outputDataRateHertz: Double { 100 }

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

    public static func initializationProgram(for instance: IMUChipInstance) -> [IMURegisterStep] { program }

    public static func finishInitialization(_ state: inout IMUDriverState, nowNanoseconds: Int64) {
        state.nextReadNanoseconds = nowNanoseconds
    }

    public static func readSample<Bus: I2CBus>(_ state: inout IMUDriverState, bus: inout Bus,
                                               nowNanoseconds now: Int64) throws(I2CError) -> IMUReading? {
        guard now >= state.nextReadNanoseconds else { return nil }
        state.nextReadNanoseconds += BNO055Driver.readPeriodNanoseconds
        if state.nextReadNanoseconds <= now { state.nextReadNanoseconds = now + BNO055Driver.readPeriodNanoseconds }  // fell behind
        let address = state.instance.primaryAddress
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

/// The BNO055's on-chip fusion output (NDOF mode), as the chip reports it: in the chip's own axes
/// (AXIS_MAP_CONFIG left at its default P1) and Bosch's conventions, *not* rotated by the mounting
/// orientation.
public struct BNO055Fusion: Sendable, Equatable {
    /// Euler heading, degrees 0 ..< 360 (1/16° resolution).
    public var headingDegrees: Double
    /// Euler roll, degrees.
    public var rollDegrees: Double
    /// Euler pitch, degrees.
    public var pitchDegrees: Double
    /// Orientation quaternion w, x, y, z (unit quaternion, 2⁻¹⁴ resolution).
    public var quaternionW: Double
    public var quaternionX: Double
    public var quaternionY: Double
    public var quaternionZ: Double
    /// CALIB_STAT: 0 (uncalibrated) … 3 (fully calibrated) for system, gyroscope, accelerometer, magnetometer.
    public var calibration: BNO055CalibrationStatus

    public init(headingDegrees: Double, rollDegrees: Double, pitchDegrees: Double, quaternionW: Double,
                quaternionX: Double, quaternionY: Double, quaternionZ: Double, calibration: BNO055CalibrationStatus) {
        self.headingDegrees = headingDegrees
        self.rollDegrees = rollDegrees
        self.pitchDegrees = pitchDegrees
        self.quaternionW = quaternionW
        self.quaternionX = quaternionX
        self.quaternionY = quaternionY
        self.quaternionZ = quaternionZ
        self.calibration = calibration
    }
}

/// The BNO055 CALIB_STAT register (0x35): four 2-bit levels, 0 = uncalibrated … 3 = fully calibrated.
public struct BNO055CalibrationStatus: Sendable, Equatable {
    /// The register value: system bits 7:6, gyroscope 5:4, accelerometer 3:2, magnetometer 1:0.
    public var rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Builds the register value from the four levels (each clamped to 0…3).
    public init(system: Int, gyroscope: Int, accelerometer: Int, magnetometer: Int) {
        func level(_ v: Int) -> UInt8 { UInt8(max(0, min(3, v))) }
        rawValue = level(system) << 6 | level(gyroscope) << 4 | level(accelerometer) << 2 | level(magnetometer)
    }

    /// Fusion system calibration level, 0…3.
    public var system: Int { Int(rawValue >> 6 & 3) }
    /// Gyroscope calibration level, 0…3.
    public var gyroscope: Int { Int(rawValue >> 4 & 3) }
    /// Accelerometer calibration level, 0…3.
    public var accelerometer: Int { Int(rawValue >> 2 & 3) }
    /// Magnetometer calibration level, 0…3.
    public var magnetometer: Int { Int(rawValue & 3) }
}

extension IMUPart {
    /// CHIP_ID 0xA0 at 0x28/0x29.
    public static let bno055 = IMUPart(name: "BNO055", address: 0x28, alternateAddress: 0x29,
                                       register: BNO055Driver.Register.chipID, id: BNO055Driver.chipID, role: .primary)
}

extension IMUChip {
    /// Bosch BNO055 running its on-chip fusion (NDOF); raw accel/gyro/mag are read too.
    public static let bno055 = IMUChip(
        configurationName: "bno055", name: "BNO055", boards: "Adafruit BNO055 breakout",
        measures: [.nineAxis, .onChipFusion], parts: [.bno055], magnetometer: .internalToChip,
        driver: BNO055Driver.self)
}
