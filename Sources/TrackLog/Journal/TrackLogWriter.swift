import NMEA
import SystemCalls

/// The track journal's writer: fixes are encoded into a preallocated buffer as they arrive (`append`,
/// memory only, never a syscall unless the buffer is full), and written to the current segment and
/// fsync'ed when `service` finds the flush interval passed, when the buffer fills and at `close`
/// (docs/track-log.md §4). Segments rotate by size and UTC day; the oldest are dropped beyond the cap.
/// A failing disk becomes `fault` (said once by the caller when `faultChanges` moves); a call blocks
/// at most for one flush (a write and an fsync per segment it touches), and nothing is allocated per fix.
public final class TrackLogWriter<Files: TrackFileSystem> {
    public let settings: TrackLogSettings
    public let files: Files
    public internal(set) var counters = TrackLogCounters()
    /// The current disk fault, nil while writes succeed.
    public private(set) var fault: TrackLogFault?
    /// Increments when the fault is set, cleared or its errno changes: the caller logs once per change.
    public private(set) var faultChanges: UInt64 = 0
    /// Sequence number the next record gets.
    public internal(set) var nextSequence: UInt64 = 0
    /// When `service` flushes next (monotonic ns; Int64.max while the buffer is empty).
    public var nextDeadlineNanoseconds: Int64 { pendingCount > 0 || rawPending > 0 ? nextFlushNanoseconds : .max }

    /// Segments in the journal now, and the bytes they hold (records, headers and raw NMEA).
    public var segmentCount: Int { segments.count }
    public var journalBytes: Int64 { totalBytes }
    /// The oldest segment's name (its UTC day and first sequence), nil while the journal is empty.
    public var oldestSegment: TrackSegmentName? { segments.first?.name }
    /// Records buffered, not yet written.
    public var pendingRecords: Int { pendingCount }

    let buffer: UnsafeMutableRawBufferPointer
    let rawBuffer: UnsafeMutableRawBufferPointer
    var pendingCount = 0
    var rawPending = 0
    var nextFlushNanoseconds: Int64 = .min
    /// `directory/` + a segment stem + an extension + NUL.
    let pathBuffer: UnsafeMutableBufferPointer<CChar>
    let directoryLength: Int
    var segments: TrackSegmentTable
    var totalBytes: Int64 = 0
    var current: TrackFileHandle?
    var currentRaw: TrackFileHandle?
    /// The newest segment found at start-up, continued when the first records fit it.
    var resumable: TrackSegmentEntry?

    /// Prepares buffers and paths; touches no file (`open` does).
    public init(settings: TrackLogSettings, files: Files) {
        self.settings = settings
        self.files = files
        buffer = .allocate(byteCount: settings.bufferRecords * TrackRecord.byteCount, alignment: 8)
        rawBuffer = .allocate(byteCount: settings.rawNMEA ? settings.rawBufferBytes : 0, alignment: 8)
        let directory = Array(settings.directory.utf8)
        directoryLength = directory.count + 1
        pathBuffer = .allocate(capacity: directoryLength + TrackSegmentName.stemLength + 6)
        pathBuffer.initialize(repeating: 0)
        for (i, b) in directory.enumerated() { pathBuffer[i] = CChar(bitPattern: b) }
        pathBuffer[directory.count] = CChar(UInt8(ascii: "/"))
        segments = TrackSegmentTable(capacity: Int(settings.maximumBytes / max(1, settings.segmentBytes)) * 2 + 64)
    }

    deinit {
        if let current { files.close(current) }
        if let currentRaw { files.close(currentRaw) }
        buffer.deallocate()
        rawBuffer.deallocate()
        segments.deallocate()
        pathBuffer.deallocate()
    }

    /// Records a fix (nothing for an epoch without a position). Memory only, unless the buffer is full:
    /// then it flushes first. Allocation-free.
    public func append(_ fix: borrowing Fix, heading: TrackHeading, nowNanoseconds: Int64) {
        guard let record = TrackRecord(sequence: nextSequence, fix: fix, heading: heading) else {
            counters.epochsWithoutPosition += 1
            return
        }
        append(record, nowNanoseconds: nowNanoseconds)
    }

