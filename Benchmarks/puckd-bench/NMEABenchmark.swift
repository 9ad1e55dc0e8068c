import CMallocCounter
import Glibc
import NMEA
import Puckd

/// `puckd-bench nmea FILE`: throughput of the NMEA pipeline on one core, measured in thread CPU time
/// (robust against other processes on a shared machine), best of `runs` runs:
/// - parse only: `NMEAParser.parse` over the sentences of FILE, framed beforehand;
/// - framer only: `SentenceFramer` over the bytes of FILE in 64 KiB chunks;
/// - framer + parser + assembler: `NMEAPipeline` over the bytes of FILE in 64 KiB chunks.
/// Prints human-readable figures and `RESULT key=value` lines for scripts/bench.
enum NMEABenchmark {
    static let runs = 5
    static let chunk = 1 << 16

    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count == 1, let bytes = readFile(arguments[0]) else {
            StandardStreams.err("puckd-bench nmea: give one readable NMEA log file (scripts/bench generates one)\n")
            return 64
        }
        // Frame once, outside the timed loops, into contiguous sentence bodies.
        var bodies: [UInt8] = []
        var ranges: [Range<Int>] = []
        bodies.reserveCapacity(bytes.count)
        var framer = SentenceFramer()
        bytes.withUnsafeBytes { raw in
            framer.feed(raw) { span, _ in
                let start = bodies.count
                span.withUnsafeBufferPointer { bodies.append(contentsOf: $0) }
                ranges.append(start..<bodies.count)
            }
        }
        let sentences = ranges.count
        let megabytes = Double(bytes.count) / 1e6
        print("nmea corpus: \(arguments[0]): \(bytes.count) bytes, \(sentences) sentences framed")

        // Parse only.
        var parseSeconds = Double.infinity
        var parseAllocations: UInt64 = 0
        var sink = 0
        bodies.withUnsafeBufferPointer { all in
            ranges.withUnsafeBufferPointer { rs in
                for _ in 0..<runs {
                    let a0 = mc_thread_allocations()
                    let t0 = threadSeconds()
                    for r in rs {
                        let parsed = NMEAParser.parse(UnsafeBufferPointer(rebasing: all[r]))
                        sink &+= parsed.kind.rawValue
                    }
                    parseSeconds = min(parseSeconds, threadSeconds() - t0)
                    parseAllocations = mc_thread_allocations() - a0
                }
            }
        }

        // Framer only.
        var framerSeconds = Double.infinity
        bytes.withUnsafeBytes { raw in
            for _ in 0..<runs {
                var f = SentenceFramer()
                let t0 = threadSeconds()
                var offset = 0
                while offset < raw.count {
                    let n = min(chunk, raw.count - offset)
                    f.feed(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + n])) { span, _ in sink &+= span.count }
                    offset += n
                }
                framerSeconds = min(framerSeconds, threadSeconds() - t0)
            }
        }

        // Framer + parser + assembler.
        var pipelineSeconds = Double.infinity
        var epochs = 0
        var pipelineAllocations: UInt64 = 0
        bytes.withUnsafeBytes { raw in
            for _ in 0..<runs {
                var pipeline = NMEAPipeline()
                var n = 0
                let a0 = mc_thread_allocations()
                let t0 = threadSeconds()
                var offset = 0
                while offset < raw.count {
                    let len = min(chunk, raw.count - offset)
                    pipeline.feed(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + len])) { _ in n += 1 }
                    offset += len
                }
                pipeline.finish { _ in n += 1 }
                pipelineSeconds = min(pipelineSeconds, threadSeconds() - t0)
                pipelineAllocations = mc_thread_allocations() - a0
                epochs = n
            }
        }

        let parseRate = Double(sentences) / parseSeconds
        let pipelineRate = Double(sentences) / pipelineSeconds
        let epochRate = Double(epochs) / pipelineSeconds
        print("parse only:               \(fmt(parseRate / 1e6)) M sentences/s"
              + "  (\(fmt(parseSeconds * 1e9 / Double(sentences))) ns/sentence, \(parseAllocations) allocations)")
        print("framer only:              \(fmt(Double(sentences) / framerSeconds / 1e6)) M sentences/s"
              + "  (\(fmt(megabytes / framerSeconds)) MB/s)")
        print("framer+parser+assembler:  \(fmt(pipelineRate / 1e6)) M sentences/s, \(fmt(epochRate / 1e3)) k epochs/s"
              + "  (\(epochs) epochs, \(pipelineAllocations) allocations)")
        print("RESULT sentences=\(sentences)")
        print("RESULT epochs=\(epochs)")
        print("RESULT parse_seconds=\(parseSeconds)")
        print("RESULT pipeline_seconds=\(pipelineSeconds)")
        if sink == 42 { print("") }                         // keeps the loops from being optimized away
        return 0
    }

    static func threadSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func fmt(_ v: Double) -> String {
        let scaled = (v * 100).rounded() / 100
        return "\(scaled)"
    }

    static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { return out }
            out.append(contentsOf: buffer[0..<n])
        }
    }
}
