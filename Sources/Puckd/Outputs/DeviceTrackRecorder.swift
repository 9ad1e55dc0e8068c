import Configuration
import Console
import NMEA
import Heading
import TrackLog

/// What one service of the track recorder did, for the router.
struct TrackRecorderEvents: OptionSet {
    let rawValue: UInt8
    /// Buffered records (or raw NMEA) were written and their durable flush queued.
    static let flushed = TrackRecorderEvents(rawValue: 1)
    /// The disk fault was set, changed or cleared (the fault bits change).
    static let faultChanged = TrackRecorderEvents(rawValue: 2)
}

/// The track journal as a part of the loop (docs/track-log.md §4): built from `[track]` (on by default,
/// `track/` in the state directory), each routed fix appended with its heading, the receiver's raw
/// bytes when `raw_nmea`, the flush at its deadline in the wake scheduler, the durable part on the
/// flusher thread, a failing disk turned into the `track` fault (said once, counted), and the last
/// flush and close at shutdown. Tracking goes on whatever the disk does.
final class DeviceTrackRecorder: LoopComponent {
    /// The writer; nil when `[track] enabled = false`.
    let writer: TrackLogWriter<DeviceTrackFiles>?
    let directory: String
    let output: DeviceOutput
    /// The start-up report's lines (what was found and repaired, where it records).
    private(set) var reportLines: [String] = []
    /// `[track] directory` as the `status` row shows it, and the current fault in words.
    let descriptionText: ConsoleText
    private(set) var faultText = ConsoleText()
    private var saidFaultChanges: UInt64 = 0
    /// Times the disk fault was set (a new errno counts again), for `stats`.
    private(set) var faultsRaised: UInt64 = 0
    /// The first sequence number this run gives, and the written count a durability mark covers.
    private var firstSequence: UInt64 = 0
    private var markedWritten: UInt64 = 0
    private var flushesSeen: UInt64 = 0
    /// The last record known durable before this run's first mark (the journal's tail at start-up).
    private var recoveredLast: UInt64?
    /// When the last flush ran (monotonic ns) and the UTC of the newest record appended.
    private(set) var lastFlushNanoseconds: Int64?
    private(set) var newestUTCNanoseconds: Int64?

    /// Opens the journal (start-up: recovery, allocates). `files` nil: the board's disk with a flusher thread.
    init(_ settings: TrackSettings, stateDirectory: String, files: DeviceTrackFiles?, output: DeviceOutput) {
        self.output = output
        directory = settings.resolvedDirectory(stateDirectory: stateDirectory)
        guard settings.enabled else {
            writer = nil
            descriptionText = ConsoleText("off ([track] enabled = false)")
            reportLines = ["track: off ([track] enabled = false)"]
            return
        }
        descriptionText = ConsoleText(string: directory)
        let logSettings = TrackLogSettings(directory: directory, flushIntervalSeconds: settings.flushIntervalSeconds,
                                           maximumMegabytes: settings.maximumSizeMegabytes, rawNMEA: settings.rawNMEA)
        let chosen = files ?? .disk(FlushedTrackFiles(flusher: TrackFlusher()))
        let writer = TrackLogWriter(settings: logSettings, files: chosen)
        self.writer = writer
        let recovery = writer.open()
        firstSequence = writer.nextSequence
        recoveredLast = firstSequence > 0 ? firstSequence - 1 : nil
        reportLines = recovery.lines
        var line = "track: recording every fix into " + directory + " (" + String(recovery.segments) + " segments, "
            + String(recovery.records) + " records, next sequence " + String(firstSequence) + "; flushed every "
            + String(settings.flushIntervalSeconds) + " s"
        if let flusher = chosen.flusher {
            line += flusher.isThreaded ? ", fdatasync on the flusher thread" : ", fdatasync on the loop thread (no flusher thread)"
        }
        reportLines.append(line + (settings.rawNMEA ? "; raw NMEA kept)" : ")"))
        sayFaultIfChanged()
    }

    /// The last record appended (nil: the journal is empty), and the last one known on disk.
    var appendedSequence: UInt64? {
        guard let writer, writer.nextSequence > 0 else { return nil }
        return writer.nextSequence - 1
    }

