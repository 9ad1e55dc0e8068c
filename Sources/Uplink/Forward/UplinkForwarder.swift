/// Store-and-forward over the journal for one uplink (docs/uplink.md §5), pure: which journal sequence
/// to send next, the in-flight window, and the cursor — the highest sequence such that it and every
/// earlier record were acknowledged (PUBACK / 2xx) or dropped by the rate filter or the backlog limit.
///
/// Ordering rule: the newest record (live) goes first whenever one is waiting, so the map stays
/// current; the backlog (everything older than the newest, not yet acknowledged) goes oldest first at
/// most `backlogMessagesPerSecond`. With no backlog the two are the same and records leave in order.
/// Unacknowledged messages are sent again after a reconnect: delivery is at least once, never a gap.
public struct UplinkForwarder: Sendable {
    /// One record to send now: read it from the journal, then call `sent` (or `skipped`).
    public struct Candidate: Equatable, Sendable {
        public var sequence: UInt64
        public var isLive: Bool
    }

    public static let windowCapacity = 32
    /// Acknowledgements above the cursor remembered (live messages acknowledged before the backlog
    /// below them); when full, the oldest is forgotten and that record is sent again (a duplicate).
    public static let acknowledgedAboveCapacity = 64

    public let window: Int
    public let backlogLimitRecords: UInt64
    public let backlogMessagesPerSecond: Int
    /// Records this close to the newest are sent oldest first and not rate-limited (a recent flush's
    /// batch is not a backlog); 0: the newest alone is live.
    public let inOrderSpan: UInt64

    /// Last sequence acknowledged with everything before it (0: none yet; sequences start at 1).
    public private(set) var cursor: UInt64
    /// The journal's newest sequence (0: empty).
    public private(set) var newest: UInt64 = 0
    private var nextBacklog: UInt64
    private var lastLive: UInt64 = 0
    private var inFlight: InlineArray<32, UInt64> = .init(repeating: 0)
    public private(set) var inFlightCount = 0
    private var above: InlineArray<64, UInt64> = .init(repeating: 0)
    private var aboveCount = 0
    private var tokensMilli: Int64
    private var tokensAtNanoseconds: Int64?

    public private(set) var acknowledgedCount: UInt64 = 0
    public private(set) var droppedByLimit: UInt64 = 0
    public private(set) var resent: UInt64 = 0
    public private(set) var forgottenAcknowledgements: UInt64 = 0

    /// `cursor` is the persisted one (0 for a new uplink); `window` ≤ 32.
    public init(cursor: UInt64, window: Int = 16, backlogLimitRecords: UInt64 = 1_000_000, backlogMessagesPerSecond: Int = 20,
                inOrderSpan: UInt64 = 0) {
        self.inOrderSpan = inOrderSpan
        precondition(window >= 1 && window <= Self.windowCapacity)
        self.cursor = cursor
        self.window = window
        self.backlogLimitRecords = max(backlogLimitRecords, 1)
        self.backlogMessagesPerSecond = max(backlogMessagesPerSecond, 1)
        nextBacklog = cursor + 1
        tokensMilli = Int64(window) * 1000
    }

    /// Records waiting: after the cursor, not yet acknowledged.
    public var backlog: UInt64 { newest > cursor ? newest - cursor : 0 }

    /// The journal's newest sequence number (after each append, and once at start-up). When the backlog
    /// passes the limit the oldest records are given up (counted; the cursor jumps).
    public mutating func appended(newest sequence: UInt64) {
        guard sequence > newest else { return }
        newest = sequence
        if newest - cursor > backlogLimitRecords {
            let newCursor = newest - backlogLimitRecords
            droppedByLimit += newCursor - cursor
            cursor = newCursor
            if nextBacklog <= cursor { nextBacklog = cursor + 1 }
            var k = 0
            while k < aboveCount { if above[k] <= cursor { removeAbove(at: k) } else { k += 1 } }
            advanceCursor()
        }
    }

    /// What to send now, if anything: the window has room and a record waits (live, or a backlog
    /// record within the rate limit).
    public mutating func next(nowNanoseconds now: Int64) -> Candidate? {
        guard inFlightCount < window else { return nil }
        if inOrderSpan > 0, let first = firstBacklog(below: newest + 1), newest - first < inOrderSpan {
            return Candidate(sequence: first, isLive: false)   // the recent batch, in order, not rate-limited
        }
        if newest > lastLive && newest > cursor && !isInFlight(newest) && !isAbove(newest) {
            return Candidate(sequence: newest, isLive: true)   // live first; in order when there is no backlog
        }
        guard let sequence = firstBacklog(below: newest + 1) else { return nil }
        refill(now)
        guard tokensMilli >= 1000 else { return nil }
        return Candidate(sequence: sequence, isLive: false)
    }

