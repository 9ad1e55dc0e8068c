import IMU
import Hardware
import Heading
import Simulation

/// The IMU bus of the device: the kernel's i2c-dev bus on a board, the simulated bus on the simulated
/// board. One concrete type (a two-case switch per transfer, no existential), so `Device` needs no
/// generic parameter for it.
public enum DeviceI2CBus: I2CBus {
    case kernel(I2CDevBus)
    case simulated(SimulatedI2CBus)

    public mutating func readByte(address: UInt8, register: UInt8) throws(I2CError) -> UInt8 {
        switch self {
        case .kernel(let bus): return try bus.readByte(address: address, register: register)
        case .simulated(let bus): return try bus.readByte(address: address, register: register)
        }
    }

    public mutating func writeByte(address: UInt8, register: UInt8, value: UInt8) throws(I2CError) {
        switch self {
        case .kernel(let bus): try bus.writeByte(address: address, register: register, value: value)
        case .simulated(let bus): try bus.writeByte(address: address, register: register, value: value)
        }
    }

    public mutating func readBlock(address: UInt8, register: UInt8, count: Int) throws(I2CError) -> I2CBlock {
        switch self {
        case .kernel(let bus): return try bus.readBlock(address: address, register: register, count: count)
        case .simulated(let bus): return try bus.readBlock(address: address, register: register, count: count)
        }
    }

    /// What the bus is, for the start-up report.
    public var description: String {
        switch self {
        case .kernel(let bus): return bus.path
        case .simulated: return "the simulated I2C bus"
        }
    }
}
