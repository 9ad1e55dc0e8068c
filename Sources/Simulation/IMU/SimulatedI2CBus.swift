import IMU

/// One register write a simulated chip accepted (the observable init sequence).
public struct SimulatedI2CWrite: Sendable, Equatable, CustomStringConvertible {
    public var address: UInt8
    public var register: UInt8
    public var value: UInt8

    public init(address: UInt8, register: UInt8, value: UInt8) {
        self.address = address
        self.register = register
        self.value = value
    }

    public var description: String {
        "\(I2CHex.byte(address)):\(I2CHex.byte(register))←\(I2CHex.byte(value))"
    }
}

/// The simulated twin of an I2C bus: routes SMBus transfers to `SimulatedChip`s by address, NACKs
/// where no (reachable) chip sits, applies injected faults, and logs every accepted register write.
/// Reads never allocate; writes append to `writeLog` (turn `logsWrites` off for long runs).
public final class SimulatedI2CBus: I2CBus {
    /// Attached chips.
    public private(set) var chips: [SimulatedChip] = []
    /// Accepted writes, in bus order.
    public private(set) var writeLog: [SimulatedI2CWrite] = []
    /// Whether writes are logged.
    public var logsWrites = true
    /// Transfers attempted (byte reads, byte writes, block reads).
    public private(set) var transferCount = 0
    /// Block reads attempted.
    public private(set) var blockReadCount = 0

    public init(chips: [SimulatedChip] = []) {
        self.chips = chips
    }

    /// Adds a chip.
    public func attach(_ chip: SimulatedChip) { chips.append(chip) }

    /// Removes the chip at `address` (unplugging it).
    public func detach(address: UInt8) { chips.removeAll { $0.address == address } }

    /// Forgets the logged writes.
    public func clearWriteLog() { writeLog.removeAll(keepingCapacity: true) }

    /// The reachable chip at `address`.
    public func chip(at address: UInt8) -> SimulatedChip? {
        var i = 0
        while i < chips.count {
            let c = chips[i]
            if c.address == address, c.isReachable { return c }
            i += 1
        }
        return nil
    }

    private func target(_ address: UInt8) throws(I2CError) -> SimulatedChip {
        transferCount += 1
        guard let chip = chip(at: address) else { throw .noAcknowledge(address: address) }
        try chip.beginTransfer()
        return chip
    }

    public func readByte(address: UInt8, register: UInt8) throws(I2CError) -> UInt8 {
        try target(address).busRead(register)
    }

    public func writeByte(address: UInt8, register: UInt8, value: UInt8) throws(I2CError) {
        let chip = try target(address)
        if chip.busWrite(register, value), logsWrites {
            writeLog.append(SimulatedI2CWrite(address: address, register: register, value: value))
        }
    }

    public func readBlock(address: UInt8, register: UInt8, count: Int) throws(I2CError) -> I2CBlock {
        blockReadCount += 1
        precondition(count >= 1 && count <= I2CBlock.capacity, "I2C block reads carry 1…32 bytes")
        let chip = try target(address)
        var block = I2CBlock()
        var current = register
        var i = 0
        while i < count {
            block[i] = chip.busRead(current)
            current = chip.nextRegister(after: current, blockStart: register)
            i += 1
        }
        block.count = count
        return block
    }
}
