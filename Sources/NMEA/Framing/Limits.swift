/// Knots to metres per second (1 international knot = 1852 m / 3600 s).
let metersPerSecondPerKnot = 1852.0 / 3600.0

/// Physical limits used by the range checks (the parser's, and the fuzz harness's invariants).
public enum Limits {
    /// Altitude MSL accepted, metres (Dead Sea shore to a high-altitude balloon).
    public static let altitudeMeters: ClosedRange<Double> = -1_000...100_000
    /// 10 000 m/s in knots: faster than anything a GNSS receiver tracks (gpsd uses the same bound).
    public static let speedKnots = 10_000 / metersPerSecondPerKnot
    /// A day: older corrections are nonsense.
    public static let differentialAgeSeconds = 86_400.0
}
