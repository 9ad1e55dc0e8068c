import Glibc

/// Angle helpers: degrees clockwise from north, wrapped to 0..<360, shortest arcs (tracking.md 12.7, 10.12).
public enum Angles {
    /// `degrees` wrapped to 0..<360.
    @inline(__always)
    public static func wrap360(_ degrees: Double) -> Double {
        var d = fmod(degrees, 360)
        if d < 0 { d += 360 }
        if d >= 360 { d -= 360 }
        return d + 0.0   // turns −0.0 into +0.0
    }

    /// Longitude wrapped to −180..<180 (180 maps to −180 only when it came from outside the range).
    @inline(__always)
    public static func wrapLongitude(_ degrees: Double) -> Double {
        if degrees >= -180 && degrees <= 180 { return degrees }
        var d = fmod(degrees + 180, 360)
        if d < 0 { d += 360 }
        return d - 180
    }

    /// Signed shortest rotation from `from` to `to`, degrees in −180...180 (Android `shortestRotation`,
    /// Mapbox `shouldOptimizeBearingPath`: Δ ≥ 180 → −360, Δ ≤ −180 → +360).
    @inline(__always)
    public static func shortestDelta(from: Double, to: Double) -> Double {
        var delta = fmod(to - from, 360)
        if delta >= 180 { delta -= 360 }
        if delta < -180 { delta += 360 }
        return delta
    }

    /// Interpolates along the shortest arc from `from` to `to` (fraction 0...1), wrapped to 0..<360.
    @inline(__always)
    public static func interpolateShortest(from: Double, to: Double, fraction: Double) -> Double {
        wrap360(from + shortestDelta(from: from, to: to) * fraction)
    }
}
