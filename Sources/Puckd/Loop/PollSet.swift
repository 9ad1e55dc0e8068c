import Glibc

/// The events poll(2) waits for, per slot (the loop's own spelling until the SystemCalls module's
/// `PollEvents` replaces it, with the same member names).
struct PollEvents: OptionSet {
    let rawValue: Int16

    static let readable = PollEvents(rawValue: Int16(POLLIN))
    static let writable = PollEvents(rawValue: Int16(POLLOUT))
}

/// A range of poll slots a component reserved at start-up (`PollSet.reserve`).
struct PollSlots {
    let first: Int
    let count: Int

    /// The slot `index` of this range (0-based), as an index into the poll set.
    subscript(index: Int) -> Int { first + index }
}

/// The loop's one fixed `pollfd` set: slots reserved by the components at start-up, refilled before
/// each poll (a slot with no descriptor is ignored by the kernel), never grown.
final class PollSet {
    /// Slots for every component together.
    static let capacity = 24
    private let entries: UnsafeMutablePointer<pollfd>
    /// Slots reserved so far; poll() passes only these.
    private(set) var reserved = 0

    init() {
        entries = .allocate(capacity: Self.capacity)
        entries.initialize(repeating: pollfd(fd: -1, events: 0, revents: 0), count: Self.capacity)
    }

    deinit { entries.deallocate() }

    /// Reserves `count` slots for one component (start-up only).
    func reserve(_ count: Int) -> PollSlots {
        precondition(reserved + count <= Self.capacity, "the poll set holds \(Self.capacity) slots")
        let slots = PollSlots(first: reserved, count: count)
        reserved += count
        return slots
    }

    /// Sets what `slot` waits for; a nil descriptor empties it.
    func set(_ slot: Int, descriptor: Int32?, events: PollEvents) {
        entries[slot] = pollfd(fd: descriptor ?? -1, events: events.rawValue, revents: 0)
    }

    /// Waits up to `timeoutMilliseconds` for any slot; returns what poll() reported.
    func wait(timeoutMilliseconds: Int32) -> PollReadiness {
        let n = poll(entries, nfds_t(reserved), timeoutMilliseconds)
        return PollReadiness(set: n > 0 ? self : nil)
    }

    /// True when the last poll reported an event for `slot`.
    func isReady(_ slot: Int) -> Bool { entries[slot].revents != 0 }
}

/// Which slots the last poll() reported, as a component asks for them; `.all` (tests, benchmarks)
/// reports every slot ready.
struct PollReadiness {
    private let set: PollSet?
    private let everything: Bool

    init(set: PollSet?) {
        self.set = set
        everything = false
    }

    private init(everything: Bool) {
        set = nil
        self.everything = everything
    }

    /// Every slot counts as ready.
    static var all: PollReadiness { PollReadiness(everything: true) }
    /// No slot is ready (a timer or deadline wake-up).
    static var none: PollReadiness { PollReadiness(everything: false) }

    func isReady(_ slot: Int) -> Bool { everything || (set?.isReady(slot) ?? false) }
}
