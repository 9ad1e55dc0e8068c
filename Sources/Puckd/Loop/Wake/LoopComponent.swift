import Console

/// One part of the device loop (GPS link, IMU link, controls, PPS input, persistence, board twin,
/// console link, …), owned as a concrete value by `Device`, the router that services it.
///
/// Each wake-up the router asks every component what to poll (`fillPollSlots`), arms the timer for the
/// earliest `deadlineNanoseconds`, and after poll() calls `service` with the one clock reading of the
/// wake-up; it routes the returned events to the tracking core and the other components. Components
/// never call each other. Nothing here allocates after `init` (DeviceAllocationTests).
protocol LoopComponent {
    /// What one service call produced for the router: a concrete value (an OptionSet or a struct of
    /// fixed-capacity fields), never an Array.
    associatedtype Events

    /// Writes the descriptors it waits for into its own slots of the poll set (reserved at start-up).
    func fillPollSlots(_ poll: inout PollSet)

    /// The earliest monotonic time it must be serviced without readiness, nanoseconds; nil: none.
    var deadlineNanoseconds: Int64? { get }

    /// Handles one wake-up at `now` (monotonic ns); `ready` says which of its slots poll() reported.
    mutating func service(nowNanoseconds now: Int64, ready: PollReadiness) -> Events

    /// Its rows of the console's device snapshot (sources, fault reasons), copied in place.
    func fillSnapshot(_ device: inout ConsoleDeviceState, nowNanoseconds now: Int64)

    /// Its rows of the `stats` table.
    func appendStats(to table: inout ConsoleCounterTable)
}

extension LoopComponent {
    func fillPollSlots(_ poll: inout PollSet) {}
    var deadlineNanoseconds: Int64? { nil }
    func fillSnapshot(_ device: inout ConsoleDeviceState, nowNanoseconds now: Int64) {}
    func appendStats(to table: inout ConsoleCounterTable) {}
}
