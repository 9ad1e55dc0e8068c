import Glibc
import NMEA
import SystemCalls
import Testing
@testable import TrackLog

/// The writer on the simulated disk: when records reach the disk (the flush interval, a full buffer,
/// shutdown), what a power cut loses (only what was not yet flushed), rotation by UTC day and size,
/// the size cap, and a full or read-only disk as a fault said once while fixes keep coming.
struct TrackLogWriterTests {
    static let directory = "/var/lib/puckd/track"
    static let second: Int64 = 1_000_000_000
    static let day0: Int64 = 1_584_489_600 * second   // 2020-03-18T00:00:00Z

    static func record(_ i: Int, utc: Int64? = nil) -> TrackRecord {
        TrackRecord(sequence: 0, utcNanoseconds: utc ?? day0 + Int64(i) * second / 10, latitudeDegrees: 41.5 + Double(i) * 1e-6,
                    longitudeDegrees: -93.75, altitudeMSLMeters: 280, speedMetersPerSecond: 1, courseDegrees: 90,
                    horizontalAccuracyMeters: 3, satellitesUsed: 9, hdop: 0.9)
    }

    static func writer(_ disk: SimulatedTrackFiles, flushSeconds: Double = 5, megabytes: Double = 64,
                       bufferRecords: Int = 512) -> TrackLogWriter<SimulatedTrackFiles> {
        TrackLogWriter(settings: TrackLogSettings(directory: directory, flushIntervalSeconds: flushSeconds,
                                                  maximumMegabytes: megabytes, bufferRecords: bufferRecords), files: disk)
    }

    static func journal(_ disk: SimulatedTrackFiles) -> [TrackRecord] {
        guard case .success(let segments) = TrackJournalReader(directory: directory, files: disk).segments() else { return [] }
        return segments.flatMap(\.records)
    }

    @Test func recordsReachTheDiskAtTheFlushIntervalAndAtShutdown() {
        let disk = SimulatedTrackFiles()
        let w = Self.writer(disk)
        #expect(w.open().nextSequence == 0)
        let start: Int64 = 1_000 * Self.second
        for i in 0..<49 {
            let now = start + Int64(i) * Self.second / 10
            w.append(Self.record(i), nowNanoseconds: now)
            w.service(nowNanoseconds: now)
        }
        #expect(Self.journal(disk).isEmpty, "nothing is written before the interval")
        #expect(w.nextDeadlineNanoseconds == start + 5 * Self.second)
        w.service(nowNanoseconds: start + 5 * Self.second)
        #expect(Self.journal(disk).count == 49)
        #expect(disk.syncCount >= 2, "header and records fdatasync'ed")
        w.append(Self.record(49), nowNanoseconds: start + 5 * Self.second)
        #expect(w.close(nowNanoseconds: start + 5 * Self.second))
        let all = Self.journal(disk)
        #expect(all.map(\.sequence) == Array(0..<50))
        #expect(all[7].latitudeDegrees == Self.record(7).latitudeDegrees)
    }

    @Test func aPowerCutLosesOnlyWhatWasNotYetFlushedAndTheSequenceGoesOn() {
        let disk = SimulatedTrackFiles()
        let w = Self.writer(disk)
        w.open()
        var now: Int64 = 0
        for i in 0..<151 {   // 15 s at 10 Hz: flushed at 5 s and 10 s; at 15 s the power fails mid-flush
            now = Int64(i) * Self.second / 10
            if i == 101 { disk.syncError = .ioError }
            w.append(Self.record(i), nowNanoseconds: now)
            w.service(nowNanoseconds: now)
        }
        let flushed = 101   // records 0...100, the one at 10.0 s included
        #expect(w.counters.recordsWritten == 151, "written at 15 s, but not made durable")
        // The cut keeps three of the 50 unsynced records and half of the fourth: a torn tail.
        disk.powerCut { _, _ in 3 * 88 + 44 }
        let next = Self.writer(disk)
        let recovery = next.open()
        #expect(recovery.records == flushed + 3)
        #expect(recovery.tailsCut == 1 && recovery.tailBytesCut == 44)
        #expect(recovery.nextSequence == UInt64(flushed + 3))
        #expect(recovery.lines.count == 1 && recovery.lines[0].contains("torn or corrupt tail of 44 bytes"))
        next.append(Self.record(500), nowNanoseconds: 0)
        next.close(nowNanoseconds: 0)
        #expect(Self.journal(disk).map(\.sequence) == Array(0...UInt64(flushed + 3)))
    }

    @Test func segmentsRotateByUTCDayAndBySizeAndTheCapDropsTheOldest() {
        let disk = SimulatedTrackFiles()
        // 1 MiB cap → 128 KiB segments (the minimum of 64 KiB … a cap / 8).
        let w = Self.writer(disk, flushSeconds: 1, megabytes: 1)
        w.open()
        #expect(w.settings.segmentBytes == 131_072)
        let perSegment = (131_072 - 32) / 88
        var now: Int64 = 0
        // Crossing midnight: the last record of 2020-03-18 and the first of 2020-03-19 part.
        w.append(Self.record(0, utc: Self.day0 + 86_399 * Self.second), nowNanoseconds: now)
        w.append(Self.record(1, utc: Self.day0 + 86_400 * Self.second), nowNanoseconds: now)
        w.service(nowNanoseconds: 2 * Self.second)
        guard case .success(let names) = disk.list(Self.directory) else { Issue.record("no directory"); return }
        #expect(names.sorted() == ["20200318-00000000000000000000.trk", "20200319-00000000000000000001.trk"])
        // Then records until the cap has dropped segments.
        for i in 2..<(perSegment * 12) {
            now += Self.second / 10
            w.append(Self.record(i, utc: Self.day0 + 86_400 * Self.second + Int64(i) * Self.second / 10), nowNanoseconds: now)
            w.service(nowNanoseconds: now)
        }
        w.close(nowNanoseconds: now)
        guard case .success(let segments) = TrackJournalReader(directory: Self.directory, files: disk).segments() else { return }
        let bytes = segments.reduce(0) { $0 + $1.bytes }
        #expect(bytes <= 1_048_576, "under the cap: \(bytes)")
        #expect(segments.allSatisfy { $0.bytes <= 131_072 })
        #expect(w.counters.segmentsDropped >= 3)
        let kept = segments.flatMap(\.records)
        #expect(UInt64(kept.count) + w.counters.recordsDropped == UInt64(perSegment * 12))
        #expect(kept.last?.sequence == UInt64(perSegment * 12 - 1))
        #expect(zip(kept, kept.dropFirst()).allSatisfy { $1.sequence == $0.sequence + 1 }, "no gap inside what is kept")
    }

