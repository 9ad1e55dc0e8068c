import SystemCalls

/// What the writer found and repaired at start-up (docs/track-log.md §5), for the start-up report.
public struct TrackLogRecovery: Sendable, Equatable {
    /// Segments in the journal and the records in them.
    public var segments = 0
    public var records = 0
    /// Segments whose torn or corrupt tail was cut off, and the bytes cut.
    public var tailsCut = 0
    public var tailBytesCut = 0
    /// Damaged records inside segments (skipped by readers; later records kept).
    public var damagedRecords = 0
    /// Segment files whose header was unusable, renamed to `NAME.trk.corrupt`.
    public var segmentsMovedAside = 0
    /// Segments removed to get under the size cap.
    public var segmentsDroppedForCap = 0
    /// The sequence number the next record gets.
    public var nextSequence: UInt64 = 0
    /// One line per repair, for the log (said once at start-up).
    public var lines: [String] = []
}

extension TrackLogWriter {
    /// Opens the journal: creates the directory, scans every segment's records by CRC, cuts each torn
    /// or corrupt tail off (nothing before it is lost), moves unusable segments aside, continues the
    /// sequence numbers and drops the oldest segments beyond the cap. Start-up only (allocates).
    /// A directory that cannot be created or written becomes `fault` (its segments are still read, so
    /// the sequence goes on once it can be written); records are still buffered.
    @discardableResult
    public func open() -> TrackLogRecovery {
        var report = TrackLogRecovery()
        let directory = settings.directory
        if let made = files.makeDirectory(directory) {
            // Still read what is there: when the directory becomes writable later, the sequence goes on
            // after its records instead of starting again at 0 beside them.
            setFault(TrackLogFault(step: .createDirectory, error: made))
        }
        var names: [TrackSegmentName] = []
        if case .success(let entries) = files.list(directory) {
            names = entries.compactMap { TrackSegmentName(fileName: $0) }.sorted()
        }
        for name in names {
            let fileName = name.fileName()
            let path = directory + "/" + fileName
            guard case .success(let bytes) = files.read(path) else { continue }
            let scan = bytes.withUnsafeBytes { TrackSegmentScan(bytes: $0) }
            if case .failure(let why) = scan.header {
                // Its name still tells where its records were: their sequence numbers are not given again.
                let slots = UInt64(max(0, bytes.count - TrackSegmentHeader.byteCount) / TrackRecord.byteCount)
                nextSequence = max(nextSequence, name.firstSequence &+ slots)
                if files.rename(path, path + ".corrupt") == nil {
                    report.segmentsMovedAside += 1
                    report.lines.append("track: " + fileName + " moved aside to " + fileName + ".corrupt: " + why.reason)
                }
                continue
            }
            if scan.tailBytes > 0 {
                let cut = cutTail(path: path, keeping: scan.keptBytes)
                report.tailsCut += 1
                report.tailBytesCut += scan.tailBytes
                report.lines.append("track: " + fileName + ": a torn or corrupt tail of \(scan.tailBytes) bytes after record "
                    + (scan.lastSequence.map { String($0) } ?? "none") + " was "
                    + (cut.map { "found but could not be cut (" + $0.description + "); readers skip it" } ?? "cut off"))
            }
            if scan.damagedRecords > 0 {
                report.damagedRecords += scan.damagedRecords
                report.lines.append("track: " + fileName + ": \(scan.damagedRecords) damaged records inside (their CRC fails); "
                    + "they are skipped, the records around them are kept")
            }
            var rawBytes: Int64 = 0
            if case .success(let raw) = files.read(directory + "/" + name.fileName(extension: ".nmea")) { rawBytes = Int64(raw.count) }
            let entry = TrackSegmentEntry(name: name, trackBytes: Int64(scan.keptBytes), rawBytes: rawBytes)
            if segments.isFull { segments.grow() }
            segments.append(entry)
            totalBytes += entry.trackBytes + entry.rawBytes
            report.records += scan.validRecords
            if let next = scan.nextSequence, next > nextSequence { nextSequence = next }
        }
        let dropped = counters.segmentsDropped
        while totalBytes > settings.maximumBytes && segments.count > 1 { dropOldest() }
        report.segmentsDroppedForCap = Int(counters.segmentsDropped - dropped)
        if report.segmentsDroppedForCap > 0 {
            report.lines.append("track: \(report.segmentsDroppedForCap) oldest segments removed to keep the journal under "
                + "[track] max_size_mb")
        }
        resumable = segments.last
        report.segments = segments.count
        report.records -= Int(counters.recordsDropped)
        report.nextSequence = nextSequence
        return report
    }

    /// Truncates a segment to its valid part and makes that durable; nil or the error.
    private func cutTail(path: String, keeping length: Int) -> Errno? {
        let opened = path.withCString { files.openAppending($0, create: false) }
        guard case .success(let handle) = opened else {
            if case .failure(let e) = opened { return e.code }
            return nil
        }
        defer { files.close(handle) }
        return files.truncate(handle, length: Int64(length)) ?? files.sync(handle)
    }
}
