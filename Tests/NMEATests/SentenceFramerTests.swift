import Testing
@testable import NMEA

/// Frames `text` in chunks of `chunk` bytes; returns the delivered sentences (as text, with "?" for
/// unchecked ones) and the counters after `finish()`.
func frame(_ text: String, chunk: Int = 4096, strict: Bool = false, finish: Bool = true)
    -> (sentences: [String], counters: FramerCounters, framer: SentenceFramer) {
    frame(Array(text.utf8), chunk: chunk, strict: strict, finish: finish)
}

func frame(_ bytes: [UInt8], chunk: Int = 4096, strict: Bool = false, finish: Bool = true)
    -> (sentences: [String], counters: FramerCounters, framer: SentenceFramer) {
    var framer = SentenceFramer(strict: strict)
    var out: [String] = []
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let n = min(chunk, raw.count - offset)
            framer.feed(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + n])) { span, status in
                let text = span.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
                out.append(status == .verified ? text : text + "?")
            }
            offset += n
        }
    }
    if finish { framer.finish() }
    return (out, framer.counters, framer)
}

/// Appends `*hh` (the correct checksum) to a sentence body starting with `$`.
func checksummed(_ body: String) -> String {
    var sum: UInt8 = 0
    for b in body.utf8.dropFirst() { sum ^= b }
    let hex = Array("0123456789ABCDEF".utf8)
    return body + "*" + String(decoding: [hex[Int(sum >> 4)], hex[Int(sum & 15)]], as: UTF8.self)
}

/// The conservation laws every framer state obeys.
func expectConsistent(_ c: FramerCounters, _ framer: SentenceFramer, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(c.sentencesStarted == c.sentencesDelivered + c.droppedSentences + (framer.isInsideSentence ? 1 : 0),
            sourceLocation: sourceLocation)
    #expect(c.bytes == c.garbageBytes + c.terminatorBytes + c.deliveredBytes + c.droppedBytes + framer.pendingByteCount,
            sourceLocation: sourceLocation)
}

@Suite struct SentenceFramerTests {
    static let gga = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47"
    static let rmc = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A"

    @Test func deliversBodyWithoutChecksum() {
        let r = frame(Self.gga + "\r\n")
        #expect(r.sentences == [String(Self.gga.dropLast(3))])
        #expect(r.counters.sentencesDelivered == 1 && r.counters.uncheckedSentences == 0)
        #expect(r.counters.terminatorBytes == 2 && r.counters.garbageBytes == 0)
        expectConsistent(r.counters, r.framer)
    }

    @Test(arguments: ["\r\n", "\n", "\r"])
    func everyLineEnding(_ end: String) {
        let r = frame(Self.gga + end + Self.rmc + end)
        #expect(r.sentences.count == 2)
        #expect(r.counters.droppedSentences == 0 && r.counters.garbageBytes == 0)
    }

