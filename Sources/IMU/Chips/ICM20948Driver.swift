import Angles

/// Driver for the TDK InvenSense ICM-20948 with its AK09916 magnetometer, which the driver reaches
/// directly on the host bus at 0x0C by putting the ICM's auxiliary I2C into bypass mode.
///
/// Configuration (register banks via REG_BANK_SEL 0x7F): gyroscope and accelerometer at
/// 1125/(1+10) = 102.3 Hz with DLPF ≈ 50 Hz, ±2000 dps (16.4 LSB/dps), ±4 g (8192 LSB/g);
/// raw-data-ready status enabled; AK09916 in continuous mode 4 (100 Hz, 0.15 µT/LSB).
/// Reading: INT_STATUS_1 (0x1A) RAW_DATA_0_RDY, then one 14-byte **big-endian** burst from
/// ACCEL_XOUT_H (0x2D): accel, gyro, temperature; then the AK09916's ST1 … ST2 burst (little-endian;
/// reading ST2 ends the measurement cycle). AK09916 axes → ICM axes: (mx, −my, −mz).
public enum ICM20948Driver: IMUChipDriver {
    /// Register map (user bank in the comment).
    public enum Register {
        public static let whoAmI: UInt8 = 0x00          // bank 0
        public static let userCtrl: UInt8 = 0x03        // bank 0
        public static let pwrMgmt1: UInt8 = 0x06        // bank 0
        public static let pwrMgmt2: UInt8 = 0x07        // bank 0
        public static let intPinCfg: UInt8 = 0x0F       // bank 0
        public static let intEnable1: UInt8 = 0x11      // bank 0
        public static let intStatus1: UInt8 = 0x1A      // bank 0
        public static let accelXoutH: UInt8 = 0x2D      // bank 0
        public static let gyroSmplrtDiv: UInt8 = 0x00   // bank 2
        public static let gyroConfig1: UInt8 = 0x01     // bank 2
        public static let accelSmplrtDiv1: UInt8 = 0x10 // bank 2
        public static let accelSmplrtDiv2: UInt8 = 0x11 // bank 2
        public static let accelConfig: UInt8 = 0x14     // bank 2
        public static let regBankSel: UInt8 = 0x7F      // every bank
    }

    /// AK09916 register map.
    public enum AK09916Register {
        public static let wia2: UInt8 = 0x01
        public static let st1: UInt8 = 0x10
        public static let cntl2: UInt8 = 0x31
        public static let cntl3: UInt8 = 0x32
    }

    /// WHO_AM_I value.
    public static let whoAmI: UInt8 = 0xEA
    /// AK09916 WIA2 value.
    public static let magnetometerID: UInt8 = 0x09
    /// AK09916 address on the host bus in bypass mode.
    public static let magnetometerAddress: UInt8 = 0x0C
    /// GYRO_CONFIG_1: DLPFCFG 3 (bits 5:3), FS ±2000 dps (bits 2:1 = 3), FCHOICE.
    public static let gyroConfig1: UInt8 = 0x1F
    /// ACCEL_CONFIG: DLPFCFG 3, FS ±4 g (bits 2:1 = 1), FCHOICE.
    public static let accelConfig: UInt8 = 0x1B
    /// Sample-rate divider for gyro and accel: 1125 Hz / (1 + 10).
    public static let sampleRateDivider: UInt8 = 10
    /// Accelerometer sensitivity at ±4 g, m/s² per LSB (8192 LSB/g).
    public static let accelerationScale = IMUUnits.standardGravity / 8192
    /// Gyroscope sensitivity at ±2000 dps, rad/s per LSB (16.4 LSB/dps).
    public static let gyroScale = Angle.radiansPerDegree / 16.4
    /// AK09916 sensitivity, µT per LSB.
    public static let magneticScale = 0.15
    /// AK09916 axes → ICM-20948 axes.
    public static let magnetometerRemap = IMUAxisRemap(parsing: "x,-y,-z")!

    public static var outputDataRateHertz: Double { 1125.0 / 11 }

