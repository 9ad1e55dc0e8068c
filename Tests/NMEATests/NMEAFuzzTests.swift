import FuzzSupport
import Testing
import TestSupport
@testable import NMEA


/// The corpus logs, loaded once.
let corpusLogs: [[UInt8]] = Fixtures.files(in: "nmea/gpsd", suffix: ".nmea").compactMap {
    Fixtures.bytes("nmea/gpsd/" + $0)
}

@Suite struct NMEAFuzzTests {
    /// Mutates a window of corpus bytes: bit flips, truncation, splices from another log, random bytes,
    /// duplicated runs, and deleted runs.
    static func mutate(_ rng: inout SeededRandom) -> [UInt8] {
        let log = corpusLogs[rng.below(corpusLogs.count)]
        let start = rng.below(log.count)
        var bytes = Array(log[start..<min(log.count, start + 256 + rng.below(4096))])
        for _ in 0..<(1 + rng.below(6)) {
            guard !bytes.isEmpty else { break }
            switch rng.below(6) {
            case 0:                                                   // bit flips
                for _ in 0..<(1 + rng.below(8)) { bytes[rng.below(bytes.count)] ^= UInt8(1 << rng.below(8)) }
            case 1:                                                   // truncation
                bytes.removeLast(rng.below(bytes.count))
            case 2:                                                   // splice from another log
                let other = corpusLogs[rng.below(corpusLogs.count)]
                let from = rng.below(other.count)
                let piece = other[from..<min(other.count, from + rng.below(400))]
                bytes.insert(contentsOf: piece, at: rng.below(bytes.count + 1))
            case 3:                                                   // random bytes
                let noise = (0..<(1 + rng.below(64))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                bytes.insert(contentsOf: noise, at: rng.below(bytes.count + 1))
            case 4:                                                   // duplicate a run
                let from = rng.below(bytes.count)
                let run = Array(bytes[from..<min(bytes.count, from + rng.below(200))])
                bytes.insert(contentsOf: run, at: rng.below(bytes.count + 1))
            default:                                                  // delete a run
                let from = rng.below(bytes.count)
                bytes.removeSubrange(from..<min(bytes.count, from + rng.below(100)))
            }
        }
        return bytes
    }

    @Test func mutatedCorpusKeepsEveryInvariant() throws {
        try #require(corpusLogs.count == 22)
        var rng = SeededRandom(state: 0x5EED_0002)
        var fixes = 0, positionFixes = 0, sentences = 0
        for iteration in 0..<3000 {
            let bytes = Self.mutate(&rng)
            let chunk = 1 + rng.below(700)
            let strict = rng.below(4) == 0
            let report = bytes.withUnsafeBytes { NMEAFuzzHarness.feed($0, chunkSize: chunk, strict: strict) }
            if let violation = report.violation {
                Issue.record("iteration \(iteration): \(violation)")
                break
            }
            fixes += report.fixes
            positionFixes += report.positionFixes
            sentences += report.sentences
        }
        // The mutations leave most sentences intact: the harness really ran the pipeline.
        print("fuzz: 3000 inputs, \(sentences) sentences, \(fixes) fixes, \(positionFixes) with a position")
        #expect(sentences > 50_000 && fixes > 9_000 && positionFixes > 6_000)
    }

    /// A seed gives the same inputs on every run and machine (their recorded length and FNV-1a hash: a
    /// change to the mutator, SeededRandom or the corpus moves them), and the pipeline's result does not
    /// depend on how the bytes are cut into reads: 97-byte chunks give what single bytes and one read give.
    @Test func fuzzingIsDeterministic() {
        var rng = SeededRandom(state: 42)
        let inputs = (0..<50).map { _ in Self.mutate(&rng) }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325                       // FNV-1a over every input
        for input in inputs { for byte in input { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 } }
        #expect(inputs.count == 50 && inputs.map(\.count).reduce(0, +) == 72_100, "\(inputs.map(\.count).reduce(0, +)) bytes")
        #expect(hash == 0x8479_C283_A72E_E485, "FNV-1a \(String(hash, radix: 16))")
        var sentences = 0, fixes = 0
        for input in inputs {
            let report = input.withUnsafeBytes { NMEAFuzzHarness.feed($0, chunkSize: 97) }
            #expect(report == input.withUnsafeBytes { NMEAFuzzHarness.feed($0, chunkSize: 1) })
            #expect(report == input.withUnsafeBytes { NMEAFuzzHarness.feed($0, chunkSize: input.count) })
            sentences += report.sentences
            fixes += report.fixes
        }
        #expect(sentences > 500 && fixes > 100, "\(sentences) sentences, \(fixes) fixes")
    }

    @Test func randomBytesNeverCrash() {
        var rng = SeededRandom(state: 7)
        for _ in 0..<200 {
            // Mostly sentence-like characters, so the parser sees many broken fields.
            let alphabet = Array("$GPGGARMCVTGSVZDA,.*0123456789NSEWAV\r\n!".utf8)
            let bytes = (0..<(1 + rng.below(3000))).map { _ in
                rng.below(10) == 0 ? UInt8(truncatingIfNeeded: rng.next()) : alphabet[rng.below(alphabet.count)]
            }
            let report = bytes.withUnsafeBytes { NMEAFuzzHarness.feed($0, chunkSize: 1 + rng.below(64)) }
            #expect(report.violation == nil)
        }
    }

    /// `make fuzz` (nmea target, 5.2 M executions) found a fix the harness called inconsistent: a 3D
    /// epoch whose GSA has a VDOP and no HDOP gets a vertical estimate only, from the DOPs.
    @Test func aVerticalOnlyEstimateIsConsistent() throws {
        let (fixes, _) = assemble([
            "$GPGGA,120000.00,4807.0380,N,01131.0000,E,1,09,,545.4,M,46.9,M,,",
            "$GPGSA,A,3,01,02,03,04,05,06,,,,,,,1.5,,1.2",
        ])
        let fix = try #require(fixes.first)
        #expect(fix.mode == .threeD && fix.horizontalAccuracyMeters == nil)
        #expect(fix.verticalAccuracyMeters == 1.2 * 23 && fix.accuracySource == .dop)
        #expect(NMEAFuzzHarness.rangeViolation(fix) == nil)
        let finding = try #require(Fixtures.bytes("fuzz/nmea/finding-vertical-only-accuracy.nmea"))
        #expect(finding.withUnsafeBytes { NMEAFuzzHarness.feed($0, chunkSize: 613).violation } == nil)
    }

    /// The second finding: a ZDA dated 2200 followed by earlier dates and midnights carried the UTC
    /// past 2199, the harness's old bound; the resolver's own range (to 2262) is the invariant now.
    @Test func datesAfter2199StayInTheResolversRange() throws {
        let finding = try #require(Fixtures.bytes("fuzz/nmea/finding-date-after-2199.nmea"))
        let chunk = 1 + Int(finding[0]) * 17
        #expect(finding.withUnsafeBytes { NMEAFuzzHarness.feed($0, chunkSize: chunk, strict: finding[1] & 1 == 1).violation } == nil)
        var fixes: [Fix] = []
        var pipeline = NMEAPipeline()
        finding.withUnsafeBytes { pipeline.feed($0) { fixes.append(copy $0) } }
        pipeline.finish { fixes.append(copy $0) }
        #expect(fixes.contains { ($0.utcNanoseconds ?? 0) > utc(2200, 1, 1) })
        #expect(fixes.allSatisfy { ($0.utcNanoseconds ?? 0) < UTCDateResolver.latestDays * 86_400_000_000_000 })
    }

    @Test func harnessDetectsBrokenFixes() {
        var fix = Fix(timeOfDayNanoseconds: 1_000_000_000)
        #expect(NMEAFuzzHarness.rangeViolation(fix) == nil)
        fix.mode = .threeD
        #expect(NMEAFuzzHarness.rangeViolation(fix) != nil)         // a fix without position
        fix.quality = .gps
        fix.latitudeDegrees = 91
        fix.longitudeDegrees = 0
        #expect(NMEAFuzzHarness.rangeViolation(fix) != nil)
        fix.latitudeDegrees = 45
        #expect(NMEAFuzzHarness.rangeViolation(fix) == nil)
        fix.courseDegrees = 360
        #expect(NMEAFuzzHarness.rangeViolation(fix) != nil)
        fix.courseDegrees = 10
        fix.utcNanoseconds = 5                                        // not on the same time of day
        #expect(NMEAFuzzHarness.rangeViolation(fix) != nil)
    }
}
