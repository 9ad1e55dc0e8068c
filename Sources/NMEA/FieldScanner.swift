/// Walks the comma-separated fields of one sentence body (`$TTSSS,f1,f2,…` without the checksum) and
/// decodes them in place, in the style of minmea: the caller owns the result structs, nothing is copied
/// or allocated. Every decoder returns nil for an empty field ("absent", never zero) and throws
/// `ParseFailure` for a field that is present but malformed or out of range.
///
/// Numbers are parsed as fixed-point integers (digits into an `Int64` mantissa plus a decimal scale),
/// never by converting the whole text to a `Double`, so latitude/longitude minutes keep every digit
/// the receiver sent (8 decimals = 18 µm of latitude).
struct FieldScanner {
    private let base: UnsafePointer<UInt8>
    private let end: Int
    /// Start of the next field; `end + 1` once every field has been taken.
    private var position: Int
    /// Start and end (exclusive) of the field taken last.
    private var fieldStart = 0
    private var fieldEnd = 0
    /// True once a field was taken past the last one (it read as empty).
    private(set) var ranPastEnd = false

    /// A scanner positioned after the address field of `body` (which starts at `$`).
    init(_ body: UnsafeBufferPointer<UInt8>) {
        base = body.baseAddress!
        end = body.count
        var p = 0
        while p < end && base[p] != 0x2C { p += 1 }
        position = p + 1
    }

    /// Number of data fields after the address field.
    var fieldCount: Int {
        var n = 0
        var p = 0
        while p < end { if base[p] == 0x2C { n += 1 }; p += 1 }
        return n
    }

    /// Fields not yet taken.
    var remainingFields: Int {
        if position > end { return 0 }
        var n = 1
        var p = position
        while p < end { if base[p] == 0x2C { n += 1 }; p += 1 }
        return n
    }

    /// Moves to the next field (an exhausted scanner yields empty fields). Returns its length.
    @discardableResult
    @inline(__always)
    mutating func advance() -> Int {
        if position > end {
            fieldStart = end
            fieldEnd = end
            ranPastEnd = true
            return 0
        }
        var p = position
        while p < end && base[p] != 0x2C { p += 1 }
        fieldStart = position
        fieldEnd = p
        position = p + 1
        return p - fieldStart
    }

    /// The next field's bytes (valid while the sentence is being parsed).
    mutating func rawField() -> UnsafeBufferPointer<UInt8> {
        let n = advance()
        return UnsafeBufferPointer(start: base + fieldStart, count: n)
    }

    /// Throws `tooFewFields` when a field taken so far did not exist: call it after the last field a
    /// sentence type requires (optional trailing fields after it simply read as empty).
    func requireFieldsPresent() throws(ParseFailure) {
        if ranPastEnd { throw .tooFewFields }
    }

    /// Skips `n` fields.
    mutating func skip(_ n: Int) { for _ in 0..<n { advance() } }

    // MARK: decoders (each takes the next field)

    /// A single character (`A`, `N`, `T` …), or nil when empty.
    mutating func character() throws(ParseFailure) -> UInt8? {
        let n = advance()
        if n == 0 { return nil }
        guard n == 1 else { throw .malformedField }
        return base[fieldStart]
    }

    /// An unsigned integer of at most `maxDigits` digits, or nil when empty.
    mutating func integer(maxDigits: Int = 9) throws(ParseFailure) -> Int? {
        advance()
        return try Self.integer(base, fieldStart, fieldEnd, maxDigits: maxDigits)
    }

    /// True while fields remain to be taken.
    var hasMoreFields: Bool { position <= end }

    /// Parses an unsigned integer of at most `maxDigits` digits between `start` and `stop`.
    @inline(__always)
    static func integer(_ base: UnsafePointer<UInt8>, _ start: Int, _ stop: Int, maxDigits: Int)
        throws(ParseFailure) -> Int? {
        let n = stop - start
        if n == 0 { return nil }
        guard n <= maxDigits else { throw .outOfRange }
        var value = 0
        var p = start
        while p < stop {
            let d = base[p] &- 0x30
            guard d < 10 else { throw .malformedField }
            value = value * 10 + Int(d)
            p += 1
        }
        return value
    }

    /// A decimal number `[+-]digits[.digits]`, or nil when empty. Up to 18 significant digits.
    mutating func decimal() throws(ParseFailure) -> Double? {
        if advance() == 0 { return nil }
        let v = try Self.fixedPoint(base, fieldStart, fieldEnd)
        return Double(v.mantissa) / Self.powerOfTen(v.scale)
    }

    /// A decimal number that must lie in `range`, or nil when empty.
    mutating func decimal(in range: ClosedRange<Double>) throws(ParseFailure) -> Double? {
        guard let v = try decimal() else { return nil }
        guard range.contains(v) else { throw .outOfRange }
        return v
    }

