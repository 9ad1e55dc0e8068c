/// A number as text with a fixed count of decimals, rounded half away from zero ("-2.50"), for
/// reports built once (start-up, reload, recordings); the loop's own formatter is `OutputBuffer`'s.
public enum DecimalText {
    /// `value` with `digits` decimals; Swift's own spelling when not finite or beyond Int64.
    public static func string(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value * scale).rounded()
        // Not finite or beyond Int64 (a report of a hostile file's figures): Swift's own spelling.
        guard scaled.isFinite, abs(scaled) < 9e18 else { return String(value) }
        let magnitude = Int64(abs(scaled))
        let whole = String(magnitude / Int64(scale))
        guard digits > 0 else { return (scaled < 0 ? "-" : "") + whole }
        let fraction = String(magnitude % Int64(scale))
        return (scaled < 0 ? "-" : "") + whole + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
}
