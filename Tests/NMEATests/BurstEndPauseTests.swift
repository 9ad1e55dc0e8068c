import Testing
@testable import NMEA

/// The learning epochs' burst-end close when the writer pauses inside a cycle (docs/nmea-epochs.md §1,
/// its second item: a quiet line): the 1.5 ms floor, and the wait that grows after a cut epoch.
@Suite struct BurstEndPauseTests {
    static let second: Int64 = 1_000_000_000

    /// One cycle of four sentences; the GGA carries the altitude, the GSA the PDOP.
    static func cycle(_ s: Int) -> [UInt8] {
        let time = "1200\(format2(s)).00"
        return nmea(["$GPRMC,\(time),A,4807.0380,N,01131.0000,E,1.0,45.0,050826,,,A",
                     "$GPGGA,\(time),4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,",
                     "$GPGSA,A,3,04,05,09,12,24,,,,,,,,2.5,1.3,2.1",
                     "$GPVTG,90.0,T,,M,20.0,N,37.0,K,A"])
    }

    /// Feeds `bytes` in the given chunks at the given times, closing for a quiet line whenever its
    /// deadline comes before the next chunk (as the device's timerfd would); returns when each fix came out.
    static func deliver(_ chunks: [(bytes: ArraySlice<UInt8>, at: Int64)], into pipeline: inout NMEAPipeline,
                        until end: Int64) -> [(fix: Fix, at: Int64)] {
        var out: [(fix: Fix, at: Int64)] = []
        for (i, chunk) in chunks.enumerated() {
            Array(chunk.bytes).withUnsafeBytes { raw in pipeline.feed(raw, nowNanoseconds: chunk.at) { out.append((copy $0, chunk.at)) } }
            let next = i + 1 < chunks.count ? chunks[i + 1].at : end
            if let deadline = pipeline.deadlineNanoseconds, deadline < next {
                pipeline.closeIfQuiet(nowNanoseconds: deadline) { out.append((copy $0, deadline)) }
            }
        }
        return out
    }

    static func configuration(baud: Int) -> EpochAssembler.Configuration {
        var c = EpochAssembler.Configuration()
        c.lineCharacterNanoseconds = EpochAssembler.characterNanoseconds(baud: baud)
        return c
    }

    @Test func aUSBBridgeDeliveringSmallChunksEveryMillisecondIsNotCut() throws {
        // 460800 baud through a USB-serial bridge that hands over 16 bytes each 1 ms frame: a chunk's
        // n + 16 characters are 0.69 ms, shorter than the frame (the old rule cut the cycle after its
        // first chunk). The 1.5 ms floor keeps the cycle whole and still closes it within 2 ms.
        var pipeline = NMEAPipeline(configuration: Self.configuration(baud: 460_800))
        var closed: [(fix: Fix, at: Int64)] = []
        for s in 0..<2 {
            let bytes = Self.cycle(s)
            let start = Int64(s) * Self.second
            // Each sentence in 16-byte frames (its last frame shorter), one frame a millisecond.
            var chunks: [(bytes: ArraySlice<UInt8>, at: Int64)] = []
            var from = 0
            for end in bytes.indices where bytes[end] == 0x0A {
                for piece in stride(from: from, through: end, by: 16) {
                    chunks.append((bytes: bytes[piece...min(piece + 15, end)], at: start + Int64(chunks.count) * 1_000_000))
                }
                from = end + 1
            }
            closed += Self.deliver(chunks, into: &pipeline, until: start + Self.second)
            let last = chunks.last!.at
            try #require(closed.count == s + 1)
            #expect(closed[s].at > last && closed[s].at - last <= 2_000_000, "cycle \(s) out \(closed[s].at - last) ns after its last byte")
            #expect(closed[s].fix.altitudeMSLMeters == 545.4 && closed[s].fix.pdop == 2.5, "the whole cycle, GSA included")
        }
        #expect(pipeline.assembler.counters.sentencesAfterClose == 0)
        #expect(pipeline.assembler.counters.epochsCutWhileLearning == 0)
    }

    @Test func aPauseThatCutTheFirstEpochNoLongerCutsTheSecond() throws {
        // A writer of whole sentences at 460800 baud that pauses 5 ms after the GGA of every cycle
        // (a loaded machine, a receiver computing its DOPs). The first epoch has nothing to go by and is
        // cut (counted; its GSA and VTG come late), and the pause is measured: from then on the burst
        // end waits twice it. The second epoch, with the same pause, is whole (the old rule cut it too).
        var pipeline = NMEAPipeline(configuration: Self.configuration(baud: 460_800))
        let pause: Int64 = 5_000_000
        let characters = EpochAssembler.characterNanoseconds(baud: 460_800)
        var closed: [(fix: Fix, at: Int64)] = []
        var lastByte: [Int64] = []
        for s in 0..<2 {
            let bytes = Self.cycle(s)
            var chunks: [(bytes: ArraySlice<UInt8>, at: Int64)] = []
            var t = Int64(s) * Self.second
            var from = 0
            for (k, end) in bytes.indices.filter({ bytes[$0] == 0x0A }).enumerated() {
                t += Int64(end + 1 - from) * characters     // the sentence's own time on the line
                if k == 2 { t += pause }                  // after the GGA
                chunks.append((bytes: bytes[from...end], at: t))
                from = end + 1
            }
            lastByte.append(t)
            closed += Self.deliver(chunks, into: &pipeline, until: Int64(s + 1) * Self.second)
        }
        try #require(closed.count == 2)
        let counters = pipeline.assembler.counters
        #expect(counters.epochsCutWhileLearning == 1 && counters.sentencesAfterClose == 2, "only the first epoch was cut")
        #expect(closed[0].fix.pdop == nil, "epoch 1 was cut before its GSA")
        #expect(closed[1].fix.pdop == 2.5, "epoch 2 is whole, GSA included")
        #expect(closed[1].at > lastByte[1], "epoch 2 out after its last byte")
        let longest = pipeline.assembler.longestCuttingPauseNanoseconds
        #expect(longest > pause && longest < pause + 2_000_000, "measured pause \(longest)")
        #expect(closed[1].at - lastByte[1] <= 2 * longest, "and no later than twice the pause")
    }

    @Test func theGrownWaitIsCappedAndOnlyLearningEpochsUseIt() throws {
        // A 2 s pause inside the first cycle: the wait grows to at most 250 ms; once the ender is learned
        // the quarter-period quiet line decides again.
        var pipeline = NMEAPipeline(configuration: Self.configuration(baud: 460_800))
        let bytes = Self.cycle(0)
        let split = bytes.indices.filter { bytes[$0] == 0x0A }[1] + 1   // after the GGA
        _ = Self.deliver([(bytes[..<split], 0), (bytes[split...], 2 * Self.second)], into: &pipeline, until: 3 * Self.second)
        #expect(pipeline.assembler.counters.epochsCutWhileLearning == 1)
        Self.cycle(1).withUnsafeBytes { raw in pipeline.feed(raw, nowNanoseconds: 3 * Self.second) { _ in } }
        #expect(pipeline.deadlineNanoseconds == 3 * Self.second + 250_000_000)
    }
}
