import NMEA
import Testing
import TestSupport
@testable import TrackLog

/// After start-up the writer allocates nothing per fix (docs/track-log.md §4): appending fixes and raw
/// NMEA, the flushes (write + fsync), segment rotation by size and by UTC day and the cap's removal of
/// the oldest segments, on real files. Counted with TestSupport's thread-local malloc counter, in debug
/// and release builds.
@Suite(.serialized) struct TrackAllocationTests {
    @Test func appendingFlushingRotatingAndDroppingAllocateNothing() {
        let scratch = Fixtures.temporaryDirectory(prefix: "puckd-track-alloc")
        defer { _ = runProcess(["rm", "-rf", scratch]) }
        let settings = TrackLogSettings(directory: scratch + "/track", flushIntervalSeconds: 5, maximumMegabytes: 1,
                                        rawNMEA: true)
        let writer = TrackLogWriter(settings: settings, files: PosixTrackFiles())
        writer.open()
        var fix = Fix(timeOfDayNanoseconds: 0)
        fix.mode = .threeD
        fix.quality = .dgps
        fix.latitudeDegrees = 41.5749915
        fix.longitudeDegrees = -93.7505814
        fix.altitudeMSLMeters = 280.2
        fix.speedMetersPerSecond = 0.26
        fix.courseDegrees = 322.6
        fix.horizontalAccuracyMeters = 4.3
        fix.satellitesUsed = 10
        fix.hdop = 0.9
        let line = Array("$GNGGA,132819.60,4134.49795459,N,09345.03431408,W,2,10,0.9,278.161,M,-31.442,M,6.6,0133*6A\r\n".utf8)
        let heading = TrackHeading(degrees: 259.4, accuracyDegrees: 30.2, source: .imu)
        let day: Int64 = 1_584_489_600_000_000_000
        var now: Int64 = 0
        var i: Int64 = 0
        /// 10 Hz fixes, crossing a UTC midnight every 4 000 fixes.
        func run(_ count: Int) {
            line.withUnsafeBytes { raw in
                var k = 0
                while k < count {
                    now += 100_000_000
                    i += 1
                    fix.utcNanoseconds = day + (i / 4000) * 86_400_000_000_000 + (i % 4000) * 100_000_000
                    writer.appendRaw(raw, nowNanoseconds: now)
                    writer.append(fix, heading: heading, nowNanoseconds: now)
                    writer.service(nowNanoseconds: now)
                    k += 1
                }
            }
        }
        run(5000)   // warm-up: flushes, a rotation by day and by size, a drop for the cap
        let before = writer.counters
        let allocations = allocationCount { run(20_000) }
        let after = writer.counters
        #expect(allocations == 0, "\(allocations) allocations for 20 000 fixes")
        // What the counted code did: every fix recorded and flushed, segments begun and dropped.
        #expect(after.recordsAppended - before.recordsAppended == 20_000)
        #expect(after.recordsLost == 0 && writer.fault == nil)
        #expect(after.segmentsCreated - before.segmentsCreated >= 10, "rotations: \(after.segmentsCreated - before.segmentsCreated)")
        #expect(after.segmentsDropped - before.segmentsDropped >= 5, "drops: \(after.segmentsDropped - before.segmentsDropped)")
        #expect(after.flushes - before.flushes >= 300)
        writer.close(nowNanoseconds: now)
        let records = TrackJournalReader(directory: settings.directory, files: PosixTrackFiles()).records(fromSequence: 0)
        #expect(records.last?.sequence == 24_999)
        #expect(records.last?.heading == TrackHeading(degrees: Double(Float(259.4)), accuracyDegrees: Double(Float(30.2)), source: .imu))
    }
}
