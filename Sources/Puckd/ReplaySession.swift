import Console
import Glibc
import NMEA

/// One replay run: the pipeline, the output buffer, optional pacing and the figures for the summary.
struct ReplaySession: ~Copyable {
    private var pipeline: NMEAPipeline
    private var out = OutputBuffer(capacity: ReplayCommand.chunkBytes)
    private var pacer = RealtimePacer()
    private let options: ReplayOptions
    /// Where fix lines go, and where the summary goes.
    private let outputFD: Int32
    private let summaryFD: Int32
    private var firstEpoch: ReplayEpochTime?
    private var lastEpoch: ReplayEpochTime?
    private var printedFixes = 0
    /// The tracking core driven by the fixes (`--track`), else nil.
    private var tracking: ReplayTracking?
    private var trackingSummary: (ticks: UInt64, skipped: UInt64, forwardJumps: UInt64, backwardJumps: UInt64)?
    /// True once standard output was closed by the reader (e.g. `| head`): stop early.
    private(set) var outputClosed = false

    /// A session writing fix lines to `outputFD` and the summary to `summaryFD` (default: standard
    /// error with `--json`, so the JSON stream stays clean, else standard output).
    init(options: ReplayOptions, outputFD: Int32 = 1, summaryFD: Int32? = nil, script: ReplayScript? = nil) {
        self.options = options
        self.outputFD = outputFD
        self.summaryFD = summaryFD ?? (options.json ? 2 : 1)
        pipeline = NMEAPipeline(strict: options.strict)
        if let target = options.track {
            tracking = ReplayTracking(target: target, json: options.json, realtime: options.realtime, script: script)
        }
    }

    /// Feeds a chunk of input, printing the fixes it completes.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        var pipeline = self.pipeline
        pipeline.feed(bytes) { fix in emit(fix) }
        self.pipeline = pipeline
        if out.count > out.capacity - 4096 { flush() }
    }

    /// Ends the input, prints the last fix and the summary. Returns the exit status.
    mutating func finish() -> Int32 {
        var pipeline = self.pipeline
        pipeline.finish { fix in emit(fix) }
        self.pipeline = pipeline
        if var tracking = tracking.take() {
            tracking.finish()
            while tracking.drain(to: &out) { flush() }
            trackingSummary = tracking.summary
            self.tracking = consume tracking
        }
        flush()
        var summary = OutputBuffer(capacity: 4096)
        ReplaySummary.append(pipeline: pipeline, first: firstEpoch, last: lastEpoch, to: &summary)
        if let s = trackingSummary {
            summary.append("tracking: "); summary.append(uint: s.ticks); summary.append(" ticks at 60 Hz of log time, ")
            summary.append(uint: s.skipped); summary.append(" skipped across "); summary.append(uint: s.forwardJumps)
            summary.append(" gaps, "); summary.append(uint: s.backwardJumps); summary.append(" backward time jumps\n")
        }
        summary.withBytes { _ = StandardStreams.write(fd: summaryFD, $0) }
        let framed = pipeline.framer.counters
        if framed.sentencesDelivered == 0 {
            if framed.missingChecksums > 0 {
                StandardStreams.err("puckd replay: all \(framed.missingChecksums) sentences lack a checksum and "
                    + "--strict drops them; run without --strict to accept them\n")
            } else {
                StandardStreams.err("puckd replay: no NMEA sentences found; is the input an NMEA 0183 log "
                    + "(lines starting with '$')?\n")
            }
            return ExitStatus.dataError
        }
        if outputClosed && errno != EPIPE { return ExitStatus.ioError }
        return ExitStatus.ok
    }

    private mutating func emit(_ fix: borrowing Fix) {
        if firstEpoch == nil { firstEpoch = ReplayEpochTime(fix) }
        lastEpoch = ReplayEpochTime(fix)
        if outputClosed { return }
        // `options.track` is checked before `take()`: moving the (large) tracking state out and back
        // for every fix costs more than parsing the fix.
        if options.track != nil, var tracking = tracking.take() {
            tracking.deliver(fix)
            while tracking.drain(to: &out) { flush() }
            self.tracking = consume tracking
            printedFixes += 1
            return
        }
        if options.realtime {
            flush()
            pacer.wait(for: fix)
        }
        if options.json {
            FixJSON.append(fix, to: &out)
        } else {
            FixSummary.append(fix, to: &out)
        }
        printedFixes += 1
        if options.realtime { flush() }
    }

    private mutating func flush() {
        if out.isEmpty || outputClosed { out.removeAll(); return }
        let ok = out.withBytes { StandardStreams.write(fd: outputFD, $0) }
        if !ok { outputClosed = true }
        out.removeAll()
    }
}
