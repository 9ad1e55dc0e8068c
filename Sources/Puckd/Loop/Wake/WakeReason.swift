import Console

/// Why the loop woke up (docs/power.md §1.6): the deadline the wake timer was armed for when it fired,
/// or the first descriptor poll() found ready. `stats` shows a counter per reason (`loop.wake.*`), so
/// a wake-up that does no work can be traced to the deadline that asked for it.
enum WakeReason: Int {
    /// The timer, armed for the IMU's next burst or poll.
    case imu
    /// The timer, armed for the planned tracking tick (full rate, or an on-demand change: an LED edge).
    case tick
    /// The timer, armed for the open epoch's quiet line, the track recorder or the uplink.
    case epoch
    /// The timer, armed for the simulated board: its receiver's next epoch, a PPS edge, a button release.
    case board
    /// The timer, armed for a button's debounce or long-press decision.
    case buttons
    /// The timer, armed for the status line.
    case status
    /// The timer, armed for systemd's watchdog or STATUS=, the state write or a pending reload.
    case housekeeping
    /// The timer, armed for the GPS source's reconnect or the console transport.
    case source
    /// A descriptor: the GPS source, PPS, a button, the console, the gpsd server, the uplink, the
    /// IMU's interrupt line or a signal.
    case descriptor
    /// poll()'s timeout with nothing ready (its 1 s backstop).
    case timeout

    static let count = 10
    /// The `stats` rows, in the order of the cases.
    static let statNames: [10 of StaticString] = ["loop.wake.imu", "loop.wake.tick", "loop.wake.epoch", "loop.wake.board",
                                                   "loop.wake.buttons", "loop.wake.status", "loop.wake.housekeeping",
                                                   "loop.wake.source", "loop.wake.descriptor", "loop.wake.timeout"]
}

/// A deadline and the reason it stands for: the earliest of several, with the reason of the one that
/// won (`WakeScheduler.arm` keeps it, to count the timer's wake-up under it).
struct WakeDeadline {
    private(set) var nanoseconds: Int64?
    private(set) var reason: WakeReason

    init(_ nanoseconds: Int64? = nil, reason: WakeReason = .epoch) {
        self.nanoseconds = nanoseconds
        self.reason = reason
    }

    /// Takes `t` (for `reason`) when it comes before the deadline held.
    mutating func consider(_ t: Int64?, _ reason: WakeReason) {
        guard let t else { return }
        if let n = nanoseconds, n <= t { return }
        nanoseconds = t
        self.reason = reason
    }
}

/// Wake-ups counted per `WakeReason` (fixed storage: counting allocates nothing).
struct WakeReasonCounts {
    private var counts = InlineArray<10, UInt64>(repeating: 0)

    mutating func count(_ reason: WakeReason) { counts[reason.rawValue] &+= 1 }

    subscript(reason: WakeReason) -> UInt64 { counts[reason.rawValue] }

    /// The `stats` rows `loop.wake.*`.
    func appendStats(to t: inout ConsoleCounterTable) {
        var i = 0
        while i < WakeReason.count {
            t.append(WakeReason.statNames[i], Int64(truncatingIfNeeded: counts[i]))
            i += 1
        }
    }
}
