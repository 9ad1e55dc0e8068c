import CLinux
import Glibc

extension FileDescriptor {
    /// eventfd(2) with counter 0, non-blocking and close-on-exec: a descriptor that polls readable
    /// while its counter is not zero (the simulated GPIO lines' edge events).
    public static func eventCounter() throws(Errno) -> FileDescriptor {
        try check(minusOne: clinux_gpio_eventfd())
    }

    /// Adds 1 to this eventfd's counter (it polls readable); false when the write failed.
    @discardableResult
    public func signalEventCounter() -> Bool {
        var one: UInt64 = 1
        return Glibc.write(rawValue, &one, 8) == 8
    }

    /// Reads and clears this eventfd's counter: its value, 0 when it was zero already.
    @discardableResult
    public func drainEventCounter() -> UInt64 {
        var counter: UInt64 = 0
        return Glibc.read(rawValue, &counter, 8) == 8 ? counter : 0
    }

    /// Blocks SIGINT and SIGTERM for the calling thread and returns a non-blocking signalfd that
    /// polls readable when one arrives (a command that must release what it holds before it ends).
    public static func terminationSignals() throws(Errno) -> FileDescriptor {
        try check(minusOne: clinux_gpio_termination_signalfd())
    }
}
