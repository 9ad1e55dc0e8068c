import NMEA
import SystemCalls

/// Paces replayed fixes at the pace they were recorded: each fix is released when as much monotonic
/// time has passed since the previous one as the fixes' own timestamps say (UTC when both are dated,
/// else time of day across midnight).
///
/// A recording's clock can jump (gaps, a receiver restarting, time going backwards): a step is clamped
/// to 0 ... `maximumStepNanoseconds` (2 s), so replay never stalls on a gap and never rushes a batch.
/// Deadlines are absolute (`SystemClock.sleep(untilMonotonicNanoseconds:)`), so sleeping and printing
/// time do not accumulate drift.
struct RealtimePacer {
    /// Largest pause between two fixes, nanoseconds.
    static let maximumStepNanoseconds: Int64 = 2_000_000_000

    private var previous: Fix?
    private var deadlineNanoseconds: UInt64 = 0

    /// The pause before `fix` (0 for the first), clamped to 0 ... `maximumStepNanoseconds`.
    static func step(from previous: Fix?, to fix: borrowing Fix) -> Int64 {
        guard let previous else { return 0 }
        let raw = EpochAssembler.interval(from: previous, to: fix)
        return min(max(raw, 0), maximumStepNanoseconds)
    }

    /// Sleeps until `fix` is due.
    mutating func wait(for fix: borrowing Fix) {
        if previous == nil {
            deadlineNanoseconds = SystemClock.monotonicNanoseconds()
        } else {
            deadlineNanoseconds += UInt64(Self.step(from: previous, to: fix))
            SystemClock.sleep(untilMonotonicNanoseconds: deadlineNanoseconds)
        }
        previous = copy fix
    }
}
