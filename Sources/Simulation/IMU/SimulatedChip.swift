import IMU

/// A failure a simulated chip can inject into its next transfers.
public enum SimulatedTransferFault: Sendable, Equatable {
    /// The chip does not acknowledge (unplugged, brown-out, booting).
    case noAcknowledge
    /// The transfer fails with EIO.
    case io
    /// A kernel driver owns the address: EBUSY.
    case busy
    /// The transfer times out (clock stretching).
    case timeout
}

/// One simulated I2C chip: a 256-byte register file per bank (4 banks for the ICM-20948) with the
/// behaviour of a real part (`SimulatedChipModel`): identification registers, reset bits that
/// restore power-on values, auto-increment rules, data-ready flags that clear when read, and output
/// registers filled from true physical values by `present(_:fusion:)` (the inverse of the driver:
/// SI → the chip's axes, scale from its own configuration registers, byte order). Faults are
/// injected per transfer (`injectFault`) or as stuck output registers (`outputsStuck`).
public final class SimulatedChip {
    /// What the chip imitates.
    public let model: SimulatedChipModel
    /// 7-bit I2C address.
    public let address: UInt8
    /// For a magnetometer behind an InvenSense host (AK8963, AK09916): the host chip. The
    /// magnetometer is reachable only while the host has I2C bypass on and its I2C master off.
    public var bypassHost: SimulatedChip?
    /// Board-specific axis relation for a separate magnetometer package (LIS3MDL on BerryIMU v3):
    /// chip-axis vector = this remap applied to the host-frame vector. Identity by default.
    public var hostToChipAxes: IMUAxisRemap = .identity
    /// AK8963 fuse-ROM sensitivity adjustment values (ASAX, ASAY, ASAZ).
    public var fuseROM: InlineArray<3, UInt8> = [0xB0, 0xB3, 0xA5]
    /// While true, `present` no longer changes the output registers but still raises data-ready
    /// (a stuck chip).
    public var outputsStuck = false
    /// While true, magnetometers flag a magnetic overflow with every sample.
    public var magneticOverflow = false

    private var registers: [UInt8]
    /// The chip's FIFO (LSM6DSL, LSM9DS1 accel/gyro, MPU-9250, ICM-20948; nil for the other models).
    var fifo: SimulatedFIFO?
    /// Register bank selected (ICM-20948 REG_BANK_SEL).
    public private(set) var selectedBank = 0
    /// Output data rate of the current configuration, hertz (0 when not converting).
    public private(set) var outputDataRateHertz = 0.0
    private var fault: SimulatedTransferFault?
    private var faultTransfersRemaining = 0
    private var nacksRemaining = 0
    /// Number of transfers addressed to this chip (successful or not).
    public private(set) var transferCount = 0
    /// Number of `present` calls that produced output (not counting a non-converting chip).
    public private(set) var samplesPresented = 0

    public init(model: SimulatedChipModel, address: UInt8) {
        self.model = model
        self.address = address
        registers = [UInt8](repeating: 0, count: 4 * 256)
        if let capacity = SimulatedChip.fifoCapacityBytes(model) { fifo = SimulatedFIFO(capacityBytes: capacity) }
        powerOn()
    }

    /// Restores the power-on register values (as after a reset).
    public func powerOn() {
        var i = 0
        while i < registers.count { registers[i] = 0; i += 1 }
        selectedBank = 0
        for preset in model.powerOnValues { registers[preset.bank * 256 + Int(preset.register)] = preset.value }
        fifo?.reset()
        outputDataRateHertz = model.outputDataRateHertz(self)
    }

    /// Register value without side effects (tests, model rules).
    public func peek(_ register: UInt8, bank: Int = 0) -> UInt8 { registers[bank * 256 + Int(register)] }

    /// Sets a register without side effects (test setup, e.g. raw output values).
    public func poke(_ register: UInt8, _ value: UInt8, bank: Int = 0) {
        registers[bank * 256 + Int(register)] = value
    }

    /// Sets consecutive registers without side effects.
    public func poke(_ register: UInt8, _ values: [UInt8], bank: Int = 0) {
        var i = 0
        while i < values.count { poke(register &+ UInt8(i), values[i], bank: bank); i += 1 }
    }

    func clearBits(_ register: UInt8, _ mask: UInt8) { registers[Int(register)] &= ~mask }

    func setBits(_ register: UInt8, _ mask: UInt8, bank: Int = 0) { registers[bank * 256 + Int(register)] |= mask }

