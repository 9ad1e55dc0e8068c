// libFuzzer target: bytes → framer, parser, assembler (recorded and live date policies) → every fix
// rendered as the replay prints it. Traps on a broken invariant (NMEAFuzzHarness) or any crash.
import Console
import FuzzSupport
import NMEA

@_cdecl("LLVMFuzzerTestOneInput")
public func nmeaFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let chunk = size > 0 ? 1 + Int(bytes[0]) * 17 : 4096           // split anywhere, as reads do
    let report = NMEAFuzzHarness.feed(bytes, chunkSize: chunk, strict: size > 1 && bytes[1] & 1 == 1)
    if let violation = report.violation { fatalError("NMEA invariant broken: \(violation)") }
    var configuration = EpochAssembler.Configuration()
    configuration.dates = UTCDateResolver(policy: .live(pivotDays: CivilDate.daysSinceEpoch(year: 2026, month: 12, day: 1)))
    var pipeline = NMEAPipeline(configuration: configuration)
    var out = OutputBuffer(capacity: 4096)
    pipeline.feed(bytes) { fix in
        out.removeAll()
        _ = FixJSON.append(fix, to: &out)
        FixSummary.append(fix, to: &out)
        if out.overflowed { fatalError("a fix line overflowed 4 KiB") }
    }
    pipeline.finish { _ in }
    return 0
}
