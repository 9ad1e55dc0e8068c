import Angles

/// Driver for the ST LSM9DS1 (Raspberry Pi Sense HAT, BerryIMU v2): accel/gyro die (WHO_AM_I 0x68)
/// and magnetometer die (WHO_AM_I 0x3D) at separate addresses.
///
/// Configuration: gyroscope 119 Hz ±2000 dps (70 mdps/LSB), accelerometer at the gyro ODR ±4 g
/// (0.122 mg/LSB), BDU + auto-increment; magnetometer UHP 80 Hz with temperature compensation,
/// ±4 gauss (0.14 mgauss/LSB). Reading: one 9-byte burst from OUT_TEMP_L (0x15) gives temperature,
/// STATUS_REG (0x17) and the gyro; when XLDA|GDA, a 6-byte accel burst from 0x28; then the
/// magnetometer status + data burst (0xA7). All little-endian.
/// The magnetometer die's X axis is reversed relative to the accel/gyro die: m = (−mx, my, mz).
public enum LSM9DS1Driver: IMUChipDriver {
    /// Accel/gyro register map (ST lsm9ds1_reg.h).
    public enum Register {
        public static let whoAmI: UInt8 = 0x0F
        public static let ctrlReg1G: UInt8 = 0x10
        public static let outTempL: UInt8 = 0x15
        public static let statusReg: UInt8 = 0x17
        public static let outXLG: UInt8 = 0x18
        public static let ctrlReg6XL: UInt8 = 0x20
        public static let ctrlReg8: UInt8 = 0x22
        public static let outXLXL: UInt8 = 0x28
    }

    /// Accel/gyro WHO_AM_I value.
    public static let whoAmI: UInt8 = 0x68
    /// CTRL_REG8 SW_RESET.
    public static let softwareReset: UInt8 = 0x01
    /// CTRL_REG8: BDU (bit 6) + IF_ADD_INC (bit 2).
    public static let ctrlReg8: UInt8 = 0x44
    /// CTRL_REG1_G: ODR 119 Hz (011), FS ±2000 dps (11).
    public static let ctrlReg1G: UInt8 = 0x78
    /// CTRL_REG6_XL: ODR 119 Hz (011), FS ±4 g (10).
    public static let ctrlReg6XL: UInt8 = 0x70
    /// Magnetometer CTRL_REG1_M: TEMP_COMP, UHP, 80 Hz.
    public static let ctrlReg1M: UInt8 = 0xFC
    /// Accelerometer sensitivity at ±4 g, m/s² per LSB (0.122 mg/LSB).
    public static let accelerationScale = 0.122e-3 * IMUUnits.standardGravity
    /// Gyroscope sensitivity at ±2000 dps, rad/s per LSB (70 mdps/LSB).
    public static let gyroScale = 70e-3 * Angle.radiansPerDegree
    /// Magnetometer sensitivity at ±4 gauss, µT per LSB (0.14 mgauss/LSB).
    public static let magneticScale = 0.14e-3 * IMUUnits.microteslaPerGauss
    /// Temperature: °C = raw / 16 + 25.
    public static let temperatureLSBPerCelsius = 16.0
    /// Magnetometer die axes → accel/gyro die axes.
    public static let magnetometerRemap = IMUAxisRemap(parsing: "-x,y,z")!

    public static var outputDataRateHertz: Double { 119 }

    public static let program: [IMURegisterStep] = [
        .expect(.primary, register: Register.whoAmI, value: whoAmI),
        .write(.primary, register: Register.ctrlReg8, value: softwareReset),
        .delay(milliseconds: 10),
        .write(.primary, register: Register.ctrlReg8, value: ctrlReg8),
        .write(.primary, register: Register.ctrlReg1G, value: ctrlReg1G),
        .write(.primary, register: Register.ctrlReg6XL, value: ctrlReg6XL),
        .expect(.magnetometer, register: LIS3MDL.Register.whoAmI, value: LIS3MDL.whoAmI),
        .write(.magnetometer, register: LIS3MDL.Register.ctrlReg2, value: LIS3MDL.reset),
        .delay(milliseconds: 10),
        .write(.magnetometer, register: LIS3MDL.Register.ctrlReg1, value: ctrlReg1M),
        .write(.magnetometer, register: LIS3MDL.Register.ctrlReg2, value: LIS3MDL.ctrlReg2),
        .write(.magnetometer, register: LIS3MDL.Register.ctrlReg4, value: LIS3MDL.ctrlReg4),
        .write(.magnetometer, register: LIS3MDL.Register.ctrlReg5, value: LIS3MDL.ctrlReg5),
        .write(.magnetometer, register: LIS3MDL.Register.ctrlReg3, value: LIS3MDL.ctrlReg3),
    ]

    public static func initializationProgram(for instance: IMUChipInstance) -> [IMURegisterStep] { program }

    public static func readSample<Bus: I2CBus>(_ state: inout IMUDriverState, bus: inout Bus,
                                               nowNanoseconds: Int64) throws(I2CError) -> IMUReading? {
        let address = state.instance.primaryAddress
        let head = try bus.readBlock(address: address, register: Register.outTempL, count: 9)
        guard head[2] & 0x03 == 0x03 else { return nil }        // XLDA and GDA
        let accelBlock = try bus.readBlock(address: address, register: Register.outXLXL, count: 6)
        let gyro = scaledVector(head.int16LittleEndian(at: 3), head.int16LittleEndian(at: 5),
                                head.int16LittleEndian(at: 7), LSM9DS1Driver.gyroScale)
        let accel = scaledVector(accelBlock.int16LittleEndian(at: 0), accelBlock.int16LittleEndian(at: 2),
                                 accelBlock.int16LittleEndian(at: 4), LSM9DS1Driver.accelerationScale)
        let temperature = Double(head.int16LittleEndian(at: 0)) / LSM9DS1Driver.temperatureLSBPerCelsius + 25
        let field = try LIS3MDL.readField(bus: &bus, address: state.instance.address(of: .magnetometer),
                                          scale: LSM9DS1Driver.magneticScale)
        let sample = IMUSample(timestampNanoseconds: nowNanoseconds, gyroRadiansPerSecond: gyro,
                               accelerationMetersPerSecondSquared: accel,
                               magneticFieldMicrotesla: field.map { LSM9DS1Driver.magnetometerRemap.apply($0) },
                               temperatureCelsius: temperature)
        let fingerprint = accelBlock.fingerprint(from: 0, count: 6, seed: head.fingerprint(from: 3, count: 6))
        return IMUReading(sample: sample, rawDataFingerprint: fingerprint)
    }
}

extension IMUPart {
    /// WHO_AM_I 0x68 at 0x6A/0x6B: the LSM9DS1's accel/gyro die.
    public static let lsm9ds1AccelGyro = IMUPart(name: "LSM9DS1 accel/gyro", address: 0x6A, alternateAddress: 0x6B,
                                                 register: LSM9DS1Driver.Register.whoAmI, id: LSM9DS1Driver.whoAmI,
                                                 role: .primary)
}

extension IMUChip {
    /// ST LSM9DS1: accel/gyro die + magnetometer die in one package.
    public static let lsm9ds1 = IMUChip(
        configurationName: "lsm9ds1", name: "LSM9DS1", boards: "Raspberry Pi Sense HAT, BerryIMU v2",
        measures: .nineAxis, parts: [.lsm9ds1AccelGyro], magnetometer: .probed(.stMagnetometer),
        driver: LSM9DS1Driver.self)
}
