import Glibc
import NMEA

/// Paces replayed fixes at the pace they were recorded: each fix is released when as much monotonic
/// time has passed since the previous one as the fixes' own timestamps say (UTC when both are dated,
/// else time of day across midnight).
///
/// A recording's clock can jump (gaps, a receiver restarting, time going backwards): a step is clamped
/// to 0 ... `maximumStepNanoseconds` (2 s), so replay never stalls on a gap and never rushes a batch.
/// Deadlines are absolute (`clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)`), so sleeping and printing
/// time do not accumulate drift.
struct RealtimePacer {
    /// Largest pause between two fixes, nanoseconds.
    static let maximumStepNanoseconds: Int64 = 2_000_000_000

    private var previous: Fix?
    private var deadline = timespec()

    /// The pause before `fix` (0 for the first), clamped to 0 ... `maximumStepNanoseconds`.
    static func step(from previous: Fix?, to fix: borrowing Fix) -> Int64 {
        guard let previous else { return 0 }
        let raw = EpochAssembler.interval(from: previous, to: fix)
        return min(max(raw, 0), maximumStepNanoseconds)
    }

    /// Sleeps until `fix` is due.
    mutating func wait(for fix: borrowing Fix) {
        if previous == nil {
            clock_gettime(CLOCK_MONOTONIC, &deadline)
        } else {
            let step = Self.step(from: previous, to: fix)
            var nanos = Int64(deadline.tv_nsec) + step % 1_000_000_000
            var seconds = Int64(deadline.tv_sec) + step / 1_000_000_000
            if nanos >= 1_000_000_000 { nanos -= 1_000_000_000; seconds += 1 }
            deadline.tv_sec = Int(seconds)
            deadline.tv_nsec = Int(nanos)
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
        }
        previous = copy fix
    }
}
