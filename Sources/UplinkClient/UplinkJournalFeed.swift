import TrackLog
import Uplink

/// The journal as an uplink's forwarder sees it (docs/uplink.md §5, §9): forwarder positions are journal
/// sequence + 1 (the journal starts at sequence 0, the forwarder's cursor 0 means "nothing acknowledged"),
/// and the rate filter (`interval_s`, `min_distance_m`) is decided once per record, in journal order, as
/// records become durable — so a record re-sent after a reconnect gets the same decision, and a filtered
/// record is skipped (the cursor passes it) instead of sent. Decisions live in a fixed bit ring as large
/// as the backlog limit. Allocates in `init` only.
public final class UplinkJournalFeed: UplinkRecordSource {
    public let journal: JournalRecordSource
    public private(set) var filter: UplinkRateFilter
    /// Forwarder position through which the filter has decided (0: none yet).
    public private(set) var decidedThrough: UInt64
    /// Records the filter kept out (counted once each).
    public private(set) var filtered: UInt64 = 0
    private let ring: UnsafeMutablePointer<UInt64>
    private let ringBits: UInt64
    /// Decisions made per `decide` call at most (a long backlog is decided over several wake-ups).
    public static let decisionsPerCall: UInt64 = 512

    /// `cursor`: the forwarder's persisted cursor; `ringRecords` ≥ the forwarder's backlog limit.
    public init(journal: JournalRecordSource, filter: UplinkRateFilter, cursor: UInt64, ringRecords: UInt64) {
        self.journal = journal
        self.filter = filter
        decidedThrough = cursor
        ringBits = max(ringRecords + UInt64(UplinkForwarder.windowCapacity) + 64, 64)
        let words = Int((ringBits + 63) / 64)
        ring = .allocate(capacity: words)
        ring.initialize(repeating: 0, count: words)
    }

    deinit { ring.deallocate() }

    /// The forwarder position of journal sequence `s`, and back.
    @inline(__always) public static func position(ofSequence s: UInt64) -> UInt64 { s &+ 1 }
    @inline(__always) public static func sequence(ofPosition p: UInt64) -> UInt64 { p &- 1 }

    /// Decides the filter for records up to forwarder position `durable` (at most `decisionsPerCall`
    /// per call, oldest first) and returns the position through which the forwarder may now send.
    /// `cursor` is the forwarder's: nothing at or below it is decided again.
    public func decide(throughPosition durable: UInt64, cursor: UInt64) -> UInt64 {
        if decidedThrough < cursor { decidedThrough = cursor }
        if filter.reportsEveryFix {
            decidedThrough = max(decidedThrough, durable)
            return decidedThrough
        }
        var budget = Self.decisionsPerCall
        while decidedThrough < durable && budget > 0 {
            let p = decidedThrough + 1
            var keep = false
            if let record = journal.record(sequence: Self.sequence(ofPosition: p)) { keep = filter.accepts(record) }
            setSkipped(p, !keep)
            if !keep { filtered &+= 1 }
            decidedThrough = p
            budget -= 1
        }
        return decidedThrough
    }

    /// The record at forwarder position `sequence`, nil when filtered out or gone from the journal.
    public func record(sequence position: UInt64) -> TrackRecord? {
        if !filter.reportsEveryFix && isSkipped(position) { return nil }
        return journal.record(sequence: Self.sequence(ofPosition: position))
    }

    private func setSkipped(_ p: UInt64, _ skipped: Bool) {
        let bit = p % ringBits
        let word = Int(bit / 64), mask: UInt64 = 1 << (bit % 64)
        if skipped { ring[word] |= mask } else { ring[word] &= ~mask }
    }

    private func isSkipped(_ p: UInt64) -> Bool {
        let bit = p % ringBits
        return ring[Int(bit / 64)] & (1 << (bit % 64)) != 0
    }
}
