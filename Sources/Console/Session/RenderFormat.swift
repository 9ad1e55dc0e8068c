/// Small text-formatting pieces shared by the console views (allocation-free, into `OutputBuffer`).
/// Unknown values print as `-`; units follow the number after a space (`°` directly).
public enum RenderFormat {
    /// A number with at most `maximumDecimals` (0...9) digits after the point, trailing zeros removed
    /// (`25.5`, `0.1`, `60`).
    public static func compact(_ value: Double, maximumDecimals: Int = 3, to out: inout OutputBuffer) {
        guard value.isFinite else { out.append(value, decimals: 0); return }
        let d = min(max(maximumDecimals, 0), 9)
        var scale: Double = 1
        var k = 0
        while k < d { scale *= 10; k += 1 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e18 else { out.append(value, decimals: 0); return }
        let fixed = UInt64(scaled)
        let divisor = UInt64(scale)
        if value < 0 && fixed != 0 { out.append(UInt8(ascii: "-")) }
        out.append(uint: fixed / divisor)
        var fraction = fixed % divisor
        if fraction == 0 { return }
        var digits = d
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        out.append(UInt8(ascii: "."))
        out.append(uint: fraction, minimumDigits: digits)
    }

    /// `value` with `decimals` digits, or `-` when nil or not finite.
    public static func optional(_ value: Double?, decimals: Int, to out: inout OutputBuffer) {
        if let value, value.isFinite { out.append(value, decimals: decimals) } else { out.append(UInt8(ascii: "-")) }
    }

    /// `value` with `decimals` digits and ` unit`, or `-` when nil.
    public static func quantity(_ value: Double?, decimals: Int, unit: StaticString, to out: inout OutputBuffer) {
        if let value, value.isFinite {
            out.append(value, decimals: decimals)
            out.append(UInt8(ascii: " "))
            out.append(unit)
        } else {
            out.append(UInt8(ascii: "-"))
        }
    }

    /// An angle: `271.5°`, or `-`.
    public static func degrees(_ value: Double?, decimals: Int = 1, to out: inout OutputBuffer) {
        if let value, value.isFinite {
            out.append(value, decimals: decimals)
            out.append("\u{00B0}")
        } else {
            out.append(UInt8(ascii: "-"))
        }
    }

    /// An integer or `-`.
    public static func optional(_ value: Int?, to out: inout OutputBuffer) {
        if let value { out.append(int: value) } else { out.append(UInt8(ascii: "-")) }
    }

    /// `on` / `off`.
    public static func onOff(_ value: Bool, to out: inout OutputBuffer) { out.append(value ? "on" : "off") }

    /// `yes` / `no`.
    public static func yesNo(_ value: Bool, to out: inout OutputBuffer) { out.append(value ? "yes" : "no") }

    /// A duration as `3d 04:05:06` (days only when non-zero) from nanoseconds (negative → `-`).
    public static func duration(nanoseconds: Int64, to out: inout OutputBuffer) {
        guard nanoseconds >= 0 else { out.append(UInt8(ascii: "-")); return }
        let seconds = nanoseconds / 1_000_000_000
        let days = seconds / 86_400
        if days > 0 { out.append(int: days); out.append("d ") }
        out.append(uint: UInt64(seconds / 3600 % 24), minimumDigits: 2)
        out.append(UInt8(ascii: ":"))
        out.append(uint: UInt64(seconds / 60 % 60), minimumDigits: 2)
        out.append(UInt8(ascii: ":"))
        out.append(uint: UInt64(seconds % 60), minimumDigits: 2)
    }

    /// Seconds with `decimals` digits and ` s` from nanoseconds.
    public static func seconds(nanoseconds: Int64, decimals: Int = 1, to out: inout OutputBuffer) {
        out.append(Double(nanoseconds) / 1e9, decimals: decimals)
        out.append(" s")
    }

    /// A label padded with spaces to `width` columns (labels are ASCII), then the value follows.
    public static func label(_ text: StaticString, width: Int = 14, to out: inout OutputBuffer) {
        out.append(text)
        out.append(repeating: UInt8(ascii: " "), count: max(1, width - text.utf8CodeUnitCount))
    }

    /// Right-aligns an integer in `width` columns.
    public static func rightAligned(_ value: Int64, width: Int, to out: inout OutputBuffer) {
        var digits = value < 0 ? 2 : 1
        var v = value < 0 ? (value == Int64.min ? Int64.max : -value) : value
        while v >= 10 { v /= 10; digits += 1 }
        out.append(repeating: UInt8(ascii: " "), count: width - digits)
        out.append(int: value)
    }

    /// Right-aligns an integer in `width` columns, or `-` when absent.
    public static func rightAligned(_ value: Int64?, width: Int, to out: inout OutputBuffer) {
        if let value { rightAligned(value, width: width, to: &out) } else { rightAligned("-", width: width, to: &out) }
    }

    /// Right-aligns `text` (ASCII) in `width` columns.
    public static func rightAligned(_ text: StaticString, width: Int, to out: inout OutputBuffer) {
        out.append(repeating: UInt8(ascii: " "), count: width - text.utf8CodeUnitCount)
        out.append(text)
    }

    /// A latitude/longitude pair: `52.5219000 N 13.4132000 E` (7 decimals, 1 cm).
    public static func position(latitude: Double, longitude: Double, to out: inout OutputBuffer) {
        out.append(abs(latitude), decimals: 7)
        out.append(latitude < 0 ? " S " : " N ")
        out.append(abs(longitude), decimals: 7)
        out.append(longitude < 0 ? " W" : " E")
    }

    /// A fraction 0...1 as a whole percentage: `56 %`.
    public static func percent(_ fraction: Double, to out: inout OutputBuffer) {
        out.append(fraction * 100, decimals: 0)
        out.append(" %")
    }
}
