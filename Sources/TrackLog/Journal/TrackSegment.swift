import NMEA
import State

/// The 32-byte header at the start of every track segment file, and the segment's file name
/// (`YYYYMMDD-FIRSTSEQUENCE.trk`, docs/track-log.md §1): the UTC day its records belong to and the
/// sequence number of its first record. Pure: bytes in, values out.
public struct TrackSegmentHeader: Sendable, Equatable {
    public static let byteCount = 32
    public static let version: UInt16 = 1
    static let magic: (UInt8, UInt8, UInt8, UInt8) = (0x50, 0x4B, 0x54, 0x4C)   // "PKTL"

    /// Days since 1970-01-01 (UTC) of the segment's records.
    public var utcDay: Int32
    /// Sequence number of the segment's first record.
    public var firstSequence: UInt64

    public init(utcDay: Int32, firstSequence: UInt64) {
        self.utcDay = utcDay
        self.firstSequence = firstSequence
    }

    public func encode(into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count >= Self.byteCount)
        var w = RecordWriter(base: out.baseAddress!)
        w.u8(Self.magic.0); w.u8(Self.magic.1); w.u8(Self.magic.2); w.u8(Self.magic.3)
        w.u16(Self.version); w.u16(UInt16(Self.byteCount)); w.u16(UInt16(TrackRecord.byteCount)); w.u16(0)
        w.u32(UInt32(bitPattern: utcDay))
        w.u64(firstSequence)
        w.u32(0)
        w.u32(CRC32.checksum(UnsafeRawBufferPointer(start: out.baseAddress!, count: Self.byteCount - 4)))
    }

    /// Decodes a header; the error says what is wrong for the log line.
    public init(decoding bytes: UnsafeRawBufferPointer) throws(TrackSegmentHeaderError) {
        guard bytes.count >= Self.byteCount else { throw .truncated(bytes.count) }
        var r = RecordReader(bytes: bytes)
        guard r.u8() == Self.magic.0, r.u8() == Self.magic.1, r.u8() == Self.magic.2, r.u8() == Self.magic.3 else {
            throw .notASegment
        }
        let crc = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: Self.byteCount - 4, as: UInt32.self))
        guard CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<(Self.byteCount - 4)])) == crc else {
            throw .checksumMismatch
        }
        let version = r.u16(), headerBytes = r.u16(), recordBytes = r.u16()
        guard version == Self.version, headerBytes == Self.byteCount, recordBytes == TrackRecord.byteCount else {
            throw .unsupportedVersion(version)
        }
        _ = r.u16()
        utcDay = Int32(bitPattern: r.u32())
        firstSequence = r.u64()
    }
}

/// Why a segment's header cannot be used.
public enum TrackSegmentHeaderError: Error, Sendable, Equatable {
    case truncated(Int)
    case notASegment
    case checksumMismatch
    case unsupportedVersion(UInt16)

    public var reason: String {
        switch self {
        case .truncated(let n): return "it has \(n) bytes, fewer than its 32-byte header (cut short while being created)"
        case .notASegment: return "it does not start with the track segment's magic bytes PKTL"
        case .checksumMismatch: return "its header's checksum does not match (a damaged header)"
        case .unsupportedVersion(let v): return "it has format version \(v), this puckd reads version 1 (written by a newer puckd?)"
        }
    }
}

/// A segment's file name: `YYYYMMDD-NNNNNNNNNNNNNNNNNNNN.trk` (the UTC day, the first sequence number
/// in 20 digits), so names sort in journal order; the raw NMEA of the same records is `….nmea`.
public struct TrackSegmentName: Sendable, Equatable, Comparable {
    public var utcDay: Int32
    public var firstSequence: UInt64

    public init(utcDay: Int32, firstSequence: UInt64) {
        self.utcDay = utcDay
        self.firstSequence = firstSequence
    }

    /// Characters of a name without its extension.
    public static let stemLength = 29

    /// Parses `NAME.trk` (nil for any other file).
    public init?(fileName: String) {
        let bytes = Array(fileName.utf8)
        guard bytes.count == Self.stemLength + 4, bytes[8] == UInt8(ascii: "-"),
              bytes[Self.stemLength...] .elementsEqual(".trk".utf8) else { return nil }
        var year = 0, month = 0, day = 0, sequence: UInt64 = 0
        for (i, b) in bytes[0..<Self.stemLength].enumerated() where i != 8 {
            guard b >= 0x30 && b <= 0x39 else { return nil }
            let d = Int(b - 0x30)
            switch i {
            case 0..<4: year = year * 10 + d
            case 4..<6: month = month * 10 + d
            case 6..<8: day = day * 10 + d
            default:
                let (m, o1) = sequence.multipliedReportingOverflow(by: 10)
                let (s, o2) = m.addingReportingOverflow(UInt64(d))
                if o1 || o2 { return nil }
                sequence = s
            }
        }
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        utcDay = Int32(CivilDate.daysSinceEpoch(year: Int64(year), month: Int64(month), day: Int64(day)))
        firstSequence = sequence
    }

