/// The timed refusal after wrong console passwords, as a state rather than a pause: after the n-th
/// failure in a row every attempt is refused, without checking it, until `base · 2^(n−1)` (at most
/// `maximumDelayNanoseconds`) has passed; a right password clears it. Pure: monotonic time in,
/// nothing slept, nothing allocated.
public struct ConsoleLoginGate: Sendable, Equatable {
    /// The longest refusal, nanoseconds (60 s).
    public static let maximumDelayNanoseconds: Int64 = 60_000_000_000
    /// Failures since the last success.
    public private(set) var consecutiveFailures = 0
    /// Attempts refused because they came too early (never checked).
    public private(set) var refusedAttempts = 0
    /// Attempts are refused before this monotonic time.
    public private(set) var refusedUntilNanoseconds: Int64 = .min

    public init() {}

    /// nil when an attempt may be checked at `now`, else how long to wait, nanoseconds (counted).
    public mutating func wait(atNanoseconds now: Int64) -> Int64? {
        guard now < refusedUntilNanoseconds else { return nil }
        refusedAttempts += 1
        return refusedUntilNanoseconds - now
    }

    /// A wrong password at `now`: refuse for `baseDelayNanoseconds` doubled per earlier failure in a
    /// row. Returns the refusal, nanoseconds.
    @discardableResult
    public mutating func recordFailure(atNanoseconds now: Int64, baseDelayNanoseconds: Int64) -> Int64 {
        consecutiveFailures += 1
        var delay = max(1, min(baseDelayNanoseconds, Self.maximumDelayNanoseconds))
        var doublings = consecutiveFailures - 1
        while doublings > 0 && delay < Self.maximumDelayNanoseconds {   // ≤ 36 steps: no overflow
            delay = min(delay * 2, Self.maximumDelayNanoseconds)
            doublings -= 1
        }
        refusedUntilNanoseconds = now + delay                            // now: the loop's monotonic clock
        return delay
    }

    /// The right password: attempts are checked at once again.
    public mutating func recordSuccess() {
        consecutiveFailures = 0
        refusedUntilNanoseconds = .min
    }
}