    /// When a backlog record can go next under the rate limit (nil: no backlog, or the window is full).
    public func deadlineNanoseconds(nowNanoseconds now: Int64) -> Int64? {
        guard inFlightCount < window, firstBacklog(below: newest + 1) != nil, tokensMilli < 1000 else { return nil }
        let missing = 1000 - tokensMilli
        return (tokensAtNanoseconds ?? now) + missing * 1_000_000 / Int64(backlogMessagesPerSecond)
    }

    /// The candidate was written to the connection.
    public mutating func sent(_ candidate: Candidate, nowNanoseconds now: Int64) {
        inFlight[inFlightCount] = candidate.sequence
        inFlightCount += 1
        if candidate.isLive { lastLive = candidate.sequence } else { tokensMilli = max(tokensMilli - 1000, 0) }
        if !candidate.isLive && candidate.sequence >= nextBacklog { nextBacklog = candidate.sequence + 1 }
    }

    /// The candidate is not to be sent (the rate filter dropped it, or the journal no longer has it):
    /// it counts as done.
    public mutating func skipped(_ candidate: Candidate) {
        if candidate.isLive { lastLive = candidate.sequence }
        if !candidate.isLive && candidate.sequence >= nextBacklog { nextBacklog = candidate.sequence + 1 }
        done(candidate.sequence)
    }

    /// PUBACK or 2xx for `sequence`. Returns true when the cursor moved (persist it).
    @discardableResult
    public mutating func acknowledged(_ sequence: UInt64) -> Bool {
        var k = 0
        while k < inFlightCount {
            if inFlight[k] == sequence {
                inFlightCount -= 1
                inFlight[k] = inFlight[inFlightCount]
                break
            }
            k += 1
        }
        acknowledgedCount += 1
        let before = cursor
        done(sequence)
        return cursor != before
    }

    /// The connection is gone: whatever was in flight is sent again on the next one.
    public mutating func connectionLost() {
        resent += UInt64(inFlightCount)
        inFlightCount = 0
        nextBacklog = cursor + 1
        lastLive = min(lastLive, cursor)
    }

    private mutating func done(_ sequence: UInt64) {
        guard sequence > cursor else { return }
        if sequence == cursor + 1 {
            cursor = sequence
            advanceCursor()
        } else if !isAbove(sequence) {
            if aboveCount == Self.acknowledgedAboveCapacity {
                var oldest = 0
                var k = 1
                while k < aboveCount { if above[k] < above[oldest] { oldest = k }; k += 1 }
                removeAbove(at: oldest)
                forgottenAcknowledgements += 1
            }
            above[aboveCount] = sequence
            aboveCount += 1
        }
        if nextBacklog <= cursor { nextBacklog = cursor + 1 }
    }

    private mutating func advanceCursor() {
        var moved = true
        while moved {
            moved = false
            var k = 0
            while k < aboveCount {
                if above[k] == cursor + 1 { cursor += 1; removeAbove(at: k); moved = true } else { k += 1 }
            }
        }
    }

    private mutating func removeAbove(at k: Int) {
        aboveCount -= 1
        above[k] = above[aboveCount]
    }

    private func isInFlight(_ s: UInt64) -> Bool {
        var k = 0
        while k < inFlightCount { if inFlight[k] == s { return true }; k += 1 }
        return false
    }

    private func isAbove(_ s: UInt64) -> Bool {
        var k = 0
        while k < aboveCount { if above[k] == s { return true }; k += 1 }
        return false
    }

    /// The oldest backlog sequence below `limit` not in flight and not done.
    private func firstBacklog(below limit: UInt64) -> UInt64? {
        var s = max(nextBacklog, cursor + 1)
        while s < limit {
            if !isInFlight(s) && !isAbove(s) { return s }
            s += 1
        }
        return nil
    }

    private mutating func refill(_ now: Int64) {
        let capacity = Int64(window) * 1000
        if let at = tokensAtNanoseconds, now > at {
            tokensMilli = min(capacity, tokensMilli + (now - at) * Int64(backlogMessagesPerSecond) / 1_000_000)
        }
        tokensAtNanoseconds = now
    }
}
