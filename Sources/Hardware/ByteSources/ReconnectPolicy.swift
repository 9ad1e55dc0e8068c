/// When to try again after a live source fails: exponential backoff from `initialDelayNanoseconds`
/// doubling up to `maximumDelayNanoseconds`, and back to the initial delay once a connection has
/// stayed open for `healthyAfterNanoseconds`. Pure: driven by the monotonic times passed in.
///
/// Defaults: 0.5 s, 1 s, 2 s, … 30 s; a connection open for 10 s counts as healthy.
public struct ReconnectPolicy: Equatable, Sendable {
    /// Delay before the first retry after a failure.
    public var initialDelayNanoseconds: Int64
    /// Upper bound of the delay.
    public var maximumDelayNanoseconds: Int64
    /// A connection open at least this long resets the backoff when it fails.
    public var healthyAfterNanoseconds: Int64
    /// Failures since the last healthy connection (0 = none).
    public private(set) var consecutiveFailures: Int = 0
    /// Monotonic time of the current connection's open, nil while not open.
    public private(set) var openedAtNanoseconds: Int64?

    /// Creates a policy (times in monotonic nanoseconds).
    public init(initialDelayNanoseconds: Int64 = 500_000_000,
                maximumDelayNanoseconds: Int64 = 30_000_000_000,
                healthyAfterNanoseconds: Int64 = 10_000_000_000) {
        self.initialDelayNanoseconds = max(1, initialDelayNanoseconds)
        self.maximumDelayNanoseconds = max(self.initialDelayNanoseconds, maximumDelayNanoseconds)
        self.healthyAfterNanoseconds = healthyAfterNanoseconds
    }

    /// The delay after `failures` consecutive failures (1 → initial delay), capped at the maximum.
    public func delayNanoseconds(afterFailures failures: Int) -> Int64 {
        if failures <= 1 { return initialDelayNanoseconds }
        var delay = initialDelayNanoseconds
        for _ in 1..<min(failures, 63) {
            if delay >= maximumDelayNanoseconds / 2 { return maximumDelayNanoseconds }
            delay *= 2
        }
        return min(delay, maximumDelayNanoseconds)
    }

    /// Records a successful open at `nowNanoseconds`.
    public mutating func opened(nowNanoseconds: Int64) {
        openedAtNanoseconds = nowNanoseconds
    }

    /// Records a failure (of an open attempt or of an open connection) at `nowNanoseconds` and
    /// returns the monotonic time of the next attempt.
    public mutating func failed(nowNanoseconds: Int64) -> Int64 {
        if let opened = openedAtNanoseconds, nowNanoseconds &- opened >= healthyAfterNanoseconds {
            consecutiveFailures = 0
        }
        openedAtNanoseconds = nil
        consecutiveFailures = min(consecutiveFailures + 1, 1 << 20)
        let delay = delayNanoseconds(afterFailures: consecutiveFailures)
        return nowNanoseconds > Int64.max - delay ? Int64.max : nowNanoseconds + delay
    }
}