    /// Records a record (its sequence number is replaced by the journal's next one).
    public func append(_ record: TrackRecord, nowNanoseconds: Int64) {
        if pendingCount == settings.bufferRecords {
            // Full: flush at once, unless the disk is failing and the retry is not due.
            if fault == nil || nowNanoseconds >= nextFlushNanoseconds { flush(nowNanoseconds: nowNanoseconds) }
            if pendingCount == settings.bufferRecords {
                counters.recordsLost += 1
                return
            }
        }
        var r = record
        r.sequence = nextSequence
        r.encode(into: buffer, at: pendingCount * TrackRecord.byteCount)
        if pendingCount == 0 && rawPending == 0 && nextFlushNanoseconds < nowNanoseconds {
            nextFlushNanoseconds = nowNanoseconds &+ settings.flushIntervalNanoseconds
        }
        pendingCount += 1
        nextSequence &+= 1
        counters.recordsAppended += 1
    }

    /// Keeps raw NMEA bytes as received (when `rawNMEA`). Allocation-free.
    public func appendRaw(_ bytes: UnsafeRawBufferPointer, nowNanoseconds: Int64) {
        guard settings.rawNMEA, bytes.count > 0 else { return }
        if rawPending + bytes.count > rawBuffer.count && !(current == nil && segments.isEmpty)
            && (fault == nil || nowNanoseconds >= nextFlushNanoseconds) {
            flush(nowNanoseconds: nowNanoseconds)
        }
        let n = min(bytes.count, rawBuffer.count - rawPending)
        if n > 0 {
            (rawBuffer.baseAddress! + rawPending).copyMemory(from: bytes.baseAddress!, byteCount: n)
            rawPending += n
        }
        counters.rawBytesLost += UInt64(bytes.count - n)
        if pendingCount == 0 && rawPending == n && nextFlushNanoseconds < nowNanoseconds {
            nextFlushNanoseconds = nowNanoseconds &+ settings.flushIntervalNanoseconds
        }
    }

    /// Flushes when the interval has passed (the loop calls it at `nextDeadlineNanoseconds`).
    public func service(nowNanoseconds: Int64) {
        if (pendingCount > 0 || rawPending > 0) && nowNanoseconds >= nextFlushNanoseconds {
            flush(nowNanoseconds: nowNanoseconds)
        }
    }

    /// Flushes what is buffered and closes the segment (shutdown). Returns true when everything is on disk.
    @discardableResult
    public func close(nowNanoseconds: Int64) -> Bool {
        if pendingCount > 0 || rawPending > 0 { flush(nowNanoseconds: nowNanoseconds, closing: true) }
        if let current { files.close(current) }
        if let currentRaw { files.close(currentRaw) }
        if let c = segments.last, current != nil { resumable = c }
        current = nil
        currentRaw = nil
        return pendingCount == 0 && rawPending == 0
    }

    /// The UTC day of the buffered record at `index`, when it has a time.
    private func day(ofPending index: Int) -> Int32? {
        let base = index * TrackRecord.byteCount
        let flags = UInt16(littleEndian: buffer.loadUnaligned(fromByteOffset: base + 2, as: UInt16.self))
        guard flags & TrackRecord.hasUTC != 0 else { return nil }
        return TrackTimeText.utcDay(nanoseconds: Int64(littleEndian: buffer.loadUnaligned(fromByteOffset: base + 16, as: Int64.self)))
    }

