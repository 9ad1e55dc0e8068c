import CLinux

/// The heap allocations of the calling thread, when the tests' malloc counter is linked (CMallocCounter,
/// a weak symbol); puckd itself has none. For the console's "allocations since start-up" figure.
public enum ThreadAllocations {
    /// The count so far, or nil when no counter is linked.
    public static func count() -> Int64? {
        let count = clinux_console_thread_allocations()
        return count >= 0 ? count : nil
    }
}
