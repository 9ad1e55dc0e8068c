import Tracking

/// The most recent tracking events for the `events` view: a fixed ring of `capacity` events that
/// overwrites the oldest. The device records every event it pops from `TrackingCore` (the core's own
/// `EventRing` is a queue the device drains; this log keeps a history to look back at).
public struct ConsoleEventLog: Sendable {
    /// Number of events kept.
    public static let capacity = 64

    private var slots = InlineArray<64, TimedTrackingEvent>(
        repeating: TimedTrackingEvent(timeNanoseconds: 0, event: .didUpdateUserLocation))
    private var next = 0
    /// Events held (0...capacity).
    public private(set) var count = 0
    /// Events recorded since start (including those overwritten).
    public private(set) var recorded: UInt64 = 0

    public init() {}

    /// Records an event (overwriting the oldest when full).
    public mutating func record(_ event: TimedTrackingEvent) {
        slots[next] = event
        next = (next + 1) % Self.capacity
        if count < Self.capacity { count += 1 }
        recorded &+= 1
    }

    /// The `index`-th most recent event (0 = newest), or nil.
    public func recent(_ index: Int) -> TimedTrackingEvent? {
        guard index >= 0 && index < count else { return nil }
        return slots[(next - 1 - index + 2 * Self.capacity) % Self.capacity]
    }
}