    private func sequence(ofPending index: Int) -> UInt64 {
        UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: index * TrackRecord.byteCount + 8, as: UInt64.self))
    }

    /// Writes the buffer into the segments it belongs to (rotating by day and size), then fsyncs.
    /// On a failure the unwritten records stay buffered, the fault is set and the retry waits one interval.
    func flush(nowNanoseconds: Int64, closing: Bool = false) {
        nextFlushNanoseconds = nowNanoseconds &+ settings.flushIntervalNanoseconds
        counters.flushes += 1
        var failure: TrackLogFault?
        var done = 0
        while done < pendingCount {
            let day = self.day(ofPending: done) ?? segments.last?.name.utcDay ?? 0
            let currentName = current == nil ? nil : segments.last
            if currentName == nil || currentName!.name.utcDay != day
                || currentName!.trackBytes + Int64(TrackRecord.byteCount) > settings.segmentBytes {
                // A stalled flusher: the records wait in the buffer (bounded; beyond it `recordsLost`)
                // rather than the loop waiting for room to hand the rotation over. Shutdown may wait.
                if !closing && !files.canRotateWithoutWaiting {
                    counters.rotationsDeferred += 1
                    break
                }
                if let f = beginSegment(day: day, firstSequence: sequence(ofPending: done)) { failure = f; break }
            }
            var end = done + 1
            var bytes = segments.newest.pointee.trackBytes + Int64(TrackRecord.byteCount)
            while end < pendingCount && bytes + Int64(TrackRecord.byteCount) <= settings.segmentBytes
                && (self.day(ofPending: end) ?? day) == day {
                end += 1
                bytes += Int64(TrackRecord.byteCount)
            }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[(done * TrackRecord.byteCount)..<(end * TrackRecord.byteCount)])
            let (written, error) = files.write(current!, chunk)
            if let error {
                // Cut a partial record off, so the file stays a whole number of records.
                if written > 0 { _ = files.truncate(current!, length: segments.newest.pointee.trackBytes) }
                failure = TrackLogFault(step: .write, error: error)
                break
            }
            segments.newest.pointee.trackBytes += Int64(written)
            totalBytes += Int64(written)
            done = end
        }
        if failure == nil, let current {
            if let error = files.sync(current) { failure = TrackLogFault(step: .sync, error: error) }
        }
        if done > 0 {
            let rest = pendingCount - done
            if rest > 0 {
                buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + done * TrackRecord.byteCount,
                                               byteCount: rest * TrackRecord.byteCount)
            }
            pendingCount = rest
            counters.recordsWritten += UInt64(done)
        }
        if failure == nil && rawPending > 0 { failure = flushRaw(closing: closing) }
        if failure != nil { counters.failedFlushes += 1 }
        setFault(failure)
    }

    private func flushRaw(closing: Bool) -> TrackLogFault? {
        if current == nil {
            // Raw bytes before the first record of this run go with the newest segment; in an empty
            // journal they wait (up to the raw buffer) for the first record, which names the segment,
            // and at shutdown without one they go into a segment of day 0 (19700101).
            guard let newest = segments.last ?? (closing ? TrackSegmentEntry(name: TrackSegmentName(utcDay: 0, firstSequence: 0),
                                                                              trackBytes: 0, rawBytes: 0) : nil) else { return nil }
            if let f = beginSegment(day: newest.name.utcDay, firstSequence: nextSequence) { return f }
        }
        guard let raw = currentRaw else { return nil }
        let (written, error) = files.write(raw, UnsafeRawBufferPointer(rebasing: rawBuffer[0..<rawPending]))
        segments.newest.pointee.rawBytes += Int64(written)
        totalBytes += Int64(written)
        counters.rawBytesWritten += UInt64(written)
        if written > 0 && written < rawPending {
            rawBuffer.baseAddress!.copyMemory(from: rawBuffer.baseAddress! + written, byteCount: rawPending - written)
        }
        rawPending -= written
        if let error { return TrackLogFault(step: .write, error: error) }
        return files.sync(raw).map { TrackLogFault(step: .sync, error: $0) }
    }

    /// Sets the fault; a change of error (or set / cleared) counts as a change to say, another step
    /// failing with the same error does not.
    func setFault(_ new: TrackLogFault?) {
        if new?.error != fault?.error { faultChanges &+= 1 }
        fault = new
    }

    /// Writes `directory/STEM.EXT\0` into the path buffer.
    func path(_ name: TrackSegmentName, raw: Bool) -> UnsafePointer<CChar> {
        name.writeStem(into: pathBuffer, at: directoryLength)
        var i = directoryLength + TrackSegmentName.stemLength
        let ext: (UInt8, UInt8, UInt8, UInt8, UInt8) = raw ? (0x2E, 0x6E, 0x6D, 0x65, 0x61) : (0x2E, 0x74, 0x72, 0x6B, 0x00)
        pathBuffer[i] = CChar(bitPattern: ext.0); pathBuffer[i + 1] = CChar(bitPattern: ext.1)
        pathBuffer[i + 2] = CChar(bitPattern: ext.2); pathBuffer[i + 3] = CChar(bitPattern: ext.3)
        pathBuffer[i + 4] = CChar(bitPattern: ext.4)
        i += 5
        pathBuffer[i] = 0
        return UnsafePointer(pathBuffer.baseAddress!)
    }

    /// The directory as a C string (the path buffer cut after the slash).
    private func directoryPath() -> UnsafePointer<CChar> {
        pathBuffer[directoryLength] = 0
        return UnsafePointer(pathBuffer.baseAddress!)
    }

    /// Closes the current segment and begins the next (or continues the one found at start-up when
    /// the day matches and it has room); then drops the oldest segments beyond the cap. nil or the fault.
    private func beginSegment(day: Int32, firstSequence: UInt64) -> TrackLogFault? {
        if let current {
            _ = files.sync(current)
            files.close(current)
            self.current = nil
        }
        if let currentRaw {
            files.close(currentRaw)
            self.currentRaw = nil
        }
        if let resume = resumable, resume.name.utcDay == day,
           resume.trackBytes + Int64(TrackRecord.byteCount) <= settings.segmentBytes,
           segments.last?.name == resume.name {
            resumable = nil
            switch files.openAppending(path(resume.name, raw: false), create: false) {
            case .success(let handle): current = handle
            case .failure(let e): return TrackLogFault(step: .createSegment, error: e.code)
            }
            if settings.rawNMEA, case .success(let handle) = files.openAppending(path(resume.name, raw: true), create: true) {
                currentRaw = handle
            }
            return nil
        }
        resumable = nil
        // Room for the new segment at its full size: the journal never grows past the cap.
        while !segments.isEmpty && totalBytes + settings.segmentBytes > settings.maximumBytes { dropOldest() }
        let name = TrackSegmentName(utcDay: day, firstSequence: firstSequence)
        let handle: TrackFileHandle
        switch files.openAppending(path(name, raw: false), create: true) {
        case .success(let h): handle = h
        case .failure(let e): return TrackLogFault(step: .createSegment, error: e.code)
        }
        // The header, written and made durable with the directory entry before any record.
        var headerBytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let failed: Errno? = withUnsafeMutableBytes(of: &headerBytes) { raw in
            TrackSegmentHeader(utcDay: day, firstSequence: firstSequence).encode(into: raw)
            let (_, e) = files.write(handle, UnsafeRawBufferPointer(raw))
            return e ?? files.sync(handle)
        }
        if let error = failed {
            _ = files.remove(path(name, raw: false))
            files.close(handle)
            return TrackLogFault(step: .createSegment, error: error)
        }
        _ = files.syncDirectory(directoryPath())
        current = handle
        if settings.rawNMEA, case .success(let h) = files.openAppending(path(name, raw: true), create: true) {
            currentRaw = h
        }
        if segments.isFull { dropOldest() }
        segments.append(TrackSegmentEntry(name: name, trackBytes: Int64(TrackSegmentHeader.byteCount), rawBytes: 0))
        totalBytes += Int64(TrackSegmentHeader.byteCount)
        counters.segmentsCreated += 1
        return nil
    }

    /// Removes the oldest segment (and its raw NMEA), counting it and its records.
    func dropOldest() {
        let oldest = segments.removeOldest()
        _ = files.removeDropped(path(oldest.name, raw: false))
        _ = files.removeDropped(path(oldest.name, raw: true))
        _ = files.syncDirectory(directoryPath())
        totalBytes -= oldest.trackBytes + oldest.rawBytes
        counters.segmentsDropped += 1
        counters.recordsDropped += UInt64(max(0, oldest.trackBytes - Int64(TrackSegmentHeader.byteCount)) / Int64(TrackRecord.byteCount))
    }
}
