import FuzzSupport
import Testing
import TestSupport
@testable import NMEA

/// The hot path allocates nothing: framing, parsing and assembling every corpus log (after one
/// warm-up pass) makes zero heap allocations, in debug and release builds.
@Suite struct NMEAAllocationTests {
    static let corpus: [UInt8] = corpusLogs.flatMap { $0 }

    @Test func wholeCorpusSecondPassAllocatesNothing() throws {
        try #require(Self.corpus.count > 400_000)
        var pipeline = NMEAPipeline()
        var fixes = 0
        Self.corpus.withUnsafeBytes { raw in
            pipeline.feed(raw) { _ in fixes += 1 }                   // warm-up pass
        }
        let warmFixes = fixes
        let allocations = Self.corpus.withUnsafeBytes { raw in
            allocationCount {
                var offset = 0
                while offset < raw.count {                             // serial-port-sized chunks
                    let n = min(512, raw.count - offset)
                    pipeline.feed(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + n])) { _ in fixes += 1 }
                    offset += n
                }
                pipeline.finish { _ in fixes += 1 }
            }
        }
        let secondPassFixes = fixes - warmFixes
        #expect(allocations == 0)
        #expect(secondPassFixes > 700)
    }

    @Test func feedingWithTimesAndQuietClosesAllocatesNothing() {
        // As the device feeds it: each 256-byte read with its time (300 ms apart, so that epochs also
        // close for a quiet line), and the quiet-line close whenever its deadline has passed.
        var pipeline = NMEAPipeline()
        var fixes = 0
        var quietCloses = 0
        func pass(_ raw: UnsafeRawBufferPointer, from start: Int64) -> Int64 {
            var now = start
            var offset = 0
            while offset < raw.count {
                let n = min(256, raw.count - offset)
                pipeline.feed(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + n]), nowNanoseconds: now) { _ in fixes += 1 }
                offset += n
                now += 300_000_000
                if let deadline = pipeline.deadlineNanoseconds, deadline <= now {
                    pipeline.closeIfQuiet(nowNanoseconds: now) { _ in quietCloses += 1 }
                }
            }
            return now
        }
        let end = Self.corpus.withUnsafeBytes { pass($0, from: 0) }
        let allocations = Self.corpus.withUnsafeBytes { raw in allocationCount { _ = pass(raw, from: end) } }
        #expect(allocations == 0)
        #expect(fixes + quietCloses > 1_400 && quietCloses > 100)
    }

    @Test func freshPipelineAllocatesNothing() {
        // Even the first use of a new pipeline (after the code paths were warmed once) is allocation-free.
        Self.corpus.withUnsafeBytes { raw in
            var warm = NMEAPipeline()
            warm.feed(raw) { _ in }
        }
        var fixes = 0, positions = 0
        let allocations = Self.corpus.withUnsafeBytes { raw in
            allocationCount {
                var pipeline = NMEAPipeline(strict: true)
                pipeline.feed(raw) { fix in fixes += 1; if fix.mode != .noFix { positions += 1 } }
                pipeline.finish { fix in fixes += 1; if fix.mode != .noFix { positions += 1 } }
            }
        }
        #expect(allocations == 0)
        // The counted pipeline really decoded the corpus: as many fixes as an uncounted strict one.
        var again = 0
        Self.corpus.withUnsafeBytes { raw in
            var pipeline = NMEAPipeline(strict: true)
            pipeline.feed(raw) { _ in again += 1 }
            pipeline.finish { _ in again += 1 }
        }
        #expect(fixes == again && fixes > 700 && positions > 500, "\(fixes) fixes, \(positions) with a position")
    }

    @Test func fuzzHarnessAllocatesNothing() {
        let sample = Array(Self.corpus.prefix(60_000))
        let warm = sample.withUnsafeBytes { NMEAFuzzHarness.feed($0, chunkSize: 33) }
        var report = NMEAFuzzHarness.Report()
        let allocations = sample.withUnsafeBytes { raw in
            allocationCount { report = NMEAFuzzHarness.feed(raw, chunkSize: 33) }
        }
        #expect(allocations == 0)
        #expect(report == warm && report.violation == nil)
        #expect(report.sentences > 500 && report.fixes > 100, "\(report.sentences) sentences, \(report.fixes) fixes")
    }
}
