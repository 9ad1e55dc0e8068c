import Angles

/// Driver for the InvenSense MPU-9250 / MPU-9255 with its AK8963 magnetometer, reached directly on
/// the host bus at 0x0C in I2C bypass mode.
///
/// Configuration: 1 kHz internal rate / (1 + 9) = 100 Hz, gyro DLPF 41 Hz, accel DLPF ≈ 45 Hz,
/// ±2000 dps (16.4 LSB/dps), ±4 g (8192 LSB/g), raw-data-ready status enabled; AK8963 fuse-ROM
/// sensitivity adjustment (ASA) read once, then 16-bit continuous mode 2 (100 Hz, 0.15 µT/LSB).
/// Reading: one 15-byte **big-endian** burst from INT_STATUS (0x3A): status, accel, temperature,
/// gyro; then the AK8963's ST1 … ST2 burst (little-endian). AK8963 axes → MPU axes: (my, mx, −mz).
/// Field = raw · 0.15 µT · ((ASA − 128)/256 + 1), per AK8963 axis, before the remap.
public enum MPU9250Driver: IMUChipDriver {
    /// Register map.
    public enum Register {
        public static let smplrtDiv: UInt8 = 0x19
        public static let config: UInt8 = 0x1A
        public static let gyroConfig: UInt8 = 0x1B
        public static let accelConfig: UInt8 = 0x1C
        public static let accelConfig2: UInt8 = 0x1D
        public static let intPinCfg: UInt8 = 0x37
        public static let intEnable: UInt8 = 0x38
        public static let intStatus: UInt8 = 0x3A
        public static let userCtrl: UInt8 = 0x6A
        public static let pwrMgmt1: UInt8 = 0x6B
        public static let pwrMgmt2: UInt8 = 0x6C
        public static let whoAmI: UInt8 = 0x75
    }

    /// AK8963 register map.
    public enum AK8963Register {
        public static let wia: UInt8 = 0x00
        public static let st1: UInt8 = 0x02
        public static let cntl1: UInt8 = 0x0A
        public static let asax: UInt8 = 0x10
        public static let asay: UInt8 = 0x11
        public static let asaz: UInt8 = 0x12
    }

    /// WHO_AM_I of the MPU-9250.
    public static let whoAmI9250: UInt8 = 0x71
    /// WHO_AM_I of the MPU-9255.
    public static let whoAmI9255: UInt8 = 0x73
    /// AK8963 WIA value.
    public static let magnetometerID: UInt8 = 0x48
    /// AK8963 address on the host bus in bypass mode.
    public static let magnetometerAddress: UInt8 = 0x0C
    /// Accelerometer sensitivity at ±4 g, m/s² per LSB (8192 LSB/g).
    public static let accelerationScale = IMUUnits.standardGravity / 8192
    /// Gyroscope sensitivity at ±2000 dps, rad/s per LSB (16.4 LSB/dps).
    public static let gyroScale = Angle.radiansPerDegree / 16.4
    /// AK8963 sensitivity in 16-bit mode, µT per LSB (before ASA).
    public static let magneticScale = 0.15
    /// Temperature sensitivity, LSB per °C (°C = raw / 333.87 + 21).
    public static let temperatureLSBPerCelsius = 333.87
    /// AK8963 axes → MPU-9250 axes.
    public static let magnetometerRemap = IMUAxisRemap(parsing: "y,x,-z")!

    public static var outputDataRateHertz: Double { 100 }

    /// µT per LSB for one axis given its fuse-ROM ASA byte.
    public static func adjustedScale(asa: UInt8) -> Double {
        magneticScale * ((Double(asa) - 128) / 256 + 1)
    }

    public static func program(whoAmI: UInt8) -> [IMURegisterStep] {
        [
            .expect(.primary, register: Register.whoAmI, value: whoAmI),
            .write(.primary, register: Register.pwrMgmt1, value: 0x80),     // H_RESET
            .delay(milliseconds: 100),
            .write(.primary, register: Register.pwrMgmt1, value: 0x01),     // wake, auto clock
            .write(.primary, register: Register.pwrMgmt2, value: 0x00),     // all axes on
            .write(.primary, register: Register.config, value: 0x03),       // gyro DLPF 41 Hz, 1 kHz
            .write(.primary, register: Register.smplrtDiv, value: 9),       // 100 Hz
            .write(.primary, register: Register.gyroConfig, value: 0x18),   // ±2000 dps
            .write(.primary, register: Register.accelConfig, value: 0x08),  // ±4 g
            .write(.primary, register: Register.accelConfig2, value: 0x03), // accel DLPF ≈ 45 Hz
            .write(.primary, register: Register.userCtrl, value: 0x00),     // I2C master off
            .write(.primary, register: Register.intPinCfg, value: 0x02),    // BYPASS_EN
            .write(.primary, register: Register.intEnable, value: 0x01),    // RAW_RDY_EN
            .expect(.magnetometer, register: AK8963Register.wia, value: magnetometerID),
            .write(.magnetometer, register: AK8963Register.cntl1, value: 0x00),   // power down
            .delay(milliseconds: 10),
            .write(.magnetometer, register: AK8963Register.cntl1, value: 0x0F),   // fuse ROM access
            .delay(milliseconds: 10),
            .capture(.magnetometer, register: AK8963Register.asax, slot: 0),
            .capture(.magnetometer, register: AK8963Register.asay, slot: 1),
            .capture(.magnetometer, register: AK8963Register.asaz, slot: 2),
            .write(.magnetometer, register: AK8963Register.cntl1, value: 0x00),   // power down
            .delay(milliseconds: 10),
            .write(.magnetometer, register: AK8963Register.cntl1, value: 0x16),   // 16-bit, continuous 2
        ]
    }

