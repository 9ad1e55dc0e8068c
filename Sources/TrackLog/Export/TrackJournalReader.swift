/// One segment as read back: its name, its valid records in order, and what was wrong with it.
public struct TrackSegmentContents: Sendable, Equatable {
    public var name: TrackSegmentName
    public var records: [TrackRecord]
    /// Record slots that failed their CRC (inside or at the end), and bytes after the last whole slot.
    public var damagedRecords: Int
    public var tailBytes: Int
    /// Bytes of the segment file and of its raw NMEA file (0 when none was recorded).
    public var bytes: Int
    public var rawBytes: Int
}

/// Reads the journal back for `puckd track` and the uplinks: every `.trk` segment in sequence order,
/// every record that passes its CRC (a damaged one is skipped and counted, never guessed). Read-only:
/// a torn tail is left for the writer's next start to cut. Allocates (not on the device's loop).
public struct TrackJournalReader<Files: TrackFileSystem> {
    public let directory: String
    public let files: Files

    public init(directory: String, files: Files) {
        self.directory = directory
        self.files = files
    }

    /// The segments in journal order, or the errno of the directory. With `fromSequence`, the segments
    /// before the one holding that sequence number are skipped by their names alone (not read): an
    /// uplink's cursor resumes there.
    public func segments(fromSequence: UInt64 = 0) -> Result<[TrackSegmentContents], TrackIOError> {
        let entries: [String]
        switch files.list(directory) {
        case .success(let e): entries = e
        case .failure(let e): return .failure(e)
        }
        var names = entries.compactMap({ TrackSegmentName(fileName: $0) }).sorted()
        if let holder = names.lastIndex(where: { $0.firstSequence <= fromSequence }) { names.removeFirst(holder) }
        var out: [TrackSegmentContents] = []
        for name in names {
            guard case .success(let bytes) = files.read(directory + "/" + name.fileName()) else { continue }
            var records: [TrackRecord] = []
            var damaged = 0
            let scan: TrackSegmentScan = bytes.withUnsafeBytes { raw in
                var offset = TrackSegmentHeader.byteCount
                while offset + TrackRecord.byteCount <= raw.count {
                    if let r = TrackRecord(decoding: raw, at: offset) { records.append(r) } else { damaged += 1 }
                    offset += TrackRecord.byteCount
                }
                return TrackSegmentScan(bytes: raw)
            }
            guard case .success = scan.header else { continue }
            var rawBytes = 0
            if case .success(let raw) = files.read(rawPath(name)) { rawBytes = raw.count }
            out.append(TrackSegmentContents(name: name, records: records, damagedRecords: damaged,
                                            tailBytes: (bytes.count - TrackSegmentHeader.byteCount) % TrackRecord.byteCount,
                                            bytes: bytes.count, rawBytes: rawBytes))
        }
        return .success(out)
    }

    /// The segment names in journal order (nothing is read).
    public func segmentNames() -> [TrackSegmentName] {
        guard case .success(let entries) = files.list(directory) else { return [] }
        return entries.compactMap { TrackSegmentName(fileName: $0) }.sorted()
    }

    /// The path of a segment's raw NMEA file.
    public func rawPath(_ name: TrackSegmentName) -> String { directory + "/" + name.fileName(extension: ".nmea") }

    /// The records from `sequence` on, oldest first (an uplink's cursor resumes here): the segments
    /// before the one holding it are skipped by their names alone.
    public func records(fromSequence sequence: UInt64) -> [TrackRecord] {
        guard case .success(let from) = segments(fromSequence: sequence) else { return [] }
        return from.flatMap { $0.records.filter { $0.sequence >= sequence } }
    }
}

/// Which records an export takes: a UTC range (inclusive start, exclusive end; a record without a
/// time is taken only when no range is given).
public struct TrackTimeRange: Sendable, Equatable {
    public var fromNanoseconds: Int64?
    public var toNanoseconds: Int64?

    public init(fromNanoseconds: Int64? = nil, toNanoseconds: Int64? = nil) {
        self.fromNanoseconds = fromNanoseconds
        self.toNanoseconds = toNanoseconds
    }

    public func contains(_ record: TrackRecord) -> Bool {
        if fromNanoseconds == nil && toNanoseconds == nil { return true }
        guard let t = record.utcNanoseconds else { return false }
        if let from = fromNanoseconds, t < from { return false }
        if let to = toNanoseconds, t >= to { return false }
        return true
    }

    /// The segments cut to the range (segments left empty are dropped).
    public func apply(_ segments: [TrackSegmentContents]) -> [TrackSegmentContents] {
        segments.compactMap { s in
            var s = s
            s.records = s.records.filter(contains)
            return s.records.isEmpty ? nil : s
        }
    }
}
