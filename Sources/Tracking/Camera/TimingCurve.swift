/// An animation timing curve: maps elapsed fraction 0...1 to progress 0...1.
///
/// The cubic Bézier curves are solved as WebKit's/mbgl's `UnitBezier` (Newton steps, then bisection).
public enum TimingCurve: UInt8, Sendable, Equatable {
    /// Progress = elapsed fraction (`kCAMediaTimingFunctionLinear`; MapLibre follow eases, tracking.md 3.4, 4.4).
    case linear
    /// Core Animation's default curve (0.25, 0.1, 0.25, 1) (`kCAMediaTimingFunctionDefault`; halo, tracking.md 8.4).
    case ease
    /// UIKit ease-in-ease-out (0.42, 0, 0.58, 1) (Mapbox default viewport transition, tracking.md 10.9).
    case easeInOut
    /// mbgl's default transition ease (0, 0, 0.25, 1) (tracking.md 3.7; also the Mapbox pulse, tracking.md 10.3).
    case easeOut

    /// Progress at elapsed fraction `t` (clamped to 0...1).
    public func progress(_ t: Double) -> Double {
        if !(t > 0) { return 0 }
        if t >= 1 { return 1 }
        switch self {
        case .linear: return t
        case .ease: return UnitBezier.ease.solve(t)
        case .easeInOut: return UnitBezier.easeInOut.solve(t)
        case .easeOut: return UnitBezier.easeOut.solve(t)
        }
    }
}

/// A cubic Bézier from (0,0) to (1,1) with control points (x1,y1), (x2,y2).
struct UnitBezier {
    let cx, bx, ax, cy, by, ay: Double

    init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
    }

    static let ease = UnitBezier(0.25, 0.1, 0.25, 1)
    static let easeInOut = UnitBezier(0.42, 0, 0.58, 1)
    static let easeOut = UnitBezier(0, 0, 0.25, 1)

    @inline(__always) func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    @inline(__always) func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    @inline(__always) func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The curve parameter whose x is `x`, to within `epsilon`.
    func solveX(_ x: Double, epsilon: Double = 1e-6) -> Double {
        var t2 = x
        var i = 0
        while i < 8 {
            let x2 = sampleX(t2) - x
            if abs(x2) < epsilon { return t2 }
            let d2 = sampleDerivativeX(t2)
            if abs(d2) < 1e-6 { break }
            t2 -= x2 / d2
            i += 1
        }
        var t0 = 0.0, t1 = 1.0
        t2 = x
        if t2 < t0 { return t0 }
        if t2 > t1 { return t1 }
        while t0 < t1 {
            let x2 = sampleX(t2)
            if abs(x2 - x) < epsilon { return t2 }
            if x > x2 { t0 = t2 } else { t1 = t2 }
            t2 = (t1 - t0) * 0.5 + t0
            if t1 - t0 < 1e-12 { break }
        }
        return t2
    }

    /// y at x.
    func solve(_ x: Double) -> Double { sampleY(solveX(x)) }
}
