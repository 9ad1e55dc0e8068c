import Testing
import TestSupport
import TrackLog
@testable import Uplink

/// Store and forward (docs/uplink.md §5): the cursor moves only on acknowledgements, the live record goes
/// first, the backlog oldest first at its rate, a reconnect sends the unacknowledged again, no gap ever.
@Suite struct UplinkForwarderTests {
    static let ms: Int64 = 1_000_000

    @Test func withNoBacklogRecordsLeaveInOrderAndTheCursorFollowsTheAcknowledgements() {
        var f = UplinkForwarder(cursor: 0, window: 4)
        for s in UInt64(1)...5 {
            f.appended(newest: s)
            let c = f.next(nowNanoseconds: Int64(s) * 100 * Self.ms)!
            #expect(c.sequence == s)
            f.sent(c, nowNanoseconds: 0)
            #expect(f.next(nowNanoseconds: 0) == nil && f.cursor == s - 1, "the cursor waits for the acknowledgement")
            #expect(f.acknowledged(s) && f.cursor == s)
        }
    }

    @Test func theLiveRecordGoesFirstAndTheBacklogDrainsOldestFirstAtItsRate() {
        var f = UplinkForwarder(cursor: 10, window: 8, backlogMessagesPerSecond: 10)
        f.appended(newest: 30)   // 20 records waited while the link was down
        var order: [UInt64] = []
        var now: Int64 = 0
        while f.cursor < 30 && now < 10_000 * Self.ms {
            while let c = f.next(nowNanoseconds: now) { f.sent(c, nowNanoseconds: now); order.append(c.sequence) }
            if let deadline = f.deadlineNanoseconds(nowNanoseconds: now) { #expect(deadline > now) }
            // The broker acknowledges everything at once, 50 ms later.
            now += 50 * Self.ms
            for s in order where s > f.cursor { f.acknowledged(s) }
            if now == 500 * Self.ms { f.appended(newest: 31) }
        }
        #expect(order.first == 30, "the newest record goes first")
        #expect(Array(order[1...8]) == Array(11...18), "then the backlog, oldest first, a window's worth at once")
        #expect(order.contains(31) && order.firstIndex(of: 31)! < order.firstIndex(of: 29)!, "a new live record overtakes the backlog")
        #expect(Set(order) == Set(11...31) && order.count == 21 && f.cursor == 31)
        // 20 backlog messages at 10/s after an initial burst of 8: about 1.2 s.
        #expect(now >= 1_000 * Self.ms && now <= 1_500 * Self.ms, "\(now / Self.ms) ms")
    }

    @Test func aLostConnectionSendsTheUnacknowledgedAgain() {
        var f = UplinkForwarder(cursor: 0, window: 4)
        f.appended(newest: 6)
        var sent: [UInt64] = []
        while let c = f.next(nowNanoseconds: 0) { f.sent(c, nowNanoseconds: 0); sent.append(c.sequence) }
        #expect(sent == [6, 1, 2, 3])
        f.acknowledged(6)
        f.acknowledged(2)
        #expect(f.cursor == 0)
        f.connectionLost()
        #expect(f.resent == 2)
        sent = []
        while let c = f.next(nowNanoseconds: Int64(1_000) * Self.ms) { f.sent(c, nowNanoseconds: 0); sent.append(c.sequence) }
        #expect(sent == [1, 3, 4, 5], "2 and 6 were acknowledged; the rest goes again, oldest first")
        for s in sent { f.acknowledged(s) }
        #expect(f.cursor == 6 && f.next(nowNanoseconds: 0) == nil)
    }

    @Test func theBacklogLimitGivesUpTheOldestAndCountsThem() {
        var f = UplinkForwarder(cursor: 0, window: 2, backlogLimitRecords: 100)
        f.appended(newest: 250)
        #expect(f.cursor == 150 && f.droppedByLimit == 150 && f.backlog == 100)
        let c = f.next(nowNanoseconds: 0)!
        #expect(c.sequence == 250)
        f.sent(c, nowNanoseconds: 0)
        #expect(f.next(nowNanoseconds: 0)!.sequence == 151)
    }

    @Test func skippedRecordsCountAsDone() {
        var f = UplinkForwarder(cursor: 0, window: 4)
        f.appended(newest: 3)
        let live = f.next(nowNanoseconds: 0)!
        f.skipped(live)
        let first = f.next(nowNanoseconds: 0)!
        f.skipped(first)
        let second = f.next(nowNanoseconds: 0)!
        f.sent(second, nowNanoseconds: 0)
        #expect([live.sequence, first.sequence, second.sequence] == [3, 1, 2] && f.cursor == 1)
        f.acknowledged(2)
        #expect(f.cursor == 3)
    }

    /// A model check: random appends, sends, acknowledgements, duplicate and unknown acknowledgements and
    /// connection losses; at the end everything was delivered at least once, and the cursor never passed a
    /// record that was not acknowledged.
    @Test func randomRunsNeverLeaveAGap() {
        for seed in UInt64(1)...40 {
            var random = SeededRandom(seed: seed)
            var f = UplinkForwarder(cursor: 0, window: 1 + random.below(UplinkForwarder.windowCapacity),
                                    backlogMessagesPerSecond: 1 + random.below(50))
            var inFlight: [UInt64] = [], acknowledged = Set<UInt64>()
            var newest: UInt64 = 0, now: Int64 = 0
            var contiguous: UInt64 = 0   // every sequence up to it was acknowledged
            for _ in 0..<3000 {
                now += Int64(random.below(200)) * Self.ms
                switch random.below(10) {
                case 0...2: newest += UInt64(1 + random.below(3)); f.appended(newest: newest)
                case 3...5: while let c = f.next(nowNanoseconds: now) { f.sent(c, nowNanoseconds: now); inFlight.append(c.sequence) }
                case 6...8:
                    if !inFlight.isEmpty {
                        let s = inFlight.remove(at: random.below(inFlight.count))
                        f.acknowledged(s)
                        acknowledged.insert(s)
                    }
                default:
                    if random.below(4) == 0 { f.connectionLost(); inFlight = [] }
                }
                while acknowledged.contains(contiguous + 1) { contiguous += 1 }
                #expect(f.cursor <= contiguous, "seed \(seed): the cursor passed an unacknowledged record")
                if f.cursor > contiguous { return }
            }
            // The link stays up to the end: everything goes out and is acknowledged.
            f.connectionLost()
            var rounds = 0
            while f.cursor < newest && rounds < 100_000 {
                now += 100 * Self.ms
                while let c = f.next(nowNanoseconds: now) { f.sent(c, nowNanoseconds: now); acknowledged.insert(c.sequence); f.acknowledged(c.sequence) }
                rounds += 1
            }
            #expect(f.cursor == newest && (1...max(newest, 1)).allSatisfy { newest == 0 || acknowledged.contains($0) }, "seed \(seed)")
        }
    }

    @Test func backoffGrowsWithJitterDeterministicallyAndResets() {
        var a = ReconnectBackoff(seed: 99, baseSeconds: 1, maximumSeconds: 60)
        var b = ReconnectBackoff(seed: 99, baseSeconds: 1, maximumSeconds: 60)
        var delays: [Int64] = []
        for _ in 0..<12 { delays.append(a.failed()) }
        #expect(delays == (0..<12).map { _ in b.failed() }, "same seed, same delays")
        let second: Int64 = 1_000_000_000
        for (k, d) in delays.enumerated() {
            let step = min(second << k, 60 * second)
            #expect(d >= step / 2 && d <= step, "attempt \(k): \(d)")
        }
        #expect(delays.suffix(4).allSatisfy { $0 >= 30 * second }, "capped at the maximum, never below half of it")
        var c = ReconnectBackoff(seed: 100, baseSeconds: 1, maximumSeconds: 60)
        #expect(Array((0..<12).map { _ in c.failed() }) != delays, "another seed, other delays")
        a.succeeded()
        #expect(a.failed() <= second)
    }

    @Test func theRateFilterReportsByTimeDistanceAndTurn() {
        func record(_ seconds: Int64, north meters: Double, heading: Double) -> TrackRecord {
            var r = sampleRecord(sequence: UInt64(seconds))
            r.utcNanoseconds = seconds * 1_000_000_000
            r.latitudeDegrees = 40 + meters / 111_195
            r.heading = TrackHeading(degrees: heading, source: .imu)
            return r
        }
        var every = UplinkRateFilter()
        let all = (0..<5).map { every.accepts(record(Int64($0), north: 0, heading: 0)) }
        #expect(all == [true, true, true, true, true])
        var filter = UplinkRateFilter(intervalSeconds: 30, minimumDistanceMeters: 100, headingChangeDegrees: 30)
        let decisions = [filter.accepts(record(0, north: 0, heading: 350)),
                         filter.accepts(record(10, north: 50, heading: 10)),    // 20° across north, 50 m, 10 s: nothing
                         filter.accepts(record(11, north: 101, heading: 10)),   // moved 101 m
                         filter.accepts(record(12, north: 102, heading: 45)),   // turned 35°
                         filter.accepts(record(41, north: 102, heading: 45)),   // 29 s since the last report
                         filter.accepts(record(42, north: 102, heading: 45))]   // 30 s
        #expect(decisions == [true, false, true, true, false, true])
    }
}
