#if canImport(Glibc)
import Glibc
#endif

/// The smoothing factor k = 1 − e^(−dt/τ) of a first-order low-pass filter `x += k·(u − x)`: exact
/// for any time step, so a filter behaves the same at 100 Hz and at 285.7 Hz, with jitter or after a
/// dropped sample. The exponential is computed only when the step or the time constant changes (the
/// step of an IMU repeats), so the hot path usually pays a comparison.
struct LowPassCoefficient: Sendable, Equatable {
    private var step = -1.0, timeConstant = -1.0, k = 1.0

    init() {}

    /// The last value returned.
    var lastValue: Double { k }

    /// k for a step of `dt` seconds and a time constant of `tau` seconds (1 when τ ≤ 0: no smoothing).
    @inline(__always)
    mutating func value(dt: Double, tau: Double) -> Double {
        if dt != step || tau != timeConstant {
            step = dt
            timeConstant = tau
            k = tau > 0 ? -expm1(-dt / tau) : 1
        }
        return k
    }
}