    @Test func aFullDiskIsAFaultSaidOnceAndTheRecordsWaitUntilThereIsRoom() {
        let disk = SimulatedTrackFiles()
        let w = Self.writer(disk, flushSeconds: 1, bufferRecords: 64)
        w.open()
        w.append(Self.record(0), nowNanoseconds: 0)
        w.service(nowNanoseconds: Self.second)
        #expect(w.fault == nil)
        disk.capacityBytes = 32 + 88 * 3 + 40   // room for 3 more records and a part of the next
        var now = Self.second
        for i in 1..<40 {
            now += Self.second / 10
            w.append(Self.record(i), nowNanoseconds: now)
            w.service(nowNanoseconds: now)
        }
        #expect(w.fault == TrackLogFault(step: .write, error: .noSpace))
        #expect(w.fault?.message(directory: Self.directory).contains("the disk is full (ENOSPC)") == true)
        let changes = w.faultChanges
        #expect(changes == 1, "said once, however many flushes fail")
        // The partial record was cut off: the file is whole records.
        #expect(disk.contents(Self.directory + "/20200318-00000000000000000000.trk")?.count == 32 + 88)
        // 64 buffered, the rest lost (counted, no sequence number taken).
        for i in 40..<100 {
            now += Self.second / 10
            w.append(Self.record(i), nowNanoseconds: now)
            w.service(nowNanoseconds: now)
        }
        #expect(w.counters.recordsLost == 100 - 1 - 64)
        disk.capacityBytes = .max
        now += 2 * Self.second
        w.service(nowNanoseconds: now)
        #expect(w.fault == nil && w.faultChanges == changes + 1)
        let kept = Self.journal(disk)
        #expect(kept.map(\.sequence) == Array(0..<65))
    }

    @Test func aReadOnlyDiskIsAFaultAndTrackingGoesOn() {
        let disk = SimulatedTrackFiles()
        disk.readOnly = true
        let w = Self.writer(disk, bufferRecords: 16)
        w.open()
        #expect(w.fault == TrackLogFault(step: .createDirectory, error: .readOnlyFileSystem))
        #expect(w.fault!.message(directory: Self.directory).contains("read-only (EROFS)"))
        for i in 0..<100 { w.append(Self.record(i), nowNanoseconds: Int64(i) * Self.second) ; w.service(nowNanoseconds: Int64(i) * Self.second) }
        #expect(w.counters.recordsAppended == 16 && w.counters.recordsLost == 84)
        #expect(w.faultChanges == 1)
        #expect(!w.close(nowNanoseconds: 100 * Self.second))
    }

    @Test func aJournalNotWritableAtStartUpGoesOnFromItsLastRecordOnceItIs() {
        let disk = SimulatedTrackFiles()
        let first = Self.writer(disk)
        first.open()
        for i in 0..<10 { first.append(Self.record(i), nowNanoseconds: 0) }
        #expect(first.close(nowNanoseconds: 0))
        // The next start finds the directory there but not writable (EACCES): a fault, and its records still count.
        disk.makeDirectoryError = .permissionDenied
        disk.failingError = .permissionDenied
        let w = Self.writer(disk, flushSeconds: 1)
        let recovery = w.open()
        #expect(w.fault == TrackLogFault(step: .createDirectory, error: .permissionDenied))
        #expect(recovery.records == 10 && w.nextSequence == 10)
        for i in 10..<15 { w.append(Self.record(i), nowNanoseconds: Int64(i - 10) * Self.second); w.service(nowNanoseconds: Int64(i - 10) * Self.second) }
        #expect(w.fault != nil)
        // Made writable: the waiting records go out after the old ones, with no gap and no sequence given twice.
        disk.makeDirectoryError = nil
        disk.failingError = nil
        w.append(Self.record(15), nowNanoseconds: 10 * Self.second)
        w.service(nowNanoseconds: 10 * Self.second)
        #expect(w.fault == nil)
        #expect(Self.journal(disk).map(\.sequence) == Array(0..<16))
    }

    @Test func rawNMEAGoesBesideItsSegment() {
        let disk = SimulatedTrackFiles()
        let w = TrackLogWriter(settings: TrackLogSettings(directory: Self.directory, rawNMEA: true), files: disk)
        w.open()
        let line = Array("$GNRMC,132819.60,A,4134.49795459,N,09345.03431408,W,0.148,124.888,180320,11.5985,E,D*3F\r\n".utf8)
        line.withUnsafeBytes { w.appendRaw($0, nowNanoseconds: 0) }
        w.append(Self.record(0), nowNanoseconds: 0)
        w.close(nowNanoseconds: 0)
        #expect(disk.contents(Self.directory + "/20200318-00000000000000000000.nmea") == line)
        #expect(w.counters.rawBytesWritten == UInt64(line.count))
    }
}
