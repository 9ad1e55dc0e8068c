/// The register view of the twins' FIFOs (docs/hardware.md §1.7): one shared `SimulatedFIFO` per chip
/// that has one, and per chip what enables it, what a conversion pushes, its status and data registers
/// and what resets it.
/// - LSM6DSL: FIFO_CTRL1/2 watermark in words, FIFO_CTRL3 decimation (both data sets on, 001),
///   FIFO_CTRL5 ODR_FIFO and mode (1 FIFO, 6 continuous; 0 bypass empties it), FIFO_STATUS1..4,
///   FIFO_DATA_OUT_L/H (reading the high byte pops the word).
/// - LSM9DS1: CTRL_REG9 FIFO_EN, FIFO_CTRL FMODE (bits 7:5: 1 FIFO, 6 continuous, 0 bypass empties
///   it) and FTH (bits 4:0), FIFO_SRC (FTH, OVRN, FSS unread samples); the output registers then read
///   the oldest sample (gyro at 0x18…0x1D, accelerometer at 0x28…0x2D), and reading 0x2D pops it.
/// - MPU-9250 / ICM-20948: USER_CTRL FIFO_EN, FIFO_EN (0x23: accel + gyro 0x78) / FIFO_EN_2 (bank 0
///   0x67: 0x1E), a stream FIFO of 512 bytes (CONFIG / FIFO_MODE bit 0 snapshot stops it), FIFO_COUNTH/L
///   big-endian byte count, FIFO_R_W pops a byte (a block read stays on it), FIFO reset through
///   USER_CTRL FIFO_RST / FIFO_RST bit 0, overflow in INT_STATUS bit 4 / INT_STATUS_2 bit 0 (cleared
///   when read).
extension SimulatedChip {
    /// The FIFO capacity of a model in bytes, nil for models without one.
    static func fifoCapacityBytes(_ model: SimulatedChipModel) -> Int? {
        switch model {
        case .lsm6dsl: 4092                       // 2046 words: whole samples of 4 KB
        case .lsm9ds1AccelGyro: 32 * SimulatedFIFO.sampleBytes
        case .mpu9250, .icm20948: 512
        default: nil
        }
    }

    /// Unread FIFO bytes (0 without a FIFO).
    public var fifoLevelBytes: Int { fifo?.count ?? 0 }
    /// Unread FIFO words (LSM6DSL's unit; 0 without a FIFO).
    public var fifoLevelWords: Int { fifoLevelBytes / 2 }
    /// Unread whole samples (gyro + accelerometer sets).
    public var fifoLevelSamples: Int { fifo?.countSamples ?? 0 }
    /// Samples the FIFO has received since its last reset.
    public var fifoSamplesStored: Int { fifo?.pushedSamples ?? 0 }
    /// True while the FIFO's overrun flag is up.
    public var fifoOverrun: Bool { fifo?.overrun ?? false }
    /// True while the FIFO holds at least its watermark (what the watermark interrupt line would
    /// signal): LSM6DSL FTH in words, LSM9DS1 FTH in samples. The InvenSense parts have no watermark
    /// register in their public register maps: there the watermark is the reader's (`samples`).
    public func fifoHoldsWatermark(samples watermarkSamples: Int = 0) -> Bool {
        guard let f = fifo else { return false }
        switch model {
        case .lsm6dsl: return lsm6dslThresholdWords > 0 && f.count / 2 >= lsm6dslThresholdWords
        case .lsm9ds1AccelGyro: return f.countSamples >= Int(peek(0x2E) & 0x1F)
        default: return watermarkSamples > 0 && f.countSamples >= watermarkSamples
        }
    }

    /// `fifoHoldsWatermark()` for the ST chips (their own threshold registers).
    public var fifoWatermarkReached: Bool { fifoHoldsWatermark() }

    /// True when INT1_CTRL routes the FIFO threshold to INT1 (LSM6DSL INT1_FTH, bit 3).
    public var fifoInterruptEnabled: Bool { model == .lsm6dsl && fifo != nil && peek(0x0D) & 0x08 != 0 }
    /// The INT1 pin's level (push-pull, active high): up while the FIFO holds its watermark and
    /// INT1_FTH is set.
    public var interrupt1High: Bool { fifoInterruptEnabled && fifoWatermarkReached }
    /// Conversions still to come before the LSM6DSL's FIFO reaches its watermark (0: reached); nil when
    /// the FIFO is not collecting or has no watermark.
    public var conversionsToWatermark: Int? {
        guard model == .lsm6dsl, let f = fifo else { return nil }
        let ctrl5 = peek(0x0A), mode = ctrl5 & 0x07, threshold = lsm6dslThresholdWords
        guard mode == 1 || mode == 6, ctrl5 >> 3 & 0x0F != 0, peek(0x08) == 0x09, threshold > 0 else { return nil }
        let words = f.count / 2, wordsPerSample = SimulatedFIFO.sampleBytes / 2
        if words >= threshold { return 0 }
        return (threshold - words + wordsPerSample - 1) / wordsPerSample
    }

    private var lsm6dslThresholdWords: Int { Int(peek(0x06)) | Int(peek(0x07) & 0x07) << 8 }

