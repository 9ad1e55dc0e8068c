/// The ST LIS3MDL magnetometer (and the identical register interface of the LSM9DS1's magnetometer
/// die): initialization program and the status + data burst read.
///
/// Configuration: ultra-high-performance X/Y and Z, 80 Hz, ±4 gauss (6842 LSB/gauss), continuous
/// conversion, block data update. Multi-byte reads set bit 7 of the register address (0x80 | reg)
/// to auto-increment, as the datasheet and the Linux st_magn driver do.
public enum LIS3MDL {
    /// Register map (ST lis3mdl_reg.h).
    public enum Register {
        public static let whoAmI: UInt8 = 0x0F
        public static let ctrlReg1: UInt8 = 0x20
        public static let ctrlReg2: UInt8 = 0x21
        public static let ctrlReg3: UInt8 = 0x22
        public static let ctrlReg4: UInt8 = 0x23
        public static let ctrlReg5: UInt8 = 0x24
        public static let statusReg: UInt8 = 0x27
        public static let outXL: UInt8 = 0x28
    }

    /// WHO_AM_I value (shared with the LSM9DS1 magnetometer).
    public static let whoAmI: UInt8 = 0x3D
    /// Register-address flag that makes multi-byte reads auto-increment.
    public static let autoIncrement: UInt8 = 0x80
    /// CTRL_REG1: OM = ultra-high performance (11), DO = 80 Hz (111).
    public static let ctrlReg1: UInt8 = 0x7C
    /// CTRL_REG2: FS ±4 gauss.
    public static let ctrlReg2: UInt8 = 0x00
    /// CTRL_REG2: REBOOT | SOFT_RST.
    public static let reset: UInt8 = 0x0C
    /// CTRL_REG3: MD = continuous conversion.
    public static let ctrlReg3: UInt8 = 0x00
    /// CTRL_REG4: OMZ = ultra-high performance.
    public static let ctrlReg4: UInt8 = 0x0C
    /// CTRL_REG5: BDU.
    public static let ctrlReg5: UInt8 = 0x40
    /// Sensitivity at ±4 gauss: 1/6842 gauss per LSB, in µT.
    public static let microteslaPerLSB = IMUUnits.microteslaPerGauss / 6842

    /// Initialization program for the magnetometer die.
    public static let program: [IMURegisterStep] = [
        .expect(.magnetometer, register: Register.whoAmI, value: whoAmI),
        .write(.magnetometer, register: Register.ctrlReg2, value: reset),
        .delay(milliseconds: 10),
        .write(.magnetometer, register: Register.ctrlReg1, value: ctrlReg1),
        .write(.magnetometer, register: Register.ctrlReg2, value: ctrlReg2),
        .write(.magnetometer, register: Register.ctrlReg4, value: ctrlReg4),
        .write(.magnetometer, register: Register.ctrlReg5, value: ctrlReg5),
        .write(.magnetometer, register: Register.ctrlReg3, value: ctrlReg3),
    ]

    /// Reads STATUS_REG and OUT_X_L…OUT_Z_H in one 7-byte auto-increment burst; returns the field in
    /// the magnetometer's own axes (µT), or nil when ZYXDA says there is no new sample.
    @inline(__always)
    public static func readField<Bus: I2CBus>(bus: inout Bus, address: UInt8, scale: Double) throws(I2CError) -> Vector3? {
        let block = try bus.readBlock(address: address, register: Register.statusReg | autoIncrement, count: 7)
        guard block[0] & 0x08 != 0 else { return nil }          // ZYXDA
        return scaledVector(block.int16LittleEndian(at: 1), block.int16LittleEndian(at: 3),
                            block.int16LittleEndian(at: 5), scale)
    }
}

extension IMUPart {
    /// WHO_AM_I 0x3D at 0x1C/0x1E: an LIS3MDL or the LSM9DS1's magnetometer die (indistinguishable).
    public static let stMagnetometer = IMUPart(name: "LIS3MDL or LSM9DS1 magnetometer", address: 0x1C,
                                               alternateAddress: 0x1E, register: LIS3MDL.Register.whoAmI,
                                               id: LIS3MDL.whoAmI, role: .magnetometer)
}