    /// Makes the next `transfers` transfers fail with `fault` (`Int.max`: until `clearFault`).
    public func injectFault(_ fault: SimulatedTransferFault, transfers: Int = .max) {
        self.fault = fault
        faultTransfersRemaining = transfers
    }

    /// Ends an injected transfer fault.
    public func clearFault() {
        fault = nil
        faultTransfersRemaining = 0
    }

    /// True when the chip answers on the bus at all (bypass gating for AK magnetometers).
    public var isReachable: Bool {
        guard let host = bypassHost else { return true }
        switch host.model {
        case .icm20948: return host.peek(0x0F) & 0x02 != 0 && host.peek(0x03) & 0x20 == 0
        case .mpu9250: return host.peek(0x37) & 0x02 != 0 && host.peek(0x6A) & 0x20 == 0
        default: return true
        }
    }

    /// Applies the injected fault to one transfer.
    func beginTransfer() throws(I2CError) {
        transferCount += 1
        if nacksRemaining > 0 {
            nacksRemaining -= 1
            throw .noAcknowledge(address: address)
        }
        guard let fault, faultTransfersRemaining > 0 else { return }
        if faultTransfersRemaining != .max { faultTransfersRemaining -= 1 }
        if faultTransfersRemaining == 0 { self.fault = nil }
        switch fault {
        case .noAcknowledge: throw .noAcknowledge(address: address)
        case .io: throw .io(address: address)
        case .busy: throw .busy(address: address)
        case .timeout: throw .timeout(address: address)
        }
    }

    /// A bus read of one register, with side effects.
    func busRead(_ addressed: UInt8) -> UInt8 {
        let register = model.usesAddressAutoIncrementFlag ? addressed & 0x7F : addressed
        let bank = model.bank(for: register, selected: selectedBank)
        if fifo != nil, let value = fifoRead(register, bank: bank) {
            model.afterRead(register, chip: self)
            return value
        }
        let value = model.readOverride(register, chip: self) ?? registers[bank * 256 + Int(register)]
        model.afterRead(register, chip: self)
        if fifo != nil { fifoAfterStatusRead(register, bank: bank) }
        return value
    }

    /// The register a block read continues with after `register`.
    func nextRegister(after addressed: UInt8, blockStart: UInt8) -> UInt8 {
        if model.usesAddressAutoIncrementFlag {
            return blockStart & 0x80 != 0 ? (addressed & 0x7F) &+ 1 : addressed
        }
        guard model.autoIncrements(self) else { return addressed }
        // LSM6DSL: a block read of FIFO_DATA_OUT stays on its two registers (one word after another);
        // InvenSense: a block read of FIFO_R_W stays on it (one byte after another).
        if fifo != nil {
            switch model {
            case .lsm6dsl where addressed == 0x3F: return 0x3E
            case .mpu9250 where addressed == 0x74: return 0x74
            case .icm20948 where addressed == 0x72 && selectedBank == 0: return 0x72
            default: break
            }
        }
        return addressed &+ 1
    }

    /// A bus write of one register, with side effects; false when the chip ignores it.
    @discardableResult
    func busWrite(_ addressed: UInt8, _ value: UInt8) -> Bool {
        let register = model.usesAddressAutoIncrementFlag ? addressed & 0x7F : addressed
        let bank = model.bank(for: register, selected: selectedBank)
        if model.isResetWrite(bank: bank, register: register, value: value) {
            powerOn()
            nacksRemaining = model.nacksAfterReset
            return true
        }
        guard model.acceptsWrite(register, chip: self) else { return false }
        registers[bank * 256 + Int(register)] = fifo != nil ? fifoWrite(register, value, bank: bank) : value
        if case .icm20948 = model, register == 0x7F { selectedBank = Int(value >> 4 & 3) }
        outputDataRateHertz = model.outputDataRateHertz(self)
        return true
    }

    /// Fills the output registers from true values and raises data-ready, as the chip would at its
    /// next conversion. `sample` is in the **host accel/gyro die frame** (SI units); magnetometers
    /// convert the field into their own axes. Does nothing while the chip is not converting.
    public func present(_ sample: IMUSample, fusion: BNO055Fusion? = nil) {
        guard outputDataRateHertz > 0 else { return }
        samplesPresented += 1
        SimulatedChipEncoder.encode(sample, fusion: fusion, into: self, updateOutputs: !outputsStuck)
        if fifo != nil { fifoConvert() }
    }
}
