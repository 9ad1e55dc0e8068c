/// The LSM6DSL twin's FIFO (docs/hardware.md §1.7.2), filled at each conversion the chip makes as
/// its clock advances (`SimulatedChip.present`): the gyro and accelerometer output words in the
/// chip's pattern (Gx Gy Gz XLx XLy XLz), up to 2046 words (341 samples). In continuous mode a full
/// FIFO drops its oldest sample and raises OVER_RUN, in FIFO mode it stops; switching to bypass
/// empties it and clears the flag. Reads pop words (low byte at 0x3E, high byte at 0x3F).
/// Storage is allocated once; pushing and reading allocate nothing.
struct SimulatedFIFO {
    /// Capacity in 16-bit words: whole samples of 4 KB.
    static let capacityWords = 2046
    static let wordsPerSample = 6

    private var words: [UInt16]
    private var head = 0
    /// Unread words.
    private(set) var count = 0
    /// OVER_RUN: samples were lost since the last reset.
    private(set) var overrun = false
    /// Index in the pattern of the next word to read (0 = Gx).
    private(set) var patternIndex = 0
    /// Words pushed since the last reset.
    private(set) var pushedWords = 0

    init() { words = [UInt16](repeating: 0, count: SimulatedFIFO.capacityWords) }

    /// Empties the FIFO and clears OVER_RUN (bypass mode, or a reset).
    mutating func reset() {
        head = 0
        count = 0
        overrun = false
        patternIndex = 0
    }

    /// Stores one sample's six words; `stream` (continuous mode) drops the oldest sample when full.
    mutating func push(_ sample: InlineArray<6, UInt16>, stream: Bool) {
        if count + SimulatedFIFO.wordsPerSample > SimulatedFIFO.capacityWords {
            overrun = true
            guard stream else { return }
            // The oldest whole sample goes (a partly read one loses its rest).
            let drop = SimulatedFIFO.wordsPerSample - patternIndex
            head = (head + drop) % SimulatedFIFO.capacityWords
            count -= drop
            patternIndex = 0
        }
        var i = 0
        while i < SimulatedFIFO.wordsPerSample {
            words[(head + count) % SimulatedFIFO.capacityWords] = sample[i]
            count += 1
            i += 1
        }
        pushedWords += SimulatedFIFO.wordsPerSample
    }

    /// The word a read would return next (0 when empty).
    var next: UInt16 { count > 0 ? words[head] : 0 }

    /// Removes the next word (after its high byte was read).
    mutating func pop() {
        guard count > 0 else { return }
        head = (head + 1) % SimulatedFIFO.capacityWords
        count -= 1
        patternIndex = (patternIndex + 1) % SimulatedFIFO.wordsPerSample
    }

    /// FIFO_STATUS1..4 (0x3A…0x3D) for a watermark of `thresholdWords`.
    func status(_ register: UInt8, thresholdWords: Int) -> UInt8 {
        switch register {
        case 0x3A: return UInt8(count & 0xFF)
        case 0x3B:
            var value = UInt8(count >> 8 & 0x07)
            if thresholdWords > 0 && count >= thresholdWords { value |= 0x80 }         // WaterM
            if overrun { value |= 0x40 }                                                 // OVER_RUN
            if count + SimulatedFIFO.wordsPerSample > SimulatedFIFO.capacityWords { value |= 0x20 }   // FULL_SMART
            if count == 0 { value |= 0x10 }                                              // FIFO_EMPTY
            return value
        case 0x3C: return UInt8(patternIndex & 0xFF)
        default: return UInt8(patternIndex >> 8 & 0x03)
        }
    }
}