    /// A conversion: when the chip's FIFO is enabled for gyro and accelerometer, the output registers'
    /// gyro and accelerometer bytes go into it, in the chip's order.
    func fifoConvert() {
        var sample = InlineArray<12, UInt8>(repeating: 0)
        let stream: Bool
        let first: UInt8, second: UInt8
        switch model {
        case .lsm6dsl:
            let ctrl5 = peek(0x0A), mode = ctrl5 & 0x07
            guard mode == 1 || mode == 6, ctrl5 >> 3 & 0x0F != 0, peek(0x08) == 0x09 else { return }
            (first, second, stream) = (0x22, 0x28, mode == 6)          // Gx Gy Gz, then XLx XLy XLz
        case .lsm9ds1AccelGyro:
            let mode = peek(0x2E) >> 5
            guard peek(0x23) & 0x02 != 0, mode == 1 || mode == 6 else { return }
            (first, second, stream) = (0x18, 0x28, mode == 6)          // gyro, then accelerometer
        case .mpu9250:
            guard peek(0x6A) & 0x40 != 0, peek(0x23) == 0x78 else { return }
            (first, second, stream) = (0x3B, 0x43, peek(0x1A) & 0x40 == 0)   // accel, gyro (register order)
        case .icm20948:
            guard peek(0x03) & 0x40 != 0, peek(0x67) == 0x1E, peek(0x68) & 0x01 == 0 else { return }
            (first, second, stream) = (0x2D, 0x33, peek(0x69) & 0x01 == 0)
        default: return
        }
        var i = 0
        while i < 6 {
            sample[i] = peek(first &+ UInt8(i))
            sample[6 + i] = peek(second &+ UInt8(i))
            i += 1
        }
        fifo?.push(sample, stream: stream)
        if fifo?.overrun == true {
            if case .mpu9250 = model { setBits(0x3A, 0x10) }                  // FIFO_OFLOW_INT
            if case .icm20948 = model { setBits(0x1B, 0x01) }                 // FIFO_OVERFLOW_INT (FIFO 0)
        }
    }

    /// A bus read the FIFO answers (status, count or data), nil when the register is not the FIFO's
    /// in the chip's current configuration.
    func fifoRead(_ register: UInt8, bank: Int) -> UInt8? {
        guard let f = fifo else { return nil }
        switch model {
        case .lsm6dsl:
            switch register {
            case 0x3A: return UInt8((f.count / 2) & 0xFF)
            case 0x3B:
                var value = UInt8((f.count / 2) >> 8 & 0x07)
                if fifoHoldsWatermark() { value |= 0x80 }                       // WaterM
                if f.overrun { value |= 0x40 }                                     // OVER_RUN
                if f.isFull { value |= 0x20 }                                      // FIFO_FULL_SMART
                if f.count == 0 { value |= 0x10 }                                  // FIFO_EMPTY
                return value
            case 0x3C: return UInt8(f.offsetInSample / 2)                        // pattern index
            case 0x3D: return 0
            case 0x3E: return f.peek(0)
            case 0x3F:
                let value = f.peek(1)
                fifo?.pop(2)
                return value
            default: return nil
            }
        case .lsm9ds1AccelGyro:
            guard peek(0x23) & 0x02 != 0 else { return nil }
            switch register {
            case 0x2F:
                var value = UInt8(min(f.countSamples, 0x3F))
                if fifoHoldsWatermark() { value |= 0x80 }                        // FTH
                if f.overrun { value |= 0x40 }                                      // OVRN
                return value
            case 0x18...0x1D where f.count > 0: return f.peek(Int(register - 0x18))
            case 0x28...0x2D where f.count > 0:
                let value = f.peek(6 + Int(register - 0x28))
                if register == 0x2D { fifo?.pop(SimulatedFIFO.sampleBytes) }
                return value
            default: return nil
            }
        case .mpu9250, .icm20948:
            let (countHigh, readWrite): (UInt8, UInt8) = model == .icm20948 ? (0x70, 0x72) : (0x72, 0x74)
            guard bank == 0 else { return nil }
            switch register {
            case countHigh: return UInt8(f.count >> 8 & 0x1F)
            case countHigh + 1: return UInt8(f.count & 0xFF)
            case readWrite:
                let value = f.peek(0)
                fifo?.pop(1)
                return value
            default: return nil
            }
        default: return nil
        }
    }

    /// What a register write does to the FIFO (a bypass mode or a FIFO reset empties it); returns the
    /// value to store (reset bits clear themselves).
    func fifoWrite(_ register: UInt8, _ value: UInt8, bank: Int) -> UInt8 {
        switch model {
        case .lsm6dsl where register == 0x0A && value & 0x07 == 0: fifo?.reset()          // bypass
        case .lsm9ds1AccelGyro where register == 0x2E && value >> 5 == 0: fifo?.reset()    // bypass
        case .mpu9250 where register == 0x6A && value & 0x04 != 0:                          // FIFO_RST
            fifo?.reset()
            return value & ~0x04
        case .icm20948 where bank == 0 && register == 0x68 && value & 0x01 != 0: fifo?.reset()
        default: break
        }
        return value
    }

    /// After an interrupt-status read: the InvenSense overflow flag clears with it.
    func fifoAfterStatusRead(_ register: UInt8, bank: Int) {
        switch model {
        case .mpu9250 where register == 0x3A: fifo?.clearOverrun()
        case .icm20948 where bank == 0 && register == 0x1B:
            fifo?.clearOverrun()
            clearBits(0x1B, 0x1F)
        default: break
        }
    }
}