    public static let program9250 = program(whoAmI: whoAmI9250)
    public static let program9255 = program(whoAmI: whoAmI9255)

    public static func initializationProgram(for instance: IMUChipInstance) -> [IMURegisterStep] {
        instance.primaryID == MPU9250Driver.whoAmI9255 ? MPU9250Driver.program9255 : MPU9250Driver.program9250
    }

    /// Per-AK8963-axis µT per LSB after the fuse-ROM adjustment the program captured.
    @inline(__always)
    public static func magneticScalePerAxis(_ state: IMUDriverState) -> (Double, Double, Double) {
        (adjustedScale(asa: state.captured[0]), adjustedScale(asa: state.captured[1]),
         adjustedScale(asa: state.captured[2]))
    }

    public static func readSample<Bus: I2CBus>(_ state: inout IMUDriverState, bus: inout Bus,
                                               nowNanoseconds: Int64) throws(I2CError) -> IMUReading? {
        let address = state.instance.primaryAddress
        let block = try bus.readBlock(address: address, register: Register.intStatus, count: 15)
        guard block[0] & 0x01 != 0 else { return nil }          // RAW_DATA_RDY_INT
        let accel = scaledVector(block.int16BigEndian(at: 1), block.int16BigEndian(at: 3),
                                 block.int16BigEndian(at: 5), MPU9250Driver.accelerationScale)
        let temperature = Double(block.int16BigEndian(at: 7)) / MPU9250Driver.temperatureLSBPerCelsius + 21
        let gyro = scaledVector(block.int16BigEndian(at: 9), block.int16BigEndian(at: 11),
                                block.int16BigEndian(at: 13), MPU9250Driver.gyroScale)
        let mag = try AKMagnetometer.read(bus: &bus, address: state.instance.address(of: .magnetometer),
                                          status1Register: AK8963Register.st1, count: 8,
                                          scale: magneticScalePerAxis(state))
        let sample = IMUSample(timestampNanoseconds: nowNanoseconds, gyroRadiansPerSecond: gyro,
                               accelerationMetersPerSecondSquared: accel,
                               magneticFieldMicrotesla: mag.field.map { MPU9250Driver.magnetometerRemap.apply($0) },
                               temperatureCelsius: temperature)
        let fingerprint = block.fingerprint(from: 9, count: 6, seed: block.fingerprint(from: 1, count: 6))
        return IMUReading(sample: sample, magnetometerOverflow: mag.overflow, rawDataFingerprint: fingerprint)
    }
}

extension IMUPart {
    /// WHO_AM_I 0x71 at 0x68/0x69.
    public static let mpu9250 = IMUPart(name: "MPU-9250", address: 0x68, alternateAddress: 0x69,
                                        register: MPU9250Driver.Register.whoAmI, id: MPU9250Driver.whoAmI9250, role: .primary)
    /// WHO_AM_I 0x73 at 0x68/0x69.
    public static let mpu9255 = IMUPart(name: "MPU-9255", address: 0x68, alternateAddress: 0x69,
                                        register: MPU9250Driver.Register.whoAmI, id: MPU9250Driver.whoAmI9255, role: .primary)
}

extension IMUChip {
    /// InvenSense MPU-9250 / MPU-9255 with its AK8963 magnetometer reached in I2C bypass mode.
    public static let mpu9250 = IMUChip(
        configurationName: "mpu9250", name: "MPU-9250 + AK8963", boards: "MPU-9250 breakouts (legacy)",
        measures: .nineAxis, parts: [.mpu9250, .mpu9255],
        magnetometer: .bypass(address: MPU9250Driver.magnetometerAddress), driver: MPU9250Driver.self)
}
