import SystemCalls
import TrackLog

/// The uplink's view of the track journal on disk (docs/track-log.md §1–2): the record with a given
/// sequence number, read with one pread from its segment (records are fixed-size slots, sequence =
/// segment's first + index). The segment list is read at start-up and again only when a sequence is
/// past the known segments or a segment vanished (a rotation or the size cap: once per segment, never
/// per message; only that re-listing allocates). A read by sequence allocates nothing.
public final class JournalRecordSource: UplinkRecordSource {
    public let directory: String
    private var segments: [TrackSegmentName] = []
    private var openIndex: Int?
    private var openFD: FileDescriptor?
    private let path: UnsafeMutableBufferPointer<CChar>
    private let record: UnsafeMutableRawBufferPointer
    public private(set) var relistings: UInt64 = 0
    public private(set) var unreadable: UInt64 = 0

    public init(directory: String) {
        self.directory = directory
        path = .allocate(capacity: directory.utf8.count + 1 + TrackSegmentName.stemLength + 5)
        record = .allocate(byteCount: TrackRecord.byteCount, alignment: 8)
        var k = 0
        for b in directory.utf8 { path[k] = CChar(bitPattern: b); k += 1 }
        path[k] = 0x2F
        let ext: [UInt8] = Array(".trk".utf8) + [0]
        for (j, b) in ext.enumerated() { path[k + 1 + TrackSegmentName.stemLength + j] = CChar(bitPattern: b) }
        segments.reserveCapacity(4096)
        relist()
    }

    deinit {
        if let fd = openFD { try? fd.close() }
        path.deallocate()
        record.deallocate()
    }

    private func relist() {
        relistings += 1
        segments.removeAll(keepingCapacity: true)
        guard case .success(let names) = PosixTrackFiles().list(directory) else { return }
        for name in names where name.hasSuffix(".trk") {
            if let segment = TrackSegmentName(fileName: name), segments.count < 4096 { segments.append(segment) }
        }
        segments.sort()
        if let fd = openFD { try? fd.close() }
        openFD = nil
        openIndex = nil
    }

    /// The segment holding `sequence`: the last one whose first sequence is not after it.
    private func segmentIndex(_ sequence: UInt64) -> Int? {
        var low = 0, high = segments.count
        while low < high {
            let mid = (low + high) / 2
            if segments[mid].firstSequence <= sequence { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }

    public func record(sequence: UInt64) -> TrackRecord? {
        if let found = read(sequence) { return found }
        relist()
        return read(sequence)
    }

    private func read(_ sequence: UInt64) -> TrackRecord? {
        guard let index = segmentIndex(sequence) else { return nil }
        if openIndex != index {
            if let fd = openFD { try? fd.close() }
            openFD = nil
            segments[index].writeStem(into: path, at: directory.utf8.count + 1)
            do throws(Errno) {
                openFD = try FileDescriptor.open(UnsafePointer(path.baseAddress!), .readOnly, options: [.closeOnExec])
                openIndex = index
            } catch {
                openIndex = nil
                return nil
            }
        }
        guard let fd = openFD else { return nil }
        let offset = Int64(TrackSegmentHeader.byteCount) + Int64(sequence - segments[index].firstSequence) * Int64(TrackRecord.byteCount)
        let count: Int
        do throws(Errno) { count = try fd.read(fromAbsoluteOffset: offset, into: record) } catch { unreadable += 1; return nil }
        guard count == TrackRecord.byteCount, let decoded = TrackRecord(decoding: UnsafeRawBufferPointer(record), at: 0),
              decoded.sequence == sequence else { return nil }
        return decoded
    }
}
