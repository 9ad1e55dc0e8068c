import SystemCalls
import Console
import Hardware
import NMEA
import Puckd

/// One replay run: the pipeline, the output buffer, optional pacing and the figures for the summary.
struct ReplaySession: ~Copyable {
    private var pipeline: NMEAPipeline
    private var out = OutputBuffer(capacity: ReplayCommand.chunkBytes)
    private var pacer = RealtimePacer()
    private let options: ReplayOptions
    /// Where fix lines go, and where the summary goes.
    private let fixDescriptor: FileDescriptor
    private let summaryDescriptor: FileDescriptor
    private var firstEpoch: ReplayEpochTime?
    private var lastEpoch: ReplayEpochTime?
    private var printedFixes = 0
    /// The tracking core driven by the fixes (`--track`), else nil.
    private var tracking: ReplayTracking?
    private var trackingSummary: (ticks: UInt64, skipped: UInt64, forwardJumps: UInt64, backwardJumps: UInt64)?
    /// True once writing the output failed (the reader closed the pipe, the disk is full): stop early.
    private(set) var outputClosed = false
    /// Bytes of fix, tracking or summary output that were not written; any is a failure (exit 74).
    private(set) var lostBytes = 0
    /// The error of the failed write (EPIPE: the reader closed the pipe), nil while writes succeed.
    private var writeError: Errno? = nil
    /// Free room kept in the buffer before each record: a fix line (≈ 350 bytes of JSON with every
    /// field) or a tracking line fits many times over, so a record never overflows the buffer.
    static let recordReserveBytes = 4096

    /// A session writing fix lines to `output` and the summary to `summary` (default: standard
    /// error with `--json`, so the JSON stream stays clean, else standard output).
    init(options: ReplayOptions, output: FileDescriptor = .standardOutput, summary: FileDescriptor? = nil,
         script: ReplayScript? = nil) {
        self.options = options
        fixDescriptor = output
        summaryDescriptor = summary ?? (options.json ? .standardError : .standardOutput)
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
        var summary = OutputBuffer(capacity: 16_384)
        ReplaySummary.append(pipeline: pipeline, first: firstEpoch, last: lastEpoch, to: &summary)
        if let s = trackingSummary {
            summary.append("tracking: "); summary.append(uint: s.ticks); summary.append(" ticks at 60 Hz of log time, ")
            summary.append(uint: s.skipped); summary.append(" skipped across "); summary.append(uint: s.forwardJumps)
            summary.append(" gaps, "); summary.append(uint: s.backwardJumps); summary.append(" backward time jumps\n")
        }
        lostBytes += summary.droppedBytes
        if let failed = summary.withBytes({ Self.write(to: summaryDescriptor, $0) }) {
            if writeError == nil { writeError = failed }
            lostBytes += summary.count
        }
        if lostBytes > 0 { return reportLostOutput() }
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
        return ExitStatus.ok
    }

    /// Says once that output was lost, and how much; returns the failure status.
    private func reportLostOutput() -> Int32 {
        let bytes = String(lostBytes) + " byte" + (lostBytes == 1 ? "" : "s")
        let fixes = String(printedFixes) + " fix" + (printedFixes == 1 ? "" : "es")
        switch writeError {
        case .brokenPipe?:
            StandardStreams.err("puckd replay: the output was closed by its reader (EPIPE) before the end: "
                + bytes + " of the " + fixes + "' output and summary were not written\n")
        case nil:
            StandardStreams.err("puckd replay: " + bytes + " of output were lost in puckd's output buffer (a bug: "
                + "please report it with the log); the output is incomplete\n")
        case let error?:
            StandardStreams.err("puckd replay: writing the output failed (" + error.description
                + "): " + bytes + " of the " + fixes + "' output and summary were not written; free space or "
                + "give a writable destination\n")
        }
        return ExitStatus.ioError
    }

    private mutating func emit(_ fix: borrowing Fix) {
        if firstEpoch == nil { firstEpoch = ReplayEpochTime(fix) }
        lastEpoch = ReplayEpochTime(fix)
        if outputClosed { return }
        // A chunk of input can complete more fixes than the buffer holds: make room first.
        if out.capacity - out.count < Self.recordReserveBytes { flush() }
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

    /// Writes the buffer out; what could not be written (or was dropped by the buffer) is counted.
    private mutating func flush() {
        lostBytes += out.droppedBytes
        if out.isEmpty || outputClosed {
            lostBytes += out.count
            out.removeAll()
            return
        }
        if let failed = out.withBytes({ Self.write(to: fixDescriptor, $0) }) {
            outputClosed = true
            writeError = failed
            lostBytes += out.count          // the part of a failed write that got out is not known: all
        }
        out.removeAll()
    }

    /// Writes all of `bytes` (EINTR and short writes retried): nil, or the error that stopped it.
    private static func write(to descriptor: FileDescriptor, _ bytes: UnsafeRawBufferPointer) -> Errno? {
        do throws(Errno) { try descriptor.writeAll(bytes); return nil } catch { return error }
    }
}