    var durableSequence: UInt64? {
        guard let writer else { return nil }
        if let flusher = writer.files.flusher { return flusher.durableSequence ?? recoveredLast }
        // The simulated disk syncs in place: written with no fault is durable.
        let written = writer.counters.recordsWritten
        return written > 0 ? firstSequence + written - 1 : recoveredLast
    }

    var isFaulted: Bool { writer?.fault != nil }

    /// A fix the router routed, with the heading the device knows for it.
    func publish(fix: borrowing Fix, heading: TrackHeading, nowNanoseconds now: Int64) {
        guard let writer else { return }
        writer.append(fix, heading: heading, nowNanoseconds: now)
        if fix.hasPosition, let utc = fix.utcNanoseconds { newestUTCNanoseconds = utc }
        _ = noteWriter(nowNanoseconds: now)
    }

    /// The receiver's bytes as read (kept when `[track] raw_nmea`).
    func publish(receiverBytes bytes: UnsafeRawBufferPointer, nowNanoseconds now: Int64) {
        guard let writer, writer.settings.rawNMEA else { return }
        writer.appendRaw(bytes, nowNanoseconds: now)
        _ = noteWriter(nowNanoseconds: now)
    }

    /// The flush deadline (nil while nothing is buffered or recording is off).
    var deadlineNanoseconds: Int64? {
        guard let next = writer?.nextDeadlineNanoseconds, next != .max else { return nil }
        return next
    }

    func service(nowNanoseconds now: Int64, ready: PollReadiness) -> TrackRecorderEvents {
        guard let writer else { return [] }
        writer.service(nowNanoseconds: now)
        return noteWriter(nowNanoseconds: now)
    }

    /// After each writer call: a flush that wrote records queues its durability mark behind its syncs;
    /// a fault change is said once.
    private func noteWriter(nowNanoseconds now: Int64) -> TrackRecorderEvents {
        guard let writer else { return [] }
        var events: TrackRecorderEvents = []
        let c = writer.counters
        if c.flushes != flushesSeen {
            flushesSeen = c.flushes
            lastFlushNanoseconds = now
            events.insert(.flushed)
            if c.recordsWritten != markedWritten && writer.fault == nil {
                markedWritten = c.recordsWritten
                writer.files.flusher?.mark(durableThrough: firstSequence + markedWritten - 1)
            }
        }
        if sayFaultIfChanged() { events.insert(.faultChanged) }
        return events
    }

    /// Says a new fault (what failed, what to do) or its end, once per change (allocates then only).
    @discardableResult
    private func sayFaultIfChanged() -> Bool {
        guard let writer, writer.faultChanges != saidFaultChanges else { return false }
        saidFaultChanges = writer.faultChanges
        if let fault = writer.fault {
            faultsRaised &+= 1
            let message = fault.message(directory: directory)
            faultText = ConsoleText(string: message)
            output.line(.error) { out in
                out.append("track: ")
                out.append(string: message)
            }
        } else {
            faultText = ConsoleText()
            output.line { out in
                out.append("track: writing ")
                out.append(string: directory)
                out.append(" works again")
            }
        }
        return true
    }

    /// Shutdown: the last flush, the close, the flusher drained (everything durable), and the log's words.
    func close(nowNanoseconds now: Int64) -> String {
        guard let writer else { return "track off" }
        let flushed = writer.close(nowNanoseconds: now)
        writer.files.flusher?.stop()
        _ = noteWriter(nowNanoseconds: now)
        let c = writer.counters
        if flushed && writer.fault == nil {
            return "track: " + String(c.recordsWritten) + " records flushed to " + directory
        }
        return "track: " + String(writer.pendingRecords) + " records could not be written to " + directory + " ("
            + (writer.fault.map { $0.message(directory: directory) } ?? "unknown error") + ")"
    }

    /// ` | track seq A durable D` in the status line (`-` for none; nothing when recording is off).
    func appendStatus(to out: inout OutputBuffer) {
        guard writer != nil else { return }
        out.append(" | track seq ")
        if let a = appendedSequence { out.append(uint: a) } else { out.append("-") }
        out.append(" durable ")
        if let d = durableSequence { out.append(uint: d) } else { out.append("-") }
    }

