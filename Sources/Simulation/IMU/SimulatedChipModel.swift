import IMU

/// The register-level behaviour a `SimulatedChip` imitates: power-on register values, reset bits,
/// auto-increment rules, read side effects and output data rate. Written from the datasheets'
/// register descriptions (docs/hardware.md §1.2), independently of the drivers' constants.
public enum SimulatedChipModel: Sendable, Equatable {
    case lsm6dsl
    case lis3mdl
    case lsm9ds1AccelGyro
    case lsm9ds1Magnetometer
    case icm20948
    case ak09916
    /// MPU-9250 family with this WHO_AM_I (0x71 MPU-9250, 0x73 MPU-9255, 0x70 MPU-6500, 0x68 MPU-6050).
    case mpu9250(whoAmI: UInt8)
    case ak8963
    case bno055
    case mmc5983ma
    /// Any other device: a plain register file with these (register, value) pairs preset.
    case registerFile(presets: [UInt8: UInt8])

    /// Register values after power-on or a software reset: (bank, register, value).
    var powerOnValues: [(bank: Int, register: UInt8, value: UInt8)] {
        switch self {
        case .lsm6dsl: [(0, 0x0F, 0x6A), (0, 0x12, 0x04)]                      // CTRL3_C IF_INC
        case .lis3mdl, .lsm9ds1Magnetometer: [(0, 0x0F, 0x3D), (0, 0x20, 0x10), (0, 0x22, 0x03)]  // power-down
        case .lsm9ds1AccelGyro: [(0, 0x0F, 0x68), (0, 0x22, 0x04), (0, 0x1E, 0x38), (0, 0x1F, 0x38)]
        case .icm20948: [(0, 0x00, 0xEA), (0, 0x06, 0x41), (2, 0x01, 0x01), (2, 0x14, 0x01)]   // asleep
        case .ak09916: [(0, 0x00, 0x48), (0, 0x01, 0x09)]
        case .mpu9250(let id): [(0, 0x75, id), (0, 0x6B, 0x40)]               // asleep
        case .ak8963: [(0, 0x00, 0x48)]
        case .bno055: [(0, 0x00, 0xA0), (0, 0x01, 0xFB), (0, 0x02, 0x32), (0, 0x03, 0x0F), (0, 0x3B, 0x80)]
        case .mmc5983ma: [(0, 0x2F, 0x30)]
        case .registerFile(let presets): presets.map { (0, $0.key, $0.value) }
        }
    }

    /// True when a write of `value` to `register` (in `bank`) resets the chip to power-on values.
    func isResetWrite(bank: Int, register: UInt8, value: UInt8) -> Bool {
        switch self {
        case .lsm6dsl: register == 0x12 && value & 0x01 != 0                    // CTRL3_C SW_RESET
        case .lsm9ds1AccelGyro: register == 0x22 && value & 0x81 != 0           // CTRL_REG8 BOOT|SW_RESET
        case .lis3mdl, .lsm9ds1Magnetometer: register == 0x21 && value & 0x0C != 0   // REBOOT|SOFT_RST
        case .icm20948: bank == 0 && register == 0x06 && value & 0x80 != 0       // DEVICE_RESET
        case .mpu9250: register == 0x6B && value & 0x80 != 0                     // H_RESET
        case .ak8963: register == 0x0B && value & 0x01 != 0                      // CNTL2 SRST
        case .ak09916: register == 0x32 && value & 0x01 != 0                     // CNTL3 SRST
        case .bno055: register == 0x3F && value & 0x20 != 0                      // SYS_TRIGGER RST_SYS
        case .mmc5983ma: register == 0x0A && value & 0x80 != 0
        case .registerFile: false
        }
    }

    /// True for ST magnetometers: bit 7 of the register address requests auto-increment and is not
    /// part of the register number.
    var usesAddressAutoIncrementFlag: Bool { self == .lis3mdl || self == .lsm9ds1Magnetometer }

    /// True when block reads advance the register address (besides the address flag above).
    func autoIncrements(_ chip: SimulatedChip) -> Bool {
        switch self {
        case .lsm6dsl: chip.peek(0x12) & 0x04 != 0                 // CTRL3_C IF_INC
        case .lsm9ds1AccelGyro: chip.peek(0x22) & 0x04 != 0        // CTRL_REG8 IF_ADD_INC
        default: true
        }
    }

    /// The bank a register access goes to (ICM-20948: REG_BANK_SEL; 0x7F is in every bank).
    func bank(for register: UInt8, selected: Int) -> Int {
        if case .icm20948 = self, register != 0x7F { return selected }
        return 0
    }