    /// A stream cut at every possible position (and fed byte by byte) frames identically.
    @Test func splitAnywhere() {
        let text = "noise" + Self.gga + "\r\n\0\0" + Self.rmc + "\n$GPGGA,1$" + String(Self.rmc.dropFirst()) + "\r\n"
        let bytes = Array(text.utf8)
        let whole = frame(bytes)
        #expect(whole.sentences.count == 3)
        for cut in 1..<bytes.count {
            var framer = SentenceFramer()
            var got: [String] = []
            let collect = { (span: Span<UInt8>, _: ChecksumStatus) in
                got.append(span.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) })
            }
            bytes.withUnsafeBytes { raw in
                framer.feed(UnsafeRawBufferPointer(rebasing: raw[0..<cut]), collect)
                framer.feed(UnsafeRawBufferPointer(rebasing: raw[cut...]), collect)
            }
            framer.finish()
            #expect(got == whole.sentences, "cut at \(cut)")
            #expect(framer.counters == whole.counters, "cut at \(cut)")
        }
        let bytewise = frame(bytes, chunk: 1)
        #expect(bytewise.sentences == whole.sentences && bytewise.counters == whole.counters)
    }

    @Test func garbageAndNulBetweenSentences() {
        let r = frame("xx\0\0yy" + Self.gga + "\r\n@@\0" + Self.rmc + "\r\n")
        #expect(r.sentences.count == 2)
        #expect(r.counters.garbageBytes == 9 && r.counters.nulBytes == 3)
        expectConsistent(r.counters, r.framer)
    }

    @Test func collisionRestartsAtNewDollar() {
        let r = frame("$GPGGA,123519,4807.0" + Self.rmc + "\r\n")
        #expect(r.sentences == [String(Self.rmc.dropLast(3))])
        #expect(r.counters.collisions == 1 && r.counters.droppedBytes == 20)
        expectConsistent(r.counters, r.framer)
    }

    @Test func collisionAfterCompleteChecksumStillDrops() {
        // Two sentences glued together without a line end (seen in gp-320fw's cold-boot log).
        let r = frame("$GPGSA,A,1,,,,,,,,,,,,,,,*1E" + Self.rmc + "\r\n")
        #expect(r.sentences.count == 1 && r.counters.collisions == 1)
    }

    @Test func overlongLineIsDroppedAndCounted() {
        let long = checksummed("$GPTXT," + String(repeating: "A", count: 300))
        let r = frame(long + "\r\n" + Self.gga + "\r\n")
        #expect(r.sentences.count == 1)
        #expect(r.counters.overlong == 1)
        expectConsistent(r.counters, r.framer)
    }

    @Test func lengthCapIsInclusive() {
        let exact = checksummed("$GPTXT," + String(repeating: "B", count: SentenceFramer.maximumSentenceLength - 10))
        #expect(exact.utf8.count == SentenceFramer.maximumSentenceLength)
        #expect(frame(exact + "\n").sentences.count == 1)
        let over = checksummed("$GPTXT," + String(repeating: "B", count: SentenceFramer.maximumSentenceLength - 9))
        let r = frame(over + "\n")
        #expect(r.sentences.isEmpty && r.counters.overlong == 1)
    }

    @Test func missingChecksumIsUncheckedOrRejectedInStrictMode() {
        let body = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
        let lenient = frame(body + "\r\n")
        #expect(lenient.sentences == [body + "?"] && lenient.counters.uncheckedSentences == 1)
        let strict = frame(body + "\r\n", strict: true)
        #expect(strict.sentences.isEmpty && strict.counters.missingChecksums == 1)
        expectConsistent(strict.counters, strict.framer)
    }

    @Test func badChecksumIsDropped() {
        let r = frame(String(Self.gga.dropLast(2)) + "48\r\n")
        #expect(r.sentences.isEmpty && r.counters.badChecksums == 1)
        expectConsistent(r.counters, r.framer)
    }

    @Test(arguments: ["*4", "*4G", "*470", "*", "*47*47"])
    func malformedChecksumIsDropped(_ tail: String) {
        let r = frame(String(Self.gga.dropLast(3)) + tail + "\r\n")
        #expect(r.sentences.isEmpty && r.counters.malformedChecksums == 1)
    }

    @Test func lowercaseChecksumIsAccepted() {
        let r = frame("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6a\r\n")
        #expect(r.sentences.count == 1 && r.counters.badChecksums == 0)
    }

    @Test(arguments: [UInt8(0x00), 0x01, 0x09, 0x7F, 0x80, 0xFF])
    func controlOrNonASCIIByteDropsTheSentence(_ byte: UInt8) {
        var bytes = Array("$GPGGA,123519,48".utf8)
        bytes.append(byte)
        bytes += Array("07.038\r\n".utf8) + Array((Self.rmc + "\r\n").utf8)
        let r = frame(bytes)
        #expect(r.sentences.count == 1 && r.counters.invalidCharacters == 1)
        #expect(r.counters.nulBytes == (byte == 0 ? 1 : 0))
        expectConsistent(r.counters, r.framer)
    }

    @Test func tooShortIsDropped() {
        let r = frame("$\r\n$G\r\n$G*47\r\n")
        #expect(r.sentences.isEmpty && r.counters.tooShort == 3)
    }

    @Test func truncatedAtEndOfStream() {
        let unfinished = frame("$GPGGA,123519,48", finish: false)
        #expect(unfinished.framer.isInsideSentence && unfinished.framer.pendingByteCount == 16)
        expectConsistent(unfinished.counters, unfinished.framer)
        let finished = frame("$GPGGA,123519,48")
        #expect(finished.counters.truncated == 1 && !finished.framer.isInsideSentence)
        expectConsistent(finished.counters, finished.framer)
    }

    @Test func encapsulatedSentencesAreFramed() {
        let r = frame("!AIVDM,1,1,,B,13aGhtw0R<OJf=6LgQ?Ad1FF05`L,0*24\r\n")
        #expect(r.sentences.count == 1 && r.sentences[0].hasPrefix("!AIVDM"))
    }
}
