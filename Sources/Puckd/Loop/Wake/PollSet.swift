import SystemCalls

/// A range of poll slots a component reserved at start-up (`PollSet.reserve`).
struct PollSlots {
    let first: Int
    let count: Int

    /// The slot `index` of this range (0-based), as an index into the poll set.
    subscript(index: Int) -> Int { first + index }
}

/// The loop's one fixed poll set: slots reserved by the components at start-up, refilled before each
/// poll (a slot with no descriptor is ignored by the kernel), never grown.
final class PollSet {
    /// Slots for every component together.
    static let capacity = 24
    private let entries: UnsafeMutableBufferPointer<PollEntry>
    /// Slots reserved so far; poll() passes only these.
    private(set) var reserved = 0

    init() {
        entries = .allocate(capacity: Self.capacity)
        entries.initialize(repeating: PollEntry(nil, events: []))
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
    func set(_ slot: Int, descriptor: FileDescriptor?, events: PollEvents) {
        entries[slot] = PollEntry(descriptor, events: events)
    }

    /// Waits up to `timeoutMilliseconds` for any reserved slot; returns what poll() reported (nothing
    /// when it failed: the loop then runs its timer work and polls again).
    func wait(timeoutMilliseconds: Int32) -> PollReadiness {
        let n: Int
        do throws(Errno) {
            n = try FileDescriptor.poll(UnsafeMutableBufferPointer(rebasing: entries[0..<reserved]),
                                        timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            n = 0
        }
        return PollReadiness(set: n > 0 ? self : nil)
    }

    /// True when the last poll reported an event for `slot`.
    func isReady(_ slot: Int) -> Bool { !entries[slot].returnedEvents.isEmpty }
}

/// Which slots the last poll() reported, as a component asks for them; `.all` (tests, benchmarks)
/// reports every slot ready.
struct PollReadiness {
    private let set: PollSet?
    private let everything: Bool
    /// Slots named ready one by one (bit n: slot n), for the router's own `DeviceReadiness` bits.
    private let slotMask: UInt32

    init(set: PollSet?) {
        self.set = set
        everything = false
        slotMask = 0
    }

    private init(everything: Bool, slotMask: UInt32 = 0) {
        set = nil
        self.everything = everything
        self.slotMask = slotMask
    }

    /// Exactly the slots whose bits are set in `mask` are ready (bit n: slot n; the capacity is 24).
    static func slots(_ mask: UInt32) -> PollReadiness { PollReadiness(everything: false, slotMask: mask) }

    /// Every slot counts as ready.
    static var all: PollReadiness { PollReadiness(everything: true) }
    /// No slot is ready (a timer or deadline wake-up).
    static var none: PollReadiness { PollReadiness(everything: false) }

    func isReady(_ slot: Int) -> Bool {
        everything || (slot < 32 && slotMask & (1 << UInt32(slot)) != 0) || (set?.isReady(slot) ?? false)
    }
}
