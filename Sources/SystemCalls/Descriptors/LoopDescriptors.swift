import CLinux

/// The device loop's kernel descriptors: a monotonic timerfd (the wake timer) and the signalfd of
/// SIGTERM, SIGINT and SIGHUP. Every call is allocation-free and never blocks.
extension FileDescriptor {
    /// A non-blocking, close-on-exec timerfd on CLOCK_MONOTONIC.
    public static func monotonicTimer() throws(Errno) -> FileDescriptor {
        try check(negated: clinux_timerfd_create())
    }

    /// Arms this timerfd to expire first at monotonic `firstNanoseconds` (absolute) and then every
    /// `periodNanoseconds` (0: once); `firstNanoseconds` 0 disarms. nil when armed.
    @discardableResult
    public func armTimer(firstNanoseconds: Int64, periodNanoseconds: Int64 = 0) -> Errno? {
        let result = clinux_timerfd_arm(rawValue, firstNanoseconds, periodNanoseconds)
        return result < 0 ? Errno(rawValue: -result) : nil
    }

    /// Reads this timerfd's expiration count (drains it): 0 when none is pending.
    public func drainTimer() throws(Errno) -> Int64 {
        let result = clinux_timerfd_drain(rawValue)
        if result < 0 { throw Errno(rawValue: CInt(truncatingIfNeeded: -result)) }
        return result
    }

    /// Blocks SIGTERM, SIGINT and SIGHUP for the calling thread, ignores SIGPIPE, and returns a
    /// non-blocking, close-on-exec signalfd for the three (signals unblocked again on failure).
    public static func loopSignals() throws(Errno) -> FileDescriptor {
        try check(negated: clinux_device_signalfd())
    }

    /// Unblocks SIGTERM, SIGINT and SIGHUP again (after the loop ended; tests).
    public static func unblockLoopSignals() { clinux_device_signals_unblock() }

    /// Reads one pending signal from this signalfd: its number, or nil when none is pending or the
    /// read failed.
    public func nextSignal() -> CInt? {
        let signal = clinux_signalfd_next(rawValue)
        return signal > 0 ? signal : nil
    }
}
