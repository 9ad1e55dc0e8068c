import Console
import NMEA

/// The GPS link's side of the component contract (DEVELOPERS.md, "The loop's parts"). The byte source
/// is the caller's `~Copyable` generic (`run(gps:)`), so the link cannot own it without making the
/// router generic or boxing it in an existential: the reads stay in the generic
/// `service(_:nowNanoseconds:onBytes:onFix:)`, specialised for the concrete source, with the source's
/// descriptor and reconnect deadline in the router's poll slot. What needs no source is this
/// conformance: the open epoch's quiet-line deadline, its close, and the `gps.*` stats.
extension GPSLink: LoopComponent {
    /// What a deadline service produced: at most one fix (the quiet line closed the open epoch).
    struct Events {
        /// The open epoch was closed by the quiet line: its fix is `lastFix`, for the router to route.
        var epochClosed = false
    }

    /// When the open epoch closes if its ender does not come (the quiet line), monotonic ns; nil: none.
    var deadlineNanoseconds: Int64? { pipeline.deadlineNanoseconds }

    /// Closes the open epoch when the line has been quiet past its deadline (docs/nmea-epochs.md §1);
    /// the fix it completed is counted and kept as `lastFix`.
    func service(nowNanoseconds now: Int64, ready: PollReadiness) -> Events {
        guard let deadline = pipeline.deadlineNanoseconds, now >= deadline else { return Events() }
        var pending = PendingFixes()
        pipeline.closeIfQuiet(nowNanoseconds: now) { fix in pending.append(fix) }
        guard pending.count > 0 else { return Events() }
        note(pending[0], nowNanoseconds: now)
        return Events(epochClosed: true)
    }

    /// `gps.bytes`, `gps.fixes`, `gps.errors`.
    func appendStats(to t: inout ConsoleCounterTable) {
        t.append("gps.bytes", Int64(truncatingIfNeeded: bytes))
        t.append("gps.fixes", Int64(truncatingIfNeeded: fixes))
        t.append("gps.errors", Int64(truncatingIfNeeded: errors))
    }
}