    /// A UTC time `hhmmss[.s…]` (second 60 only at 23:59), or nil when empty.
    mutating func time() throws(ParseFailure) -> UTCTimeOfDay? {
        let n = advance()
        if n == 0 { return nil }
        guard n >= 6 else { throw .malformedField }
        let h = try twoDigits(fieldStart), m = try twoDigits(fieldStart + 2), s = try twoDigits(fieldStart + 4)
        var nanos: Int64 = 0
        if n > 6 {
            guard base[fieldStart + 6] == 0x2E else { throw .malformedField }
            var p = fieldStart + 7
            var digits = 0
            while p < fieldEnd {
                let d = base[p] &- 0x30
                guard d < 10 else { throw .malformedField }
                if digits < 9 { nanos = nanos * 10 + Int64(d); digits += 1 }
                p += 1
            }
            while digits < 9 { nanos *= 10; digits += 1 }
        }
        guard h < 24, m < 60, s < 60 || (s == 60 && h == 23 && m == 59) else { throw .outOfRange }
        return UTCTimeOfDay(hour: h, minute: m, second: s, nanosecond: nanos)
    }

    /// An RMC date `ddmmyy` (two-digit year), or nil when empty.
    mutating func date() throws(ParseFailure) -> NMEADate? {
        let n = advance()
        if n == 0 { return nil }
        guard n == 6 else { throw .malformedField }
        let d = try twoDigits(fieldStart), m = try twoDigits(fieldStart + 2), y = try twoDigits(fieldStart + 4)
        guard m >= 1, m <= 12, d >= 1, d <= NMEADate.daysInMonth(m, year: y) else { throw .outOfRange }
        return NMEADate(year: y, month: m, day: d, hasCentury: false)
    }

    /// A latitude or longitude pair of fields (`ddmm.mmmm`,`N`), in degrees north/east, or nil when
    /// either field is empty. `maximumDegrees` is 90 for latitude, 180 for longitude. Minutes of 60 or
    /// more (e.g. MTK's `8960.000` "no fix" placeholder) are out of range.
    mutating func coordinate(maximumDegrees: Int) throws(ParseFailure) -> Double? {
        let n = advance()
        let start = fieldStart, stop = fieldEnd
        let hemisphere = try character()
        guard n > 0, let hemisphere else { return nil }
        let negative: Bool
        switch hemisphere {
        case 0x4E, 0x45: negative = false                 // N, E
        case 0x53, 0x57: negative = true                  // S, W
        default: throw .malformedField
        }
        guard maximumDegrees == 90 ? (hemisphere == 0x4E || hemisphere == 0x53)
                                   : (hemisphere == 0x45 || hemisphere == 0x57) else { throw .malformedField }
        // Integer part dddmm, then optional fraction of minutes.
        var integerPart = 0
        var p = start
        var integerDigits = 0
        while p < stop && base[p] != 0x2E {
            let d = base[p] &- 0x30
            guard d < 10 else { throw .malformedField }
            integerPart = integerPart * 10 + Int(d)
            integerDigits += 1
            guard integerDigits <= 6 else { throw .outOfRange }
            p += 1
        }
        guard integerDigits > 0 else { throw .malformedField }
        var fraction: Int64 = 0
        var scale = 0
        if p < stop {
            p += 1                                          // '.'
            while p < stop {
                let d = base[p] &- 0x30
                guard d < 10 else { throw .malformedField }
                if scale < 12 { fraction = fraction * 10 + Int64(d); scale += 1 }
                p += 1
            }
        }
        let degrees = integerPart / 100
        let wholeMinutes = integerPart % 100
        guard wholeMinutes < 60 else { throw .outOfRange }
        let scaledMinutes = Int64(wholeMinutes) * Int64(Self.powerOfTen(scale)) + fraction
        let value = Double(degrees) + Double(scaledMinutes) / (60 * Self.powerOfTen(scale))
        guard value <= Double(maximumDegrees) else { throw .outOfRange }
        return negative ? -value : value
    }

    // MARK: helpers

    @inline(__always)
    private func twoDigits(_ p: Int) throws(ParseFailure) -> Int {
        let a = base[p] &- 0x30, b = base[p + 1] &- 0x30
        guard a < 10, b < 10 else { throw .malformedField }
        return Int(a) * 10 + Int(b)
    }

    /// Parses `[+-]digits[.digits]` between `start` and `stop` into mantissa × 10^-scale.
    @inline(__always)
    static func fixedPoint(_ base: UnsafePointer<UInt8>, _ start: Int, _ stop: Int)
        throws(ParseFailure) -> (mantissa: Int64, scale: Int) {
        var p = start
        var negative = false
        if base[p] == 0x2D { negative = true; p += 1 } else if base[p] == 0x2B { p += 1 }
        var mantissa: Int64 = 0
        var digits = 0
        var scale = 0
        var seenPoint = false
        var anyDigit = false
        while p < stop {
            let c = base[p]
            if c == 0x2E {
                guard !seenPoint else { throw .malformedField }
                seenPoint = true
            } else {
                let d = c &- 0x30
                guard d < 10 else { throw .malformedField }
                anyDigit = true
                if digits < 18 {
                    mantissa = mantissa * 10 + Int64(d)
                    if mantissa != 0 { digits += 1 }
                    if seenPoint { scale += 1 }
                } else if !seenPoint {
                    throw .outOfRange                       // more than 18 integer digits
                }
                // Fraction digits beyond 18 significant digits are below Double precision: ignored.
            }
            p += 1
        }
        guard anyDigit else { throw .malformedField }
        return (negative ? -mantissa : mantissa, scale)
    }

    /// 10^n for 0 ≤ n ≤ 18, exact in `Double`.
    @inline(__always)
    static func powerOfTen(_ n: Int) -> Double {
        switch n {
        case 0: 1
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        default: 1e18
        }
    }
}
