/// Decimal text for the exports: fixed decimals, never an exponent (XML Schema's `xsd:decimal` and
/// JSON both take `0.000012`, only JSON takes `1.2e-05`). Pure.
public enum TrackNumberText {
    /// `value` rounded to `decimals` places, trailing zeros removed ("12.5", "-0.000012", "3").
    public static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e18 else { return String(Int64(value.rounded())) }
        let n = UInt64(scaled)
        let whole = n / UInt64(scale), fraction = n % UInt64(scale)
        var text = (value < 0 && n != 0 ? "-" : "") + String(whole)
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: decimals - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text
    }
}
