import Glibc
import Synchronization

/// A disk (or resolver) that stalls: a worker thread's hook calls `pass()`, which blocks until the test
/// calls `release()`; `waitUntilBlocked()` lets the test wait until the worker is inside. Polls with
/// 0.5 ms sleeps (tests only).
public final class StallGate: Sendable {
    private let released = Atomic<Bool>(false)
    private let blocked = Atomic<Int>(0)

    public init() {}

    /// The worker's hook: blocks until `release` (every call, until released; then passes at once).
    public func pass() {
        blocked.add(1, ordering: .sequentiallyConsistent)
        while !released.load(ordering: .sequentiallyConsistent) { usleep(500) }
    }

    /// How often a worker has entered `pass`.
    public var entries: Int { blocked.load(ordering: .sequentiallyConsistent) }

    /// The test: waits until a worker is inside `pass`.
    public func waitUntilBlocked() {
        while blocked.load(ordering: .sequentiallyConsistent) == 0 { usleep(500) }
    }

    public func release() { released.store(true, ordering: .sequentiallyConsistent) }
}
