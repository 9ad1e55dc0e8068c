import Angles

/// Driver for the ST LSM6DSL accelerometer/gyroscope with a separate ST LIS3MDL magnetometer
/// (OzzMaker BerryIMU v3, BerryGPS-IMU v4).
///
/// Configuration: accelerometer and gyroscope at 104 Hz, ±4 g (0.122 mg/LSB), ±2000 dps
/// (70 mdps/LSB), block data update, register auto-increment; LIS3MDL as in `LIS3MDL`.
/// Reading: STATUS_REG (0x1E) XLDA|GDA, then one 14-byte burst from OUT_TEMP_L (0x20): temperature,
/// gyro x,y,z, accel x,y,z, little-endian; then the magnetometer's status + data burst.
/// The magnetometer is a separate package: its axes relative to the LSM6DSL are the board's
/// (`IMUDriverState.boardMagnetometerRemap`, identity by default; unverified on hardware — see
/// docs/hardware.md §0).
public enum LSM6DSLDriver: IMUChipDriver {
    /// Register map (ST lsm6dsl_reg.h).
    public enum Register {
        public static let whoAmI: UInt8 = 0x0F
        public static let ctrl1XL: UInt8 = 0x10
        public static let ctrl2G: UInt8 = 0x11
        public static let ctrl3C: UInt8 = 0x12
        public static let statusReg: UInt8 = 0x1E
        public static let outTempL: UInt8 = 0x20
        public static let outxLG: UInt8 = 0x22
        public static let outxLXL: UInt8 = 0x28
    }

    /// WHO_AM_I value.
    public static let whoAmI: UInt8 = 0x6A
    /// CTRL1_XL: ODR 104 Hz (0100), FS ±4 g (10).
    public static let ctrl1XL: UInt8 = 0x48
    /// CTRL2_G: ODR 104 Hz (0100), FS ±2000 dps (110).
    public static let ctrl2G: UInt8 = 0x4C
    /// CTRL3_C: BDU (bit 6) + IF_INC (bit 2).
    public static let ctrl3C: UInt8 = 0x44
    /// CTRL3_C SW_RESET.
    public static let softwareReset: UInt8 = 0x01
    /// Accelerometer sensitivity at ±4 g, m/s² per LSB (0.122 mg/LSB).
    public static let accelerationScale = 0.122e-3 * IMUUnits.standardGravity
    /// Gyroscope sensitivity at ±2000 dps, rad/s per LSB (70 mdps/LSB).
    public static let gyroScale = 70e-3 * Angle.radiansPerDegree
    /// Temperature: °C = raw / 256 + 25.
    public static let temperatureLSBPerCelsius = 256.0

    public static var outputDataRateHertz: Double { 104 }

    /// The accel/gyro part of the program; the LIS3MDL part follows.
    public static let accelGyroProgram: [IMURegisterStep] = [
        .expect(.primary, register: Register.whoAmI, value: whoAmI),
        .write(.primary, register: Register.ctrl3C, value: softwareReset),
        .delay(milliseconds: 10),
        .write(.primary, register: Register.ctrl3C, value: ctrl3C),
        .write(.primary, register: Register.ctrl1XL, value: ctrl1XL),
        .write(.primary, register: Register.ctrl2G, value: ctrl2G),
    ]

    public static let program: [IMURegisterStep] = accelGyroProgram + LIS3MDL.program

    public static func initializationProgram(for instance: IMUChipInstance) -> [IMURegisterStep] { program }

    public static func readSample<Bus: I2CBus>(_ state: inout IMUDriverState, bus: inout Bus,
                                               nowNanoseconds: Int64) throws(I2CError) -> IMUReading? {
        let address = state.instance.primaryAddress
        let status = try bus.readByte(address: address, register: Register.statusReg)
        guard status & 0x03 == 0x03 else { return nil }         // XLDA and GDA
        let block = try bus.readBlock(address: address, register: Register.outTempL, count: 14)
        let gyro = scaledVector(block.int16LittleEndian(at: 2), block.int16LittleEndian(at: 4),
                                block.int16LittleEndian(at: 6), LSM6DSLDriver.gyroScale)
        let accel = scaledVector(block.int16LittleEndian(at: 8), block.int16LittleEndian(at: 10),
                                 block.int16LittleEndian(at: 12), LSM6DSLDriver.accelerationScale)
        let temperature = Double(block.int16LittleEndian(at: 0)) / LSM6DSLDriver.temperatureLSBPerCelsius + 25
        let field = try LIS3MDL.readField(bus: &bus, address: state.instance.address(of: .magnetometer),
                                          scale: LIS3MDL.microteslaPerLSB)
        let sample = IMUSample(timestampNanoseconds: nowNanoseconds, gyroRadiansPerSecond: gyro,
                               accelerationMetersPerSecondSquared: accel,
                               magneticFieldMicrotesla: field.map { state.boardMagnetometerRemap.apply($0) },
                               temperatureCelsius: temperature)
        return IMUReading(sample: sample, rawDataFingerprint: block.fingerprint(from: 2, count: 12))
    }
}

extension IMUPart {
    /// WHO_AM_I 0x6A at 0x6A/0x6B.
    public static let lsm6dsl = IMUPart(name: "LSM6DSL accel/gyro", address: 0x6A, alternateAddress: 0x6B,
                                        register: LSM6DSLDriver.Register.whoAmI, id: LSM6DSLDriver.whoAmI, role: .primary)
}

extension IMUChip {
    /// ST LSM6DSL accel/gyro + separate LIS3MDL magnetometer.
    public static let lsm6dslWithLIS3MDL = IMUChip(
        configurationName: "lsm6dsl", name: "LSM6DSL + LIS3MDL", boards: "BerryIMU v3, BerryGPS-IMU v4",
        measures: .nineAxis, parts: [.lsm6dsl], magnetometer: .probed(.stMagnetometer), driver: LSM6DSLDriver.self)
}
