/// Every part the bus probe recognizes by its identification register, supported or not.
public enum IMUPart: Sendable, Equatable {
    case lsm6dsl, lsm9ds1AccelGyro, ism330dhcx, lsm6dsv320x
    /// WHO_AM_I 0x3D at 0x1C/0x1E: an LIS3MDL or the LSM9DS1's magnetometer die (indistinguishable).
    case stMagnetometer
    case icm20948, mpu9250, mpu9255, mpu6500, mpu6050, bno055, mmc5983ma

    /// Human name.
    public var name: StaticString {
        switch self {
        case .lsm6dsl: "LSM6DSL accel/gyro"
        case .lsm9ds1AccelGyro: "LSM9DS1 accel/gyro"
        case .ism330dhcx: "ISM330DHCX (or LSM6DSO) accel/gyro"
        case .lsm6dsv320x: "LSM6DSV320X accel/gyro"
        case .stMagnetometer: "LIS3MDL or LSM9DS1 magnetometer"
        case .icm20948: "ICM-20948"
        case .mpu9250: "MPU-9250"
        case .mpu9255: "MPU-9255"
        case .mpu6500: "MPU-6500 (no magnetometer)"
        case .mpu6050: "MPU-6050/9150"
        case .bno055: "BNO055"
        case .mmc5983ma: "MMC5983MA magnetometer"
        }
    }

    /// True for accel/gyro parts that need a separate magnetometer at 0x1C/0x1E.
    var needsSTMagnetometer: Bool { self == .lsm6dsl || self == .lsm9ds1AccelGyro }

    /// The supported chip this part is the accel/gyro die of, if any.
    var chip: IMUChip? {
        switch self {
        case .lsm6dsl: .lsm6dslWithLIS3MDL
        case .lsm9ds1AccelGyro: .lsm9ds1
        case .icm20948: .icm20948
        case .mpu9250, .mpu9255: .mpu9250
        case .bno055: .bno055
        case .ism330dhcx, .lsm6dsv320x, .stMagnetometer, .mpu6500, .mpu6050, .mmc5983ma: nil
        }
    }
}

/// Why the probe found no supported IMU. `message` says what was found and what to do.
public enum IMUProbeFailure: Sendable, Equatable {
    /// No device answered at any IMU address.
    case nothingFound
    /// An ST accel/gyro answered but no magnetometer at 0x1C/0x1E.
    case magnetometerMissing(IMUPart, accelGyroAddress: UInt8)
    /// A 6-axis InvenSense part (MPU-6500, MPU-6050): no magnetometer, so no heading.
    case noMagnetometer(IMUPart, address: UInt8, id: UInt8)
    /// A kernel driver owns an IMU address.
    case busy(address: UInt8)
    /// A recognized part puckd has no driver for.
    case unsupported(IMUPart, address: UInt8, id: UInt8)
    /// A transfer failed with an error other than NACK or EBUSY.
    case bus(I2CError)
    /// Something answered at an IMU address with an identification value no supported IMU has.
    case unrecognized(address: UInt8, register: UInt8, value: UInt8)

    /// A static summary (allocation-free).
    public var summary: StaticString {
        switch self {
        case .nothingFound: "no IMU answered on this I2C bus"
        case .magnetometerMissing: "IMU accel/gyro found but its magnetometer does not answer"
        case .noMagnetometer: "6-axis IMU without magnetometer: no heading possible"
        case .busy: "a kernel driver owns the IMU address (EBUSY)"
        case .unsupported: "IMU recognized but not supported"
        case .bus(let e): e.summary
        case .unrecognized: "unrecognized chip at an IMU address"
        }
    }

    /// The full message (allocates).
    public var message: String {
        switch self {
        case .nothingFound:
            "no IMU answered at 0x6a, 0x6b, 0x68, 0x69, 0x28 or 0x29: check that the HAT or breakout is seated "
                + "and powered, that I2C is enabled (sudo raspi-config nonint do_i2c 0) and that this is the "
                + "right bus (i2cdetect -y N lists what answers)"
        case .magnetometerMissing(let part, let a):
            "found an \(part.name) at \(I2CHex.byte(a)) but no magnetometer (WHO_AM_I 0x3d) at 0x1c or 0x1e: "
                + "a heading needs it; check the board (BerryIMU v2/v3 and the Sense HAT have it at 0x1c)"
        case .noMagnetometer(let part, let a, let id):
            "found an \(part.name) at \(I2CHex.byte(a)) (WHO_AM_I \(I2CHex.byte(id))): a 6-axis part (often "
                + "sold as \"MPU-9250\") cannot give a heading; use a 9-axis IMU such as an ICM-20948"
        case .busy(let a):
            I2CError.busy(address: a).message
        case .unsupported(let part, let a, let id):
            "found an \(part.name) at \(I2CHex.byte(a)) (ID \(I2CHex.byte(id))): recognized, but puckd has "
                + "no driver for it; supported: LSM6DSL+LIS3MDL, LSM9DS1, ICM-20948, MPU-9250, BNO055"
        case .bus(let e):
            e.message
        case .unrecognized(let a, let r, let v):
            "a device at \(I2CHex.byte(a)) answered \(I2CHex.byte(v)) in register \(I2CHex.byte(r)), which is "
                + "no supported IMU's ID (an RTC or another sensor at an IMU address?)"
        }
    }
}
