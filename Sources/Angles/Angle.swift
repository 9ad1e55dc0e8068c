/// Angles in degrees (clockwise from north for bearings) and radians: the one place puckd wraps,
/// compares and converts them (tracking.md 12.7, 10.12). Pure, allocation-free, inlinable.
public enum Angle {
    /// π / 180: multiply degrees by it for radians.
    public static let radiansPerDegree = Double.pi / 180
    /// 180 / π: multiply radians by it for degrees.
    public static let degreesPerRadian = 180 / Double.pi

    /// `degrees` wrapped to 0 ..< 360. Never −0.0 (a bearing of −0.0 reads "-0" in text and JSON):
    /// −0.0, 0, 360 and 720 all give +0.0; a tiny negative angle that rounds to 360 gives 0.
    @inline(__always)
    public static func wrap360(_ degrees: Double) -> Double {
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d < 0 { d += 360 }
        if d >= 360 { d -= 360 }
        return d + 0.0   // turns −0.0 into +0.0
    }

    /// `degrees` wrapped to −180 ..< 180 via `wrap360(degrees + 180) − 180`: the signed difference of
    /// two headings as the fusion filter computes it (see `shortestDelta` for bearings).
    @inline(__always)
    public static func wrap180(_ degrees: Double) -> Double {
        wrap360(degrees + 180) - 180
    }

    /// Longitude wrapped to −180..<180 (180 maps to −180 only when it came from outside the range).
    @inline(__always)
    public static func wrapLongitude(_ degrees: Double) -> Double {
        if degrees >= -180 && degrees <= 180 { return degrees }
        var d = (degrees + 180).truncatingRemainder(dividingBy: 360)
        if d < 0 { d += 360 }
        return d - 180
    }

    /// Signed shortest rotation from `from` to `to`, degrees in −180...180 (Android `shortestRotation`,
    /// Mapbox `shouldOptimizeBearingPath`: Δ ≥ 180 → −360, Δ ≤ −180 → +360).
    @inline(__always)
    public static func shortestDelta(from: Double, to: Double) -> Double {
        var delta = (to - from).truncatingRemainder(dividingBy: 360)
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
