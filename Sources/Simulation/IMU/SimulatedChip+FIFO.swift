/// The LSM6DSL twin's FIFO registers (docs/hardware.md §1.7.2): FIFO_CTRL1/2 watermark in words,
/// FIFO_CTRL3 decimation (both data sets must be on, 001), FIFO_CTRL5 ODR_FIFO and mode (1 FIFO,
/// 6 continuous; 0 bypass empties it), FIFO_STATUS1..4 and FIFO_DATA_OUT_L/H.
extension SimulatedChip {
    /// Unread FIFO words (0 without a FIFO).
    public var fifoLevelWords: Int { fifo?.count ?? 0 }
    /// Samples (gyro + accelerometer sets) the FIFO has received since its last reset.
    public var fifoSamplesStored: Int { (fifo?.pushedWords ?? 0) / SimulatedFIFO.wordsPerSample }
    /// True while the FIFO's OVER_RUN flag is up.
    public var fifoOverrun: Bool { fifo?.overrun ?? false }
    /// True while the FIFO holds at least its watermark (what the INT1 FTH line would signal).
    public var fifoWatermarkReached: Bool { fifo.map { $0.status(0x3B, thresholdWords: fifoThresholdWords) & 0x80 != 0 } ?? false }

    /// True when INT1_CTRL routes the FIFO threshold to INT1 (INT1_FTH, bit 3).
    public var fifoInterruptEnabled: Bool { fifo != nil && peek(0x0D) & 0x08 != 0 }
    /// The INT1 pin's level (push-pull, active high): up while the FIFO holds its watermark and
    /// INT1_FTH is set.
    public var interrupt1High: Bool { fifoInterruptEnabled && fifoWatermarkReached }
    /// Conversions still to come before the FIFO reaches its watermark (0: reached); nil when the
    /// FIFO is not collecting or has no watermark.
    public var conversionsToWatermark: Int? {
        guard let f = fifo else { return nil }
        let ctrl5 = peek(0x0A), mode = ctrl5 & 0x07, threshold = fifoThresholdWords
        guard mode == 1 || mode == 6, ctrl5 >> 3 & 0x0F != 0, peek(0x08) == 0x09, threshold > 0 else { return nil }
        if f.count >= threshold { return 0 }
        return (threshold - f.count + SimulatedFIFO.wordsPerSample - 1) / SimulatedFIFO.wordsPerSample
    }

    private var fifoThresholdWords: Int { Int(peek(0x06)) | Int(peek(0x07) & 0x07) << 8 }

    /// A conversion: in FIFO or continuous mode with both data sets undecimated and an ODR_FIFO,
    /// the output registers' gyro and accelerometer words go into the FIFO.
    func fifoConvert() {
        let ctrl5 = peek(0x0A), mode = ctrl5 & 0x07
        guard mode == 1 || mode == 6, ctrl5 >> 3 & 0x0F != 0, peek(0x08) == 0x09 else { return }
        var words = InlineArray<6, UInt16>(repeating: 0)
        var i = 0
        while i < 6 {
            // Gyro (0x22…0x27) first, then the accelerometer (0x28…0x2D): the chip's pattern.
            let low = 0x22 + 2 * i
            words[i] = UInt16(peek(UInt8(low))) | UInt16(peek(UInt8(low + 1))) << 8
            i += 1
        }
        fifo?.push(words, stream: mode == 6)
    }

    /// A bus read of FIFO_STATUS1…4 or FIFO_DATA_OUT_L/H; reading the high byte pops the word.
    func fifoRead(_ register: UInt8) -> UInt8 {
        guard let f = fifo else { return 0 }
        switch register {
        case 0x3E: return UInt8(f.next & 0xFF)
        case 0x3F:
            let value = UInt8(f.next >> 8)
            fifo?.pop()
            return value
        default: return f.status(register, thresholdWords: fifoThresholdWords)
        }
    }
}