    /// Writes the stem (without extension) as ASCII into `out[0 ..< stemLength]` (allocation-free).
    public func writeStem(into out: UnsafeMutableBufferPointer<CChar>, at offset: Int) {
        let date = CivilDate.fromDaysSinceEpoch(Int64(utcDay))
        var i = offset
        Self.digits(UInt64(clamping: max(0, min(9999, date.year))), 4, into: out, at: &i)
        Self.digits(UInt64(date.month), 2, into: out, at: &i)
        Self.digits(UInt64(date.day), 2, into: out, at: &i)
        out[i] = CChar(UInt8(ascii: "-"))
        i += 1
        Self.digits(firstSequence, 20, into: out, at: &i)
    }

    /// `value` in `count` decimal digits (leading zeros) at `i`, which moves past them.
    private static func digits(_ value: UInt64, _ count: Int, into out: UnsafeMutableBufferPointer<CChar>, at i: inout Int) {
        var v = value, k = count - 1
        while k >= 0 {
            out[i + k] = CChar(0x30 + Int(v % 10))
            v /= 10
            k -= 1
        }
        i += count
    }

    /// The file name with `extension` (".trk" or ".nmea"), for messages and the reader.
    public func fileName(extension ext: String = ".trk") -> String {
        var stem = [CChar](repeating: 0, count: Self.stemLength)
        stem.withUnsafeMutableBufferPointer { writeStem(into: $0, at: 0) }
        return String(decoding: stem.map { UInt8(bitPattern: $0) }, as: UTF8.self) + ext
    }

    public static func < (a: Self, b: Self) -> Bool {
        a.firstSequence != b.firstSequence ? a.firstSequence < b.firstSequence : a.utcDay < b.utcDay
    }
}

/// What a segment file holds, found by checking every record slot's CRC: the recovery decision's input.
public struct TrackSegmentScan: Sendable, Equatable {
    /// The header, or why it is unusable.
    public var header: Result<TrackSegmentHeader, TrackSegmentHeaderError>
    /// Whole records whose CRC checks.
    public var validRecords = 0
    /// Record slots before the last valid record that fail their CRC (damage inside the file; readers skip them).
    public var damagedRecords = 0
    /// Bytes from the header up to the end of the last valid record: what is kept.
    public var keptBytes = TrackSegmentHeader.byteCount
    /// Bytes after that: a torn or corrupt tail, cut off at start-up.
    public var tailBytes = 0
    /// Sequence numbers of the first and last valid records.
    public var firstSequence: UInt64?
    public var lastSequence: UInt64?
    /// UTC of the last valid record that has one.
    public var lastUTCNanoseconds: Int64?

    /// Scans a segment's bytes (pure).
    public init(bytes: UnsafeRawBufferPointer) {
        do throws(TrackSegmentHeaderError) {
            header = .success(try TrackSegmentHeader(decoding: bytes))
        } catch {
            header = .failure(error)
            keptBytes = 0
            tailBytes = bytes.count
            return
        }
        var offset = TrackSegmentHeader.byteCount
        var invalidSinceLastValid = 0
        while offset + TrackRecord.byteCount <= bytes.count {
            if let record = TrackRecord(decoding: bytes, at: offset) {
                validRecords += 1
                damagedRecords += invalidSinceLastValid
                invalidSinceLastValid = 0
                if firstSequence == nil { firstSequence = record.sequence }
                lastSequence = record.sequence
                if let utc = record.utcNanoseconds { lastUTCNanoseconds = utc }
                keptBytes = offset + TrackRecord.byteCount
            } else {
                invalidSinceLastValid += 1
            }
            offset += TrackRecord.byteCount
        }
        tailBytes = bytes.count - keptBytes
    }

    /// The sequence number the next record after this segment gets.
    public var nextSequence: UInt64? {
        if let last = lastSequence { return last &+ 1 }
        if case .success(let h) = header { return h.firstSequence }
        return nil
    }
}
