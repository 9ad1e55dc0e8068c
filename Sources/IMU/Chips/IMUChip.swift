/// One row of the chip table (`IMUChipTable`): what a supported IMU is, how the probe recognizes it,
/// what it measures and which driver reads it. Each driver file defines its chip's row.
public struct IMUChip: Sendable, Equatable, CustomStringConvertible {
    /// The name in `[imu] chip` ("lsm6dsl").
    public let configurationName: StaticString
    /// Human name ("LSM6DSL + LIS3MDL").
    public let name: StaticString
    /// Boards this chip is found on.
    public let boards: StaticString
    /// What the chip delivers.
    public let measures: IMUMeasurements
    /// The identification values of its accel/gyro die (or the whole chip), any of which names it.
    public let parts: [IMUPart]
    /// Where its magnetometer is.
    public let magnetometer: IMUMagnetometerLink
    /// The driver (static requirements only: a witness table, like a gpsd driver's function pointers).
    public let driver: any IMUChipDriver.Type

    public init(configurationName: StaticString, name: StaticString, boards: StaticString, measures: IMUMeasurements,
                parts: [IMUPart], magnetometer: IMUMagnetometerLink, driver: any IMUChipDriver.Type) {
        self.configurationName = configurationName
        self.name = name
        self.boards = boards
        self.measures = measures
        self.parts = parts
        self.magnetometer = magnetometer
        self.driver = driver
    }

    /// Rows are equal when their configuration names are (allocation-free).
    public static func == (a: IMUChip, b: IMUChip) -> Bool {
        IMUPart.same(a.configurationName, b.configurationName)
    }

    /// The human name.
    public var description: String { name.description }
}

/// What an IMU delivers, for the chip table.
public struct IMUMeasurements: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Specific force (accelerometer).
    public static let acceleration = IMUMeasurements(rawValue: 1)
    /// Angular rate (gyroscope).
    public static let angularRate = IMUMeasurements(rawValue: 2)
    /// Magnetic field (magnetometer).
    public static let magneticField = IMUMeasurements(rawValue: 4)
    /// Die temperature.
    public static let temperature = IMUMeasurements(rawValue: 8)
    /// An orientation computed on the chip (`IMUReading.chipFusion`).
    public static let onChipFusion = IMUMeasurements(rawValue: 16)
    /// Accelerometer, gyroscope, magnetometer and temperature: what a 9-axis IMU gives.
    public static let nineAxis: IMUMeasurements = [.acceleration, .angularRate, .magneticField, .temperature]
}

/// Where a chip's magnetometer sits on the bus.
public enum IMUMagnetometerLink: Sendable, Equatable {
    /// Inside the chip, behind the same address.
    case internalToChip
    /// A separate I2C device the probe must find (its identification part), e.g. an LIS3MDL.
    case probed(IMUPart)
    /// A separate die the host chip exposes in I2C bypass mode at a fixed address (AK8963, AK09916).
    case bypass(address: UInt8)
}

/// Which die of an IMU a register step talks to.
public enum IMUDie: Sendable, Equatable {
    /// The accel/gyro die (or a chip with everything behind one address).
    case primary
    /// The magnetometer die (LIS3MDL, LSM9DS1-M, AK09916, AK8963).
    case magnetometer
}

/// One IMU found on a bus: which chip, at which 7-bit addresses, with which identification bytes.
public struct IMUChipInstance: Sendable, Equatable {
    /// The chip.
    public var chip: IMUChip
    /// Address of the accel/gyro die (or of the whole chip).
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
        text += chip.magnetometer == .internalToChip ? "device" : "accel/gyro"
        text += " \(I2CHex.byte(primaryAddress)) (ID \(I2CHex.byte(primaryID)))"
        if let m = magnetometerAddress {
            text += ", magnetometer \(I2CHex.byte(m))"
            if let id = magnetometerID { text += " (ID \(I2CHex.byte(id)))" }
        }
        return text
    }
}

/// Physical constants and unit factors shared by the drivers (degrees ↔ radians: `Angle`).
public enum IMUUnits {
    /// Standard gravity, m/s² per g.
    public static let standardGravity = 9.80665
    /// Microtesla per gauss.
    public static let microteslaPerGauss = 100.0
}
