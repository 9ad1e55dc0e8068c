/// The IMUs puckd has drivers for, named by the accel/gyro die (plus the magnetometer behind it).
public enum IMUChip: Sendable, Equatable, CaseIterable {
    /// ST LSM6DSL accel/gyro + separate LIS3MDL magnetometer (BerryIMU v3, BerryGPS-IMU v4).
    case lsm6dslWithLIS3MDL
    /// ST LSM9DS1: accel/gyro die + magnetometer die in one package (Raspberry Pi Sense HAT, BerryIMU v2).
    case lsm9ds1
    /// TDK InvenSense ICM-20948 with its AK09916 magnetometer reached in I2C bypass mode.
    case icm20948
    /// InvenSense MPU-9250 / MPU-9255 with its AK8963 magnetometer reached in I2C bypass mode.
    case mpu9250
    /// Bosch BNO055 running its on-chip fusion (NDOF); raw accel/gyro/mag are read too.
    case bno055

    /// Human name ("LSM6DSL + LIS3MDL").
    public var name: StaticString {
        switch self {
        case .lsm6dslWithLIS3MDL: "LSM6DSL + LIS3MDL"
        case .lsm9ds1: "LSM9DS1"
        case .icm20948: "ICM-20948 + AK09916"
        case .mpu9250: "MPU-9250 + AK8963"
        case .bno055: "BNO055"
        }
    }

    /// Boards this chip is found on.
    public var boards: StaticString {
        switch self {
        case .lsm6dslWithLIS3MDL: "BerryIMU v3, BerryGPS-IMU v4"
        case .lsm9ds1: "Raspberry Pi Sense HAT, BerryIMU v2"
        case .icm20948: "Pimoroni/SparkFun/Adafruit ICM-20948 breakouts, Waveshare Sense HAT (B)"
        case .mpu9250: "MPU-9250 breakouts (legacy)"
        case .bno055: "Adafruit BNO055 breakout"
        }
    }
}

/// Which die of an IMU a register step talks to.
public enum IMUDie: Sendable, Equatable {
    /// The accel/gyro die (or the BNO055 itself).
    case primary
    /// The magnetometer die (LIS3MDL, LSM9DS1-M, AK09916, AK8963).
    case magnetometer
}

/// One IMU found on a bus: which chip, at which 7-bit addresses, with which identification bytes.
public struct IMUChipInstance: Sendable, Equatable {
    /// The chip.
    public var chip: IMUChip
    /// Address of the accel/gyro die (or the BNO055).
    public var primaryAddress: UInt8
    /// WHO_AM_I / CHIP_ID value read from the primary die.
    public var primaryID: UInt8
    /// Address of the magnetometer die, when it is a separate I2C device.
    public var magnetometerAddress: UInt8?
    /// WHO_AM_I / WIA value read from the magnetometer die.
    public var magnetometerID: UInt8?

    public init(chip: IMUChip, primaryAddress: UInt8, primaryID: UInt8,
                magnetometerAddress: UInt8? = nil, magnetometerID: UInt8? = nil) {
        self.chip = chip
        self.primaryAddress = primaryAddress
        self.primaryID = primaryID
        self.magnetometerAddress = magnetometerAddress
        self.magnetometerID = magnetometerID
    }

    /// The address of `die` (the primary address when the chip has no separate magnetometer device).
    @inline(__always)
    public func address(of die: IMUDie) -> UInt8 {
        switch die {
        case .primary: primaryAddress
        case .magnetometer: magnetometerAddress ?? primaryAddress
        }
    }

    /// "LSM6DSL + LIS3MDL: accel/gyro 0x6a (ID 0x6a), magnetometer 0x1c (ID 0x3d)" (allocates).
    public var description: String {
        var text = "\(chip.name): "
        text += chip == .bno055 ? "device" : "accel/gyro"
        text += " \(I2CHex.byte(primaryAddress)) (ID \(I2CHex.byte(primaryID)))"
        if let m = magnetometerAddress {
            text += ", magnetometer \(I2CHex.byte(m))"
            if let id = magnetometerID { text += " (ID \(I2CHex.byte(id)))" }
        }
        return text
    }
}

/// Physical constants and unit factors shared by the drivers.
public enum IMUUnits {
    /// Standard gravity, m/s² per g.
    public static let standardGravity = 9.80665
    /// Radians per degree.
    public static let radiansPerDegree = Double.pi / 180
    /// Microtesla per gauss.
    public static let microteslaPerGauss = 100.0
}
