import NMEA

/// A byte output that numbers and times are formatted into: puckd's one decimal and ISO 8601 formatter,
/// shared by the console's `OutputBuffer` and the uplink's `UplinkByteWriter` (docs/uplink.md §3), so a
/// number is spelled the same way in a console reply, a JSON line, an export and a published payload.
/// Nothing here allocates: digits go byte by byte into the sink, which owns its storage and its overflow rule.
public protocol TextByteSink: ~Copyable {
    /// Appends one byte (dropped and counted by the sink when it is full).
    mutating func append(_ byte: UInt8)
    /// Appends raw bytes (as many as fit; the sink counts or flags the rest).
    mutating func append(_ bytes: UnsafeRawBufferPointer)
}

/// 10^0 ... 10^12, the scales of `append(_:decimals:)` and `append(isoTime:)`.
@usableFromInline
let decimalPowersOfTen: InlineArray<13, Double> = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12]

extension TextByteSink where Self: ~Copyable {
    /// Appends the bytes of a static string.
    @inlinable
    public mutating func append(_ text: StaticString) {
        precondition(text.hasPointerRepresentation, "a TextByteSink needs a UTF-8 StaticString")
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a signed integer in decimal.
    @inlinable
    public mutating func append(int value: Int64) {
        if value < 0 {
            append(UInt8(ascii: "-"))
            append(uint: UInt64(bitPattern: 0 &- value))   // exact for Int64.min too
        } else {
            append(uint: UInt64(value))
        }
    }

    /// Appends a signed integer in decimal.
    @inlinable
    public mutating func append(int value: Int) { append(int: Int64(value)) }

    /// Appends an unsigned integer in decimal, left-padded with zeros to `minimumDigits`.
    @inlinable
    public mutating func append(uint value: UInt64, minimumDigits: Int = 1) {
        var digits: InlineArray<20, UInt8> = .init(repeating: 0)
        var n = 0
        var v = value
        repeat {
            digits[n] = UInt8(truncatingIfNeeded: v % 10) &+ 48
            v /= 10
            n += 1
        } while v != 0
        var pad = minimumDigits - n
        while pad > 0 { append(UInt8(ascii: "0")); pad -= 1 }
        while n > 0 { n -= 1; append(digits[n]) }
    }

    /// Appends `value` with exactly `decimals` digits after the point (0...12), rounded half away
    /// from zero, like printf's `%.Nf` for values of magnitude below 9.2e18 / 10^decimals.
    /// NaN and infinities are written as `nan`/`inf`/`-inf`; JSON writers use `append(jsonNumber:)`.
    @inlinable
    public mutating func append(_ value: Double, decimals: Int) {
        let d = min(max(decimals, 0), 12)
        if value.isNaN { append("nan"); return }
        if value.isInfinite { append(value < 0 ? "-inf" : "inf"); return }
        let scale = decimalPowersOfTen[d]
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        if scaled >= 9.2e18 {
            // Too large for fixed point: integer part only (never reached by puckd's values).
            if value < 0 { append(UInt8(ascii: "-")) }
            append(uint: UInt64(min(abs(value), 1.8e19)))
            return
        }
        let fixed = UInt64(scaled)
        if value < 0 && fixed != 0 { append(UInt8(ascii: "-")) }
        let divisor = UInt64(scale)
        append(uint: fixed / divisor)
        if d > 0 {
            append(UInt8(ascii: "."))
            append(uint: fixed % divisor, minimumDigits: d)
        }
    }

    /// Appends a JSON number with `decimals` digits, or `null` when the value is not finite.
    @inlinable
    public mutating func append(jsonNumber value: Double, decimals: Int) {
        if value.isFinite { append(value, decimals: decimals) } else { append("null") }
    }

    /// Appends a UTC time as ISO 8601 `YYYY-MM-DDTHH:MM:SS.fffZ` with `fractionDigits` (0...9) digits,
    /// from nanoseconds since 1970-01-01T00:00:00Z (proleptic Gregorian calendar, no leap seconds).
    @inlinable
    public mutating func append(isoTime utcNanoseconds: Int64, fractionDigits: Int = 3) {
        let digitsWanted = min(max(fractionDigits, 0), 9)
        var seconds = utcNanoseconds / 1_000_000_000
        var nanos = utcNanoseconds % 1_000_000_000
        if nanos < 0 { nanos += 1_000_000_000; seconds -= 1 }
        // Round the fraction to the digits wanted.
        let unit = Int64(decimalPowersOfTen[9 - digitsWanted])
        var fraction = (nanos + unit / 2) / unit
        if fraction >= Int64(decimalPowersOfTen[digitsWanted]) {
            fraction = 0
            seconds += 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        let (year, month, day) = CivilDate.fromDaysSinceEpoch(days)
        append(int: year)
        append(UInt8(ascii: "-")); append(uint: UInt64(month), minimumDigits: 2)
        append(UInt8(ascii: "-")); append(uint: UInt64(day), minimumDigits: 2)
        append(UInt8(ascii: "T")); append(uint: UInt64(secondOfDay / 3600), minimumDigits: 2)
        append(UInt8(ascii: ":")); append(uint: UInt64(secondOfDay / 60 % 60), minimumDigits: 2)
        append(UInt8(ascii: ":")); append(uint: UInt64(secondOfDay % 60), minimumDigits: 2)
        if digitsWanted > 0 {
            append(UInt8(ascii: "."))
            append(uint: UInt64(fraction), minimumDigits: digitsWanted)
        }
        append(UInt8(ascii: "Z"))
    }
}
