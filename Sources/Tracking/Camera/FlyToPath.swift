import Glibc

/// The van Wijk & Nuij "optimal path" of mbgl's `Transform::flyTo` (tracking.md 3.3, 3.4): zooms out and
/// back in while panning so the motion feels constant. All spans are in points at the start zoom.
///
/// With `linearZoom` (mbgl's easeTo-with-duration, tracking.md 3.4) zoom moves linearly in time and ρ is
/// chosen as √(2·w_max / u₁) so there is no exaggerated zoom-out.
struct FlyToPath: Sendable, Equatable {
    /// ρ: the zoom/pan trade-off of the user study (tracking.md 3.3): **1.42**.
    static let defaultCurve = 1.42
    /// V: average speed in ρ-screenfuls per second (tracking.md 3.3): **1.2**.
    static let defaultVelocity = 1.2

    let startZoom: Double
    let endZoom: Double
    let linearZoom: Bool
    let rho: Double
    let r0: Double
    let w0: Double
    let u1: Double
    let isClose: Bool
    let isWidening: Bool
    /// S: total path length, ρ-screenfuls.
    let length: Double

    /// - Parameters:
    ///   - start, end: world-unit centres (end already unwrapped for the shortest path).
    ///   - viewportSpanPoints: w₀ = max(width − left − right, height − top − bottom) of the target padding.
    init(start: MercatorPoint, end: MercatorPoint, startZoom: Double, endZoom: Double,
         viewportSpanPoints: Double, linearZoom: Bool) {
        self.startZoom = startZoom
        self.endZoom = endZoom
        self.linearZoom = linearZoom
        let worldSize = WebMercator.worldSizePoints(zoom: startZoom)
        let dx = (end.x - start.x) * worldSize, dy = (end.y - start.y) * worldSize
        let w0 = max(viewportSpanPoints, 1)
        let w1 = w0 / exp2(endZoom - startZoom)
        let u1 = (dx * dx + dy * dy).squareRoot()
        var rho = FlyToPath.defaultCurve
        if linearZoom {
            let minZoom = min(startZoom, endZoom)
            let wMax = w0 / exp2(minZoom - startZoom)
            rho = u1 != 0 ? (wMax / u1 * 2).squareRoot() : 1.0
        }
        let rho2 = rho * rho
        func r(_ i: Double) -> Double {
            let descending = i != 0
            let b = (w1 * w1 - w0 * w0 + (descending ? -1 : 1) * rho2 * rho2 * u1 * u1)
                / (2 * (descending ? w1 : w0) * rho2 * u1)
            return log((b * b + 1).squareRoot() - b)
        }
        let r0 = u1 != 0 ? r(0) : Double.infinity
        let r1 = u1 != 0 ? r(1) : Double.infinity
        let isClose = abs(u1) < 0.000001 || !r0.isFinite || !r1.isFinite
        self.rho = rho
        self.r0 = r0
        self.w0 = w0
        self.u1 = u1
        self.isClose = isClose
        self.isWidening = w1 < w0
        self.length = isClose ? abs(log(w1 / w0)) / rho : (r1 - r0) / rho
    }

    /// Duration at the default speed V = 1.2 ρ-screenfuls per second: S / V, seconds.
    var durationSeconds: Double { length.isFinite ? length / FlyToPath.defaultVelocity : 0 }

    /// w(s): visible span relative to the start (1 at s = 0).
    @inline(__always)
    func span(_ s: Double) -> Double {
        isClose ? exp((isWidening ? -1 : 1) * rho * s) : cosh(r0) / cosh(r0 + rho * s)
    }

    /// u(s) / u₁: fraction of the ground distance covered.
    @inline(__always)
    func distanceFraction(_ s: Double) -> Double {
        isClose ? 0 : w0 * (cosh(r0) * tanh(r0 + rho * s) - sinh(r0)) / (rho * rho) / u1
    }

    /// Centre fraction and zoom at animation progress `t` (0...1, after easing).
    func evaluate(_ t: Double) -> (centerFraction: Double, zoom: Double) {
        if t >= 1 { return (1, endZoom) }
        let s = t * length
        let fraction = isClose ? 0 : distanceFraction(s)
        var zoom = linearZoom ? startZoom + (endZoom - startZoom) * t : startZoom + log2(1 / span(s))
        if zoom.isNaN { zoom = endZoom }
        return (fraction.isFinite ? fraction : t, zoom)
    }
}