    /// The `track` row of `status`.
    func fillSnapshot(_ d: inout ConsoleDeviceState, nowNanoseconds now: Int64) {
        let state: StaticString = writer == nil ? "off" : (writer!.fault != nil ? "write failing" : "recording")
        d.sources.set(ConsoleSource(name: "track", description: descriptionText, state: state, isHealthy: writer?.fault == nil))
        if writer?.fault != nil { d.faults.append(ConsoleFault(source: "track", reason: faultText)) }
        fillTrackView(&d.track)
    }

    /// The console's `track` view.
    private func fillTrackView(_ t: inout ConsoleTrackState) {
        guard let writer else {
            t.isEnabled = false
            return
        }
        let c = writer.counters
        t.isEnabled = true
        t.directory = descriptionText
        t.segments = writer.segmentCount
        t.bytes = writer.journalBytes
        let oldest = writer.oldestSegment
        t.oldestDayUTCNanoseconds = oldest.map { Int64($0.utcDay) * 86_400_000_000_000 }
        t.newestUTCNanoseconds = newestUTCNanoseconds
        t.lastSequence = appendedSequence
        t.durableSequence = durableSequence
        if let last = appendedSequence, let first = oldest?.firstSequence, last >= first {
            t.records = Int64(truncatingIfNeeded: last - first + 1)
        } else {
            t.records = 0
        }
        t.pendingRecords = writer.pendingRecords
        t.lostRecords = c.recordsLost
        t.droppedSegments = c.segmentsDropped
        t.droppedRecords = c.recordsDropped
        t.lastFlushNanoseconds = lastFlushNanoseconds
        t.lastError = writer.fault != nil ? faultText : ConsoleText()
    }

    /// The `track.*` rows of `stats`.
    func appendStats(to t: inout ConsoleCounterTable) {
        guard let writer else { return }
        let c = writer.counters
        t.append("track.segments", Int64(writer.segmentCount))
        t.append("track.bytes", writer.journalBytes)
        t.append("track.recordsAppended", c.recordsAppended)
        t.append("track.recordsWritten", c.recordsWritten)
        t.append("track.recordsPending", Int64(writer.pendingRecords))
        t.append("track.recordsLost", c.recordsLost)
        t.append("track.lastSequence", appendedSequence.map { Int64(truncatingIfNeeded: $0) } ?? -1)
        t.append("track.durableSequence", durableSequence.map { Int64(truncatingIfNeeded: $0) } ?? -1)
        t.append("track.flushes", c.flushes)
        t.append("track.failedFlushes", c.failedFlushes)
        t.append("track.faults", faultsRaised)
        t.append("track.segmentsDropped", c.segmentsDropped)
        t.append("track.recordsDropped", c.recordsDropped)
        t.append("track.rawBytesWritten", c.rawBytesWritten)
        t.append("track.rawBytesLost", c.rawBytesLost)
        if let flusher = writer.files.flusher {
            let s = flusher.statistics
            t.append("track.syncs", s.syncs)
            t.append("track.failedSyncs", s.failed)
            t.append("track.longestSyncNanoseconds", s.longestNanoseconds)
            t.append("track.flusherWaits", s.waits)
        }
    }
}

extension Device {
    /// The heading that goes into the track record with `fix`: the IMU's fused true heading while the
    /// IMU is healthy, else the receiver's true heading (HDT/THS), else the course over ground.
    func trackHeading(for fix: borrowing Fix) -> TrackHeading {
        if imuLink.isPresent, !faults.contains(.imu), let estimate = imuLink.heading.published, let degrees = estimate.trueHeadingDegrees {
            return TrackHeading(degrees: degrees, accuracyDegrees: estimate.headingAccuracyDegrees, source: .imu)
        }
        if let degrees = fix.trueHeadingDegrees { return TrackHeading(degrees: degrees, source: .gnssTrueHeading) }
        if let degrees = fix.courseDegrees { return TrackHeading(degrees: degrees, source: .course) }
        return TrackHeading()
    }
}