    public static let program: [IMURegisterStep] = [
        .write(.primary, register: Register.regBankSel, value: 0x00),   // a fault may have left bank 2 selected
        .expect(.primary, register: Register.whoAmI, value: whoAmI),
        .write(.primary, register: Register.pwrMgmt1, value: 0x80),     // DEVICE_RESET
        .delay(milliseconds: 10),
        .write(.primary, register: Register.pwrMgmt1, value: 0x01),     // wake, auto clock
        .write(.primary, register: Register.pwrMgmt2, value: 0x00),     // all axes on
        .write(.primary, register: Register.userCtrl, value: 0x00),     // I2C master off
        .write(.primary, register: Register.intPinCfg, value: 0x02),    // BYPASS_EN
        .write(.primary, register: Register.intEnable1, value: 0x01),   // RAW_DATA_0_RDY_EN
        .write(.primary, register: Register.regBankSel, value: 0x20),   // bank 2
        .write(.primary, register: Register.gyroSmplrtDiv, value: sampleRateDivider),
        .write(.primary, register: Register.gyroConfig1, value: gyroConfig1),
        .write(.primary, register: Register.accelSmplrtDiv1, value: 0x00),
        .write(.primary, register: Register.accelSmplrtDiv2, value: sampleRateDivider),
        .write(.primary, register: Register.accelConfig, value: accelConfig),
        .write(.primary, register: Register.regBankSel, value: 0x00),   // back to bank 0
        .expect(.magnetometer, register: AK09916Register.wia2, value: magnetometerID),
        .write(.magnetometer, register: AK09916Register.cntl3, value: 0x01),  // soft reset
        .delay(milliseconds: 10),
        .write(.magnetometer, register: AK09916Register.cntl2, value: 0x08),  // continuous mode 4, 100 Hz
    ]

    public static func initializationProgram(for instance: IMUChipInstance) -> [IMURegisterStep] { program }

    public static func readSample<Bus: I2CBus>(_ state: inout IMUDriverState, bus: inout Bus,
                                               nowNanoseconds: Int64) throws(I2CError) -> IMUReading? {
        let address = state.instance.primaryAddress
        let status = try bus.readByte(address: address, register: Register.intStatus1)
        guard status & 0x01 != 0 else { return nil }
        let block = try bus.readBlock(address: address, register: Register.accelXoutH, count: 14)
        let accel = scaledVector(block.int16BigEndian(at: 0), block.int16BigEndian(at: 2),
                                 block.int16BigEndian(at: 4), ICM20948Driver.accelerationScale)
        let gyro = scaledVector(block.int16BigEndian(at: 6), block.int16BigEndian(at: 8),
                                block.int16BigEndian(at: 10), ICM20948Driver.gyroScale)
        let temperature = (Double(block.int16BigEndian(at: 12)) - 21) / 333.87 + 21
        let mag = try AKMagnetometer.read(bus: &bus, address: state.instance.address(of: .magnetometer),
                                          status1Register: AK09916Register.st1, count: 9,
                                          scale: (ICM20948Driver.magneticScale, ICM20948Driver.magneticScale,
                                                  ICM20948Driver.magneticScale))
        let sample = IMUSample(timestampNanoseconds: nowNanoseconds, gyroRadiansPerSecond: gyro,
                               accelerationMetersPerSecondSquared: accel,
                               magneticFieldMicrotesla: mag.field.map { ICM20948Driver.magnetometerRemap.apply($0) },
                               temperatureCelsius: temperature)
        return IMUReading(sample: sample, magnetometerOverflow: mag.overflow,
                          rawDataFingerprint: block.fingerprint(from: 0, count: 12))
    }
}

extension IMUPart {
    /// Bank-0 WHO_AM_I 0xEA at 0x68/0x69 (REG_BANK_SEL 0x7F selects the bank).
    public static let icm20948 = IMUPart(name: "ICM-20948", address: 0x68, alternateAddress: 0x69,
                                         register: ICM20948Driver.Register.whoAmI, id: ICM20948Driver.whoAmI,
                                         role: .primary, bankSelectRegister: ICM20948Driver.Register.regBankSel)
}

extension IMUChip {
    /// TDK InvenSense ICM-20948 with its AK09916 magnetometer reached in I2C bypass mode.
    public static let icm20948 = IMUChip(
        configurationName: "icm20948", name: "ICM-20948 + AK09916",
        boards: "Pimoroni/SparkFun/Adafruit ICM-20948 breakouts, Waveshare Sense HAT (B)",
        measures: .nineAxis, parts: [.icm20948],
        magnetometer: .bypass(address: ICM20948Driver.magnetometerAddress), driver: ICM20948Driver.self)
}
