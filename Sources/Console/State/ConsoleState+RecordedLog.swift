import NMEA

extension ConsoleState {
    /// Fills the GPS part of the state from a recorded NMEA log, as a replay of it would leave it:
    /// the last fix that has a position, the richest sky view seen (most satellites), and the framer
    /// and assembler counters. The bytes are fed in 512-byte reads, as from a serial port. Used where a
    /// realistic state is needed without a device (tests and benchmarks of the views).
    public mutating func loadGPS(fromRecordedLog bytes: [UInt8]) {
        var pipeline = NMEAPipeline()
        var richestSky = SkyView()
        var lastPositionFix: Fix?
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = min(512, raw.count - offset)
                pipeline.feed(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + n])) { fix in
                    if fix.hasPosition { lastPositionFix = copy fix }
                }
                if pipeline.assembler.skyView.count > richestSky.count { richestSky = pipeline.assembler.skyView }
                offset += n
            }
        }
        fix = lastPositionFix
        skyView = richestSky
        framer = pipeline.framer.counters
        assembler = pipeline.assembler.counters
    }
}
