/// One chip FIFO of the register twins (docs/hardware.md §1.7), shared by the four chips that have one:
/// a byte ring of `capacityBytes`, filled with one sample's `sampleBytes` bytes at each conversion the
/// chip makes as its clock advances (`SimulatedChip.present`), read byte after byte (or a sample at a
/// time at an offset, the LSM9DS1's way). When a sample no longer fits, stream (continuous) mode drops
/// the oldest whole sample and raises `overrun`; FIFO (snapshot) mode keeps the old ones, drops the new
/// one and raises `overrun` too. `reset` empties it and clears the flag. Each chip's register view of
/// it (status bits, counts, data registers) is in `SimulatedChip+FIFO.swift`.
/// Storage is allocated once; pushing and reading allocate nothing.
struct SimulatedFIFO {
    /// Bytes one sample takes (gyro and accelerometer, three 16-bit axes each, for every chip here).
    static let sampleBytes = 12

    /// Capacity, bytes.
    let capacityBytes: Int
    private var bytes: [UInt8]
    private var head = 0
    /// Unread bytes.
    private(set) var count = 0
    /// Samples were lost since the last reset (OVER_RUN, OVRN, FIFO_OFLOW).
    private(set) var overrun = false
    /// Bytes of the oldest sample already read (0 at a sample boundary).
    private(set) var offsetInSample = 0
    /// Samples stored since the last reset.
    private(set) var pushedSamples = 0

    /// A FIFO of `capacityBytes` (LSM6DSL 4092, LSM9DS1 384, MPU-9250 and ICM-20948 512).
    init(capacityBytes: Int) {
        self.capacityBytes = capacityBytes
        bytes = [UInt8](repeating: 0, count: capacityBytes)
    }

    /// Whole samples the FIFO can hold.
    var capacitySamples: Int { capacityBytes / SimulatedFIFO.sampleBytes }
    /// Unread whole samples (a partly read one counts).
    var countSamples: Int { (count + offsetInSample) / SimulatedFIFO.sampleBytes }
    /// True when the next sample would not fit.
    var isFull: Bool { count + SimulatedFIFO.sampleBytes > capacityBytes }

    /// Empties the FIFO and clears the overrun flag (bypass mode, FIFO_RST, a chip reset).
    mutating func reset() {
        head = 0
        count = 0
        overrun = false
        offsetInSample = 0
        pushedSamples = 0
    }

    /// Clears the overrun flag alone (InvenSense: reading the interrupt status).
    mutating func clearOverrun() { overrun = false }

    /// Stores one sample; `stream` (continuous mode) drops the oldest sample when full.
    mutating func push(_ sample: InlineArray<12, UInt8>, stream: Bool) {
        if isFull {
            overrun = true
            guard stream else { return }
            // The oldest whole sample goes (a partly read one loses its rest).
            let drop = SimulatedFIFO.sampleBytes - offsetInSample
            head = (head + drop) % capacityBytes
            count -= drop
            offsetInSample = 0
        }
        var i = 0
        while i < SimulatedFIFO.sampleBytes {
            bytes[(head + count) % capacityBytes] = sample[i]
            count += 1
            i += 1
        }
        pushedSamples += 1
    }

    /// The unread byte `offset` places after the next one (0 when there is none).
    func peek(_ offset: Int = 0) -> UInt8 { offset < count ? bytes[(head + offset) % capacityBytes] : 0 }

    /// Removes `n` bytes (a read of them); nothing when empty.
    mutating func pop(_ n: Int = 1) {
        let k = min(n, count)
        head = (head + k) % capacityBytes
        count -= k
        offsetInSample = (offsetInSample + k) % SimulatedFIFO.sampleBytes
    }
}