    /// Side effect of reading `register`: clears data-ready flags as the real chips do.
    func afterRead(_ register: UInt8, chip: SimulatedChip) {
        switch self {
        case .lsm6dsl:
            if (0x28...0x2D).contains(register) { chip.clearBits(0x1E, 0x01) }   // XLDA
            if (0x22...0x27).contains(register) { chip.clearBits(0x1E, 0x02) }   // GDA
            if (0x20...0x21).contains(register) { chip.clearBits(0x1E, 0x04) }   // TDA
        case .lsm9ds1AccelGyro:
            if (0x28...0x2D).contains(register) { chip.clearBits(0x17, 0x01); chip.clearBits(0x27, 0x01) }
            if (0x18...0x1D).contains(register) { chip.clearBits(0x17, 0x02); chip.clearBits(0x27, 0x02) }
            if (0x15...0x16).contains(register) { chip.clearBits(0x17, 0x04); chip.clearBits(0x27, 0x04) }
        case .lis3mdl, .lsm9ds1Magnetometer:
            if (0x28...0x2D).contains(register) { chip.clearBits(0x27, 0x88) }   // ZYXDA, ZYXOR
        case .icm20948:
            if chip.selectedBank == 0, register == 0x1A { chip.clearBits(0x1A, 0xFF) }   // INT_STATUS_1
        case .mpu9250:
            if register == 0x3A { chip.clearBits(0x3A, 0xFF) }                   // INT_STATUS
        case .ak8963:
            if register == 0x09 { chip.clearBits(0x02, 0x03) }                   // ST2 read ends the cycle
        case .ak09916:
            if register == 0x18 { chip.clearBits(0x10, 0x03) }
        case .bno055, .mmc5983ma, .registerFile:
            break
        }
    }

    /// Value a read of `register` returns instead of the stored one (AK8963 fuse ROM visibility).
    func readOverride(_ register: UInt8, chip: SimulatedChip) -> UInt8? {
        if case .ak8963 = self, (0x10...0x12).contains(register) {
            return chip.peek(0x0A) & 0x0F == 0x0F ? chip.fuseROM[Int(register - 0x10)] : 0x00
        }
        return nil
    }

    /// True when a write to `register` is accepted in the chip's current state.
    func acceptsWrite(_ register: UInt8, chip: SimulatedChip) -> Bool {
        switch self {
        case .bno055:
            // Only OPR_MODE, SYS_TRIGGER and PAGE_ID are writable outside CONFIG mode (datasheet 3.3).
            register == 0x3D || register == 0x3F || register == 0x07 || chip.peek(0x3D) & 0x0F == 0
        case .lsm6dsl, .lis3mdl, .lsm9ds1AccelGyro, .lsm9ds1Magnetometer, .mmc5983ma:
            register != 0x0F && register != 0x2F                                // identification is read-only
        case .icm20948:
            !(chip.selectedBank == 0 && register == 0x00)
        case .mpu9250:
            register != 0x75
        case .ak8963, .ak09916:
            register > 0x09
        case .registerFile:
            true
        }
    }

    /// Output data rate the current configuration produces, hertz (0 = not converting).
    func outputDataRateHertz(_ chip: SimulatedChip) -> Double {
        switch self {
        case .lsm6dsl:
            let xl = Int(chip.peek(0x10) >> 4), g = Int(chip.peek(0x11) >> 4)
            let table: [Double] = [0, 12.5, 26, 52, 104, 208, 416, 833, 1660, 3330, 6660]
            guard xl > 0, g > 0, xl < table.count else { return 0 }
            return table[xl]
        case .lsm9ds1AccelGyro:
            let table: [Double] = [0, 14.9, 59.5, 119, 238, 476, 952, 0]
            return table[Int(chip.peek(0x10) >> 5)]
        case .lis3mdl, .lsm9ds1Magnetometer:
            guard chip.peek(0x22) & 0x03 == 0 else { return 0 }                 // MD: continuous
            let reg1 = chip.peek(0x20)
            if reg1 & 0x02 != 0 { return [1000.0, 560, 300, 155][Int(reg1 >> 5 & 3)] }   // FAST_ODR
            return [0.625, 1.25, 2.5, 5, 10, 20, 40, 80][Int(reg1 >> 2 & 7)]
        case .icm20948:
            guard chip.peek(0x06) & 0x40 == 0 else { return 0 }                 // SLEEP
            return 1125.0 / (1 + Double(chip.peek(0x00, bank: 2)))
        case .mpu9250:
            guard chip.peek(0x6B) & 0x40 == 0 else { return 0 }
            return 1000.0 / (1 + Double(chip.peek(0x19)))
        case .ak8963:
            switch chip.peek(0x0A) & 0x0F { case 0x02: return 8; case 0x06: return 100; default: return 0 }
        case .ak09916:
            switch chip.peek(0x31) & 0x1F { case 0x02: return 10; case 0x04: return 20; case 0x06: return 50
            case 0x08: return 100; default: return 0 }
        case .bno055:
            return chip.peek(0x3D) & 0x0F >= 0x08 ? 100 : 0                     // fusion modes
        case .mmc5983ma, .registerFile:
            return 0
        }
    }

    /// Transfers the chip NACKs after a reset (boot time; the BNO055 takes ≈650 ms).
    var nacksAfterReset: Int {
        if case .bno055 = self { return 3 }
        return 0
    }
}
