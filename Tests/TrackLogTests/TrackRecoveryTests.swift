import Glibc
import Testing
@testable import TrackLog

/// Start-up recovery (docs/track-log.md §5) against every way a segment file can be cut or damaged:
/// cut at every byte offset (inside the header, inside a record, inside its CRC), a damaged byte in
/// every field class of the last record and of a record in the middle, a damaged header. Whatever
/// is before the damage is kept, the tail is cut off, counted and said once, and the journal goes on.
struct TrackRecoveryTests {
    static let directory = TrackLogWriterTests.directory
    static let path = directory + "/20200318-00000000000000000000.trk"
    static let count = 10

    /// A journal of one segment with `count` records, its bytes.
    static func segment() -> [UInt8] {
        let disk = SimulatedTrackFiles()
        let w = TrackLogWriterTests.writer(disk)
        w.open()
        for i in 0..<count { w.append(TrackLogWriterTests.record(i), nowNanoseconds: 0) }
        w.close(nowNanoseconds: 0)
        return disk.contents(path)!
    }

    static func recover(_ bytes: [UInt8]) -> (TrackLogRecovery, SimulatedTrackFiles) {
        let disk = SimulatedTrackFiles()
        _ = disk.makeDirectory(directory)
        disk.setContents(path, bytes)
        let w = TrackLogWriterTests.writer(disk)
        let report = w.open()
        // The journal goes on after whatever was kept.
        w.append(TrackLogWriterTests.record(99), nowNanoseconds: 0)
        w.close(nowNanoseconds: 0)
        return (report, disk)
    }

    @Test func aSegmentCutAtEveryOffsetKeepsEveryWholeRecordBeforeTheCut() {
        let bytes = Self.segment()
        #expect(bytes.count == 32 + Self.count * 88)
        for length in 0..<bytes.count {
            let (report, disk) = Self.recover(Array(bytes[0..<length]))
            if length < 32 {
                // Inside the header: nothing in it; moved aside, a new segment begins at sequence 0.
                #expect(report.segmentsMovedAside == 1, "cut at \(length)")
                #expect(disk.contents(Self.path + ".corrupt") == Array(bytes[0..<length]))
                #expect(TrackLogWriterTests.journal(disk).map(\.sequence) == [0])
                continue
            }
            let whole = (length - 32) / 88
            let torn = (length - 32) % 88   // inside a record's fields (< 84) or inside its CRC (84...87)
            #expect(report.records == whole, "cut at \(length)")
            #expect(report.tailsCut == (torn > 0 ? 1 : 0) && report.tailBytesCut == torn, "cut at \(length)")
            #expect(report.nextSequence == UInt64(whole))
            #expect(report.lines.count == (torn > 0 ? 1 : 0))
            let after = TrackLogWriterTests.journal(disk)
            #expect(after.map(\.sequence) == Array(0...UInt64(whole)), "cut at \(length): every record before the cut, then the next")
        }
    }

    @Test func aDamagedLastRecordIsCutAndADamagedMiddleRecordIsSkipped() {
        let bytes = Self.segment()
        let last = 32 + (Self.count - 1) * 88
        let middle = 32 + 4 * 88
        // One byte in each field class: marker, flags, mode, sequence, time, latitude, a float, reserved, CRC.
        for field in [0, 2, 4, 8, 16, 24, 44, 80, 84, 87] {
            var damaged = bytes
            damaged[last + field] ^= 0x5A
            let (report, disk) = Self.recover(damaged)
            #expect(report.records == Self.count - 1 && report.tailsCut == 1 && report.tailBytesCut == 88, "field \(field)")
            #expect(TrackLogWriterTests.journal(disk).map(\.sequence) == Array(0..<UInt64(Self.count)))

            var inside = bytes
            inside[middle + field] ^= 0x5A
            let (report2, disk2) = Self.recover(inside)
            #expect(report2.records == Self.count - 1 && report2.damagedRecords == 1 && report2.tailsCut == 0, "field \(field)")
            #expect(report2.lines.count == 1 && report2.lines[0].contains("1 damaged records inside"))
            let kept = TrackLogWriterTests.journal(disk2).map(\.sequence)
            #expect(kept == Array(0..<4) + Array(5...UInt64(Self.count)), "the records around the damaged one are kept")
        }
    }

    @Test func aDamagedHeaderMovesTheSegmentAsideAndOlderSegmentsAreKept() {
        let disk = SimulatedTrackFiles()
        let w = TrackLogWriterTests.writer(disk)
        w.open()
        for i in 0..<5 { w.append(TrackLogWriterTests.record(i), nowNanoseconds: 0) }
        w.append(TrackLogWriterTests.record(5, utc: TrackLogWriterTests.day0 + 86_400 * TrackLogWriterTests.second), nowNanoseconds: 0)
        w.close(nowNanoseconds: 0)
        let second = Self.directory + "/20200319-00000000000000000005.trk"
        var bytes = disk.contents(second)!
        bytes[12] ^= 1   // the day field of the header
        disk.setContents(second, bytes)
        let next = TrackLogWriterTests.writer(disk)
        let report = next.open()
        #expect(report.segmentsMovedAside == 1 && report.records == 5 && report.nextSequence == 6,
                "the moved segment's sequence numbers are not given again")
        #expect(report.lines[0].contains("moved aside") && report.lines[0].contains("header's checksum"))
        #expect(disk.contents(second + ".corrupt") == bytes)
    }
}
