/// Reconnect delays: exponential from `base` to `maximum`, each drawn uniformly from the upper half of
/// its step ("equal jitter") with a seeded SplitMix64, so a fleet restarted together does not reconnect
/// in lockstep and a test sees the same delays for the same seed. docs/uplink.md §5.
public struct ReconnectBackoff: Sendable {
    public let baseNanoseconds: Int64
    public let maximumNanoseconds: Int64
    /// Failed attempts since the last good connection.
    public private(set) var failures = 0
    private var state: UInt64

    public init(seed: UInt64, baseSeconds: Int = 1, maximumSeconds: Int = 300) {
        state = seed
        baseNanoseconds = Int64(baseSeconds) * 1_000_000_000
        maximumNanoseconds = Int64(maximumSeconds) * 1_000_000_000
    }

    /// SplitMix64 (Steele, Lea, Flood 2014): the next 64 random bits.
    public mutating func nextRandom() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A connection attempt failed (refused, timed out, rejected by the broker): the wait before the next.
    public mutating func failed() -> Int64 {
        var step = baseNanoseconds
        var k = 0
        while k < failures && step < maximumNanoseconds { step *= 2; k += 1 }
        step = min(step, maximumNanoseconds)
        failures += 1
        let half = step / 2
        return half + Int64(nextRandom() % UInt64(max(half, 1) + 1))
    }

    /// A connection worked (CONNACK accepted, or an HTTP 2xx): the next failure waits `base` again.
    public mutating func succeeded() { failures = 0 }
}
