/// A segment of the journal as the writer keeps account of it.
struct TrackSegmentEntry {
    var name: TrackSegmentName
    var trackBytes: Int64
    var rawBytes: Int64
}

/// The writer's table of segments, oldest first, in storage made at start-up: appending within the
/// capacity, updating the newest and removing the oldest allocate nothing (an Array's element
/// update is a coroutine that allocates its frame in debug builds).
struct TrackSegmentTable {
    private var storage: UnsafeMutableBufferPointer<TrackSegmentEntry>
    private(set) var count = 0

    init(capacity: Int) {
        storage = .allocate(capacity: max(1, capacity))
    }

    func deallocate() { storage.deallocate() }

    var capacity: Int { storage.count }
    var isEmpty: Bool { count == 0 }
    var isFull: Bool { count == storage.count }
    var first: TrackSegmentEntry? { count > 0 ? storage[0] : nil }
    var last: TrackSegmentEntry? { count > 0 ? storage[count - 1] : nil }

    /// The newest entry, updated in place (the table must not be empty).
    var newest: UnsafeMutablePointer<TrackSegmentEntry> { storage.baseAddress! + (count - 1) }

    /// Appends (the caller made room: `isFull` is false).
    mutating func append(_ entry: TrackSegmentEntry) {
        precondition(count < storage.count)
        (storage.baseAddress! + count).initialize(to: entry)
        count += 1
    }

    /// Removes and returns the oldest entry.
    mutating func removeOldest() -> TrackSegmentEntry {
        precondition(count > 0)
        let oldest = storage[0]
        (storage.baseAddress!).update(from: storage.baseAddress! + 1, count: count - 1)
        count -= 1
        return oldest
    }

    /// Doubles the storage (start-up only: a journal with more segments than the cap foresaw).
    mutating func grow() {
        let bigger = UnsafeMutableBufferPointer<TrackSegmentEntry>.allocate(capacity: storage.count * 2)
        _ = bigger.initialize(from: storage[0..<count])
        storage.deallocate()
        storage = bigger
    }
}
