import Glibc

/// The kernel clocks, in nanoseconds: the loop's monotonic time (CLOCK_MONOTONIC, never steps) and
/// wall-clock time (CLOCK_REALTIME, for timestamps humans read).
public enum SystemClock {
    /// CLOCK_MONOTONIC in nanoseconds.
    public static func monotonicNanoseconds() -> UInt64 { read(CLOCK_MONOTONIC) }

    /// CLOCK_REALTIME in nanoseconds since 1970-01-01 UTC.
    public static func realtimeNanoseconds() -> UInt64 { read(CLOCK_REALTIME) }

    private static func read(_ clock: clockid_t) -> UInt64 {
        var now = timespec()
        _ = clock_gettime(clock, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }
}

extension SystemClock {
    /// clock_nanosleep(2) on CLOCK_MONOTONIC until the absolute time `deadline` (nanoseconds),
    /// again after a signal interrupted it. Commands' pacing only: the loop never sleeps.
    public static func sleep(untilMonotonicNanoseconds deadline: UInt64) {
        var due = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, nil) == EINTR {}
    }
}
