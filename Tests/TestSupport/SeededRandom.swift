#if canImport(Glibc)
import Glibc
#endif

/// SplitMix64: a small deterministic random generator (same seed → same sequence on every platform)
/// for fuzz tests and synthetic fixtures, with uniform and Gaussian draws.
public struct SeededRandom: Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }
    public init(state: UInt64) { self.state = state }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0 ..< n (0 when n ≤ 1).
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    /// Uniform in [0, 1).
    public mutating func uniform() -> Double { Double(next() >> 11) * (1.0 / 9_007_199_254_740_992) }
    /// Uniform in [a, b).
    public mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * uniform() }
    /// Standard normal (Box–Muller).
    public mutating func gaussian() -> Double {
        let u = max(uniform(), 1e-300), v = uniform()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}
