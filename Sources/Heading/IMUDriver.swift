/// The driver of whichever chip the probe found, as one enum: the device loop dispatches with a
/// `switch` instead of an existential, so the sample path stays specialized and allocation-free.
public enum IMUDriver: Sendable {
    case lsm6dsl(LSM6DSLDriver)
    case lsm9ds1(LSM9DS1Driver)
    case icm20948(ICM20948Driver)
    case mpu9250(MPU9250Driver)
    case bno055(BNO055Driver)

    /// The driver for a probed chip. `lis3mdlRemap` is the board's LIS3MDL → LSM6DSL axis relation.
    public init(instance: IMUChipInstance, lis3mdlRemap: IMUAxisRemap = .identity) {
        switch instance.chip {
        case .lsm6dslWithLIS3MDL: self = .lsm6dsl(LSM6DSLDriver(instance: instance, magnetometerRemap: lis3mdlRemap))
        case .lsm9ds1: self = .lsm9ds1(LSM9DS1Driver(instance: instance))
        case .icm20948: self = .icm20948(ICM20948Driver(instance: instance))
        case .mpu9250: self = .mpu9250(MPU9250Driver(instance: instance))
        case .bno055: self = .bno055(BNO055Driver(instance: instance))
        }
    }

    /// The chip and its addresses.
    public var instance: IMUChipInstance {
        switch self {
        case .lsm6dsl(let d): d.instance
        case .lsm9ds1(let d): d.instance
        case .icm20948(let d): d.instance
        case .mpu9250(let d): d.instance
        case .bno055(let d): d.instance
        }
    }

    /// The chip's initialization program.
    public var initializationProgram: [IMURegisterStep] {
        switch self {
        case .lsm6dsl(let d): d.initializationProgram
        case .lsm9ds1(let d): d.initializationProgram
        case .icm20948(let d): d.initializationProgram
        case .mpu9250(let d): d.initializationProgram
        case .bno055(let d): d.initializationProgram
        }
    }

    /// Nominal output data rate, hertz.
    public var outputDataRateHertz: Double {
        switch self {
        case .lsm6dsl(let d): d.outputDataRateHertz
        case .lsm9ds1(let d): d.outputDataRateHertz
        case .icm20948(let d): d.outputDataRateHertz
        case .mpu9250(let d): d.outputDataRateHertz
        case .bno055(let d): d.outputDataRateHertz
        }
    }

    /// See `IMUChipDriver.finishInitialization`.
    public mutating func finishInitialization(captured: InlineArray<4, UInt8>, nowNanoseconds: Int64) {
        switch self {
        case .lsm6dsl(var d): d.finishInitialization(captured: captured, nowNanoseconds: nowNanoseconds); self = .lsm6dsl(d)
        case .lsm9ds1(var d): d.finishInitialization(captured: captured, nowNanoseconds: nowNanoseconds); self = .lsm9ds1(d)
        case .icm20948(var d): d.finishInitialization(captured: captured, nowNanoseconds: nowNanoseconds); self = .icm20948(d)
        case .mpu9250(var d): d.finishInitialization(captured: captured, nowNanoseconds: nowNanoseconds); self = .mpu9250(d)
        case .bno055(var d): d.finishInitialization(captured: captured, nowNanoseconds: nowNanoseconds); self = .bno055(d)
        }
    }

    /// See `IMUChipDriver.readSample`.
    public mutating func readSample<Bus: I2CBus>(bus: inout Bus, nowNanoseconds: Int64) throws(I2CError) -> IMUReading? {
        switch self {
        case .lsm6dsl(var d):
            defer { self = .lsm6dsl(d) }
            return try d.readSample(bus: &bus, nowNanoseconds: nowNanoseconds)
        case .lsm9ds1(var d):
            defer { self = .lsm9ds1(d) }
            return try d.readSample(bus: &bus, nowNanoseconds: nowNanoseconds)
        case .icm20948(var d):
            defer { self = .icm20948(d) }
            return try d.readSample(bus: &bus, nowNanoseconds: nowNanoseconds)
        case .mpu9250(var d):
            defer { self = .mpu9250(d) }
            return try d.readSample(bus: &bus, nowNanoseconds: nowNanoseconds)
        case .bno055(var d):
            defer { self = .bno055(d) }
            return try d.readSample(bus: &bus, nowNanoseconds: nowNanoseconds)
        }
    }
}
