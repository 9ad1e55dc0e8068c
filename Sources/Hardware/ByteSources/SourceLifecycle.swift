/// The bookkeeping every source shares: status, counters and the reconnect policy. Sources call
/// `opened` and `fail`; `attemptDue` says whether a closed source should try to open now.
public struct SourceLifecycle {
    public var status: SourceStatus = .connecting
    public var policy: ReconnectPolicy
    public var counters = SourceCounters()
    /// Monotonic time of the last byte delivered (or of the open), for silence timeouts.
    var lastActivityNanoseconds: Int64 = 0

    public init(policy: ReconnectPolicy) { self.policy = policy }

    /// True when the source is closed and an open attempt is due at `now`.
    func attemptDue(nowNanoseconds now: Int64) -> Bool {
        switch status {
        case .connecting: return true
        case .waitingToReconnect(let at): return now >= at
        case .open, .finished, .failed: return false
        }
    }

    /// The deadline of the next open attempt when closed, `Int64.min` for "now".
    var retryDeadlineNanoseconds: Int64 {
        switch status {
        case .connecting: return .min
        case .waitingToReconnect(let at): return at
        case .open, .finished, .failed: return .max
        }
    }

    public mutating func opened(nowNanoseconds now: Int64) {
        status = .open
        counters.opens &+= 1
        policy.opened(nowNanoseconds: now)
        lastActivityNanoseconds = now
    }

    public mutating func delivered(_ count: Int, nowNanoseconds now: Int64) {
        counters.bytesRead &+= UInt64(count)
        lastActivityNanoseconds = now
    }

    /// Counts `error`, moves to `.failed` (permanent) or `.waitingToReconnect`, and returns the
    /// error for the caller to throw.
    mutating func fail(_ error: SourceError, nowNanoseconds now: Int64) -> SourceError {
        counters.record(error.kind)
        if error.isPermanent {
            status = .failed(error.kind)
        } else {
            status = .waitingToReconnect(retryAtNanoseconds: policy.failed(nowNanoseconds: now))
        }
        return error
    }

    public mutating func finish() { status = .finished }
}
