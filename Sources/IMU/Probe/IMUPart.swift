/// A part the bus probe recognizes by one identification register (WHO_AM_I / CHIP_ID), supported or
/// not: where it answers, which register holds which value, and what it means for a heading. Supported
/// chips define their parts in their driver files; parts without a driver are listed here.
public struct IMUPart: Sendable, Equatable {
    /// What finding the part means.
    public enum Role: Sendable, Equatable {
        /// The accel/gyro die (or the whole chip) of a supported chip (`IMUChipTable`).
        case primary
        /// A separate magnetometer die a supported chip needs (`IMUMagnetometerLink.probed`).
        case magnetometer
        /// A 6-axis part without a magnetometer: no heading possible.
        case sixAxis
        /// A part puckd recognizes but has no driver for.
        case unsupported
    }

    /// Human name.
    public let name: StaticString
    /// The 7-bit address the part answers at (its strap or solder-jumper default).
    public let address: UInt8
    /// Its other address, if it has one.
    public let alternateAddress: UInt8?
    /// The identification register.
    public let register: UInt8
    /// The value that register holds.
    public let id: UInt8
    /// What finding it means.
    public let role: Role
    /// A register-bank select register the identification register depends on (ICM-20948 0x7F: its
    /// WHO_AM_I is in bank 0); when the value does not match, the probe selects bank 0 and reads again.
    public let bankSelectRegister: UInt8?

    public init(name: StaticString, address: UInt8, alternateAddress: UInt8? = nil, register: UInt8, id: UInt8,
                role: Role, bankSelectRegister: UInt8? = nil) {
        self.name = name
        self.address = address
        self.alternateAddress = alternateAddress
        self.register = register
        self.id = id
        self.role = role
        self.bankSelectRegister = bankSelectRegister
    }

    /// Parts are equal when they answer at the same addresses with the same identification.
    public static func == (a: IMUPart, b: IMUPart) -> Bool {
        a.address == b.address && a.alternateAddress == b.alternateAddress && a.register == b.register && a.id == b.id
    }

    /// True for parts at the same addresses (one probe group).
    func sharesAddresses(with other: IMUPart) -> Bool {
        address == other.address && alternateAddress == other.alternateAddress
    }

    /// Byte-wise equality of two static strings (allocation-free).
    static func same(_ a: StaticString, _ b: StaticString) -> Bool {
        a.withUTF8Buffer { x in b.withUTF8Buffer { y in x.elementsEqual(y) } }
    }

    /// WHO_AM_I 0x6B at 0x6A/0x6B: ISM330DHCX or LSM6DSO.
    public static let ism330dhcx = IMUPart(name: "ISM330DHCX (or LSM6DSO) accel/gyro", address: 0x6A,
                                           alternateAddress: 0x6B, register: 0x0F, id: 0x6B, role: .unsupported)
    /// WHO_AM_I 0x73 at 0x6A/0x6B.
    public static let lsm6dsv320x = IMUPart(name: "LSM6DSV320X accel/gyro", address: 0x6A, alternateAddress: 0x6B,
                                            register: 0x0F, id: 0x73, role: .unsupported)
    /// WHO_AM_I 0x70 at 0x68/0x69: an MPU-6500, often sold as an "MPU-9250".
    public static let mpu6500 = IMUPart(name: "MPU-6500 (no magnetometer)", address: 0x68, alternateAddress: 0x69,
                                        register: 0x75, id: 0x70, role: .sixAxis)
    /// WHO_AM_I 0x68 at 0x68/0x69: MPU-6050 (or an MPU-9150, whose magnetometer puckd does not reach).
    public static let mpu6050 = IMUPart(name: "MPU-6050/9150", address: 0x68, alternateAddress: 0x69,
                                        register: 0x75, id: 0x68, role: .sixAxis)
    /// Product ID 0x30 in register 0x2F at 0x30.
    public static let mmc5983ma = IMUPart(name: "MMC5983MA magnetometer", address: 0x30, register: 0x2F, id: 0x30,
                                          role: .unsupported)

    /// The recognized parts without a driver, for the probe's messages.
    public static let withoutDriver: [IMUPart] = [.ism330dhcx, .lsm6dsv320x, .mpu6500, .mpu6050, .mmc5983ma]
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
            "no IMU answered at \(IMUProbe.primaryAddressList): check that the HAT or breakout is seated "
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
                + "no driver for it; supported: \(IMUProbe.supportedChipList)"
        case .bus(let e):
            e.message
        case .unrecognized(let a, let r, let v):
            "a device at \(I2CHex.byte(a)) answered \(I2CHex.byte(v)) in register \(I2CHex.byte(r)), which is "
                + "no supported IMU's ID (an RTC or another sensor at an IMU address?)"
        }
    }
}
