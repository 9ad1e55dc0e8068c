import Console

/// Decimal text for the exports, from puckd's one decimal formatter (Console's `OutputBuffer`, which the
/// console and the JSON lines use): fixed decimals, never an exponent (XML Schema's `xsd:decimal` and
/// JSON both take `0.000012`, only JSON takes `1.2e-05`), trailing zeros removed. Pure.
public enum TrackNumberText {
    /// `value` rounded half away from zero to `decimals` places (0…12), trailing zeros removed
    /// ("12.5", "-0.000012", "3"); "0" when it is not finite.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        var text = OutputBuffer(capacity: 40)
        text.append(value, decimals: decimals)
        var point = text.count
        while point > 0 && text[point - 1] != UInt8(ascii: ".") { point -= 1 }
        if point > 0 {   // trailing zeros after the point, then the point itself
            var end = text.count
            while end > point && text[end - 1] == UInt8(ascii: "0") { end -= 1 }
            text.truncate(to: end == point ? point - 1 : end)
        }
        return text.string
    }
}
