/// Walks the comma-separated fields of one sentence body (`$TTSSS,f1,f2,…` without the checksum) and
/// decodes them in place, in the style of minmea: the caller owns the result structs, nothing is copied
/// or allocated. Every decoder returns nil for an empty field ("absent", never zero); a field that is
/// present but malformed or out of range also reads as nil and records the first `failure`, which
/// rejects the sentence. (Recording instead of throwing keeps the error path as cheap as the normal
/// one, and allocation-free even under a test harness that captures a backtrace per thrown error.)
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
    /// The first problem found, or nil while every field decoded.
    private(set) var failure: ParseFailure?

    /// A scanner positioned after the address field of `body` (which starts at `$`).
    init(_ body: UnsafeBufferPointer<UInt8>) {
        base = body.baseAddress!
        end = body.count
        var p = 0
        while p < end && base[p] != 0x2C { p += 1 }
        position = p + 1
    }

    /// Records `problem` unless an earlier one was recorded.
    @inline(__always)
    mutating func fail(_ problem: ParseFailure) {
        if failure == nil { failure = problem }
    }

    /// Fields not yet taken.
    var remainingFields: Int {
        if position > end { return 0 }
        var n = 1
        var p = position
        while p < end { if base[p] == 0x2C { n += 1 }; p += 1 }
        return n
    }

    /// True while fields remain to be taken.
    var hasMoreFields: Bool { position <= end }

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

    /// Records `tooFewFields` when a field taken so far did not exist: call it after the last field a
    /// sentence type requires (optional trailing fields after it simply read as empty).
    mutating func requireFieldsPresent() {
        if ranPastEnd { fail(.tooFewFields) }
    }

    /// Skips `n` fields.
    mutating func skip(_ n: Int) { for _ in 0..<n { advance() } }

    // MARK: decoders (each takes the next field)

    /// A single character (`A`, `N`, `T` …), or nil when empty.
    @inline(__always)
    mutating func character() -> UInt8? {
        let n = advance()
        if n == 0 { return nil }
        guard n == 1 else { fail(.malformedField); return nil }
        return base[fieldStart]
    }

    /// An unsigned integer of at most `maxDigits` digits, or nil when empty.
    @inline(__always)
    mutating func integer(maxDigits: Int = 9) -> Int? {
        // One pass: find the field's end and accumulate digits together (wrapping arithmetic; a
        // field longer than maxDigits is rejected afterwards).
        guard position <= end else { return exhausted() }
        let start = position
        var p = start
        var value = 0
        var bad = false
        while p < end {
            let c = base[p]
            if c == 0x2C { break }
            let d = c &- 0x30
            if d < 10 { value = value &* 10 &+ Int(d) } else { bad = true }
            p += 1
        }
        fieldStart = start
        fieldEnd = p
        position = p + 1
        let n = p - start
        if n == 0 { return nil }
        if bad { fail(.malformedField); return nil }
        if n > maxDigits { fail(.outOfRange); return nil }
        return value
    }

    /// A signed whole number of degrees (GSV elevation: `-5`, `45`, `45.5` → 46), or nil when empty.
    mutating func wholeDegrees(in range: ClosedRange<Int>) -> Int? {
        let before = failure
        var value = integer(maxDigits: 3)
        if value == nil && failure != before {
            // Not a plain unsigned integer: retry the same field as a decimal (sign, fraction).
            failure = before
            guard let d = fixedPoint(fieldStart, fieldEnd) else { return nil }
            value = Int((Double(d.mantissa) / Self.powerOfTen(d.scale)).rounded())
        }
        guard let value else { return nil }
        guard range.contains(value) else { fail(.outOfRange); return nil }
        return value
    }

    /// The empty value of a field past the last one (records `ranPastEnd`).
    @inline(__always)
    private mutating func exhausted<T>() -> T? {
        fieldStart = end
        fieldEnd = end
        ranPastEnd = true
        return nil
    }

    /// Parses `field` as an unsigned integer of at most `maxDigits` digits (nil when empty).
    @inline(__always)
    mutating func integer(_ field: UnsafeBufferPointer<UInt8>, maxDigits: Int) -> Int? {
        let n = field.count
        if n == 0 { return nil }
        guard n <= maxDigits else { fail(.outOfRange); return nil }
        var value = 0
        for i in 0..<n {
            let d = field[i] &- 0x30
            guard d < 10 else { fail(.malformedField); return nil }
            value = value * 10 + Int(d)
        }
        return value
    }

    /// A decimal number `[+-]digits[.digits]`, or nil when empty. Up to 18 significant digits.
    @inline(__always)
    mutating func decimal() -> Double? {
        // Fast path: unsigned digits with an optional point, parsed while finding the field's end.
        guard position <= end else { return exhausted() }
        let start = position
        var p = start
        var mantissa: Int64 = 0
        var digits = 0
        var scale = 0
        var seenPoint = false
        var simple = true
        while p < end {
            let c = base[p]
            if c == 0x2C { break }
            let d = c &- 0x30
            if d < 10 {
                mantissa = mantissa &* 10 &+ Int64(d)
                digits += 1
                if seenPoint { scale += 1 }
            } else if c == 0x2E && !seenPoint {
                seenPoint = true
            } else {
                simple = false
            }
            p += 1
        }
        fieldStart = start
        fieldEnd = p
        position = p + 1
        if p == start { return nil }
        if simple && digits > 0 && digits <= 15 {
            return Double(mantissa) / Self.powerOfTen(scale)
        }
        // Signs, long digit strings and malformed fields take the careful path.
        guard let v = fixedPoint(start, p) else { return nil }
        return Double(v.mantissa) / Self.powerOfTen(v.scale)
    }

    /// A decimal number that must lie in `range`, or nil when empty.
    mutating func decimal(in range: ClosedRange<Double>) -> Double? {
        guard let v = decimal() else { return nil }
        guard range.contains(v) else { fail(.outOfRange); return nil }
        return v
    }

    /// A UTC time `hhmmss[.s…]` (second 60 only at 23:59), or nil when empty.
    mutating func time() -> UTCTimeOfDay? {
        let n = advance()
        if n == 0 { return nil }
        guard n >= 6, let h = twoDigits(fieldStart), let m = twoDigits(fieldStart + 2),
              let s = twoDigits(fieldStart + 4) else { fail(.malformedField); return nil }
        var nanos: Int64 = 0
        if n > 6 {
            guard base[fieldStart + 6] == 0x2E else { fail(.malformedField); return nil }
            var p = fieldStart + 7
            var digits = 0
            while p < fieldEnd {
                let d = base[p] &- 0x30
                guard d < 10 else { fail(.malformedField); return nil }
                if digits < 9 { nanos = nanos * 10 + Int64(d); digits += 1 }
                p += 1
            }
            while digits < 9 { nanos *= 10; digits += 1 }
        }
        guard h < 24, m < 60, s < 60 || (s == 60 && h == 23 && m == 59) else { fail(.outOfRange); return nil }
        return UTCTimeOfDay(hour: h, minute: m, second: s, nanosecond: nanos)
    }

    /// An RMC date `ddmmyy` (two-digit year), or nil when empty.
    mutating func date() -> NMEADate? {
        let n = advance()
        if n == 0 { return nil }
        guard n == 6, let d = twoDigits(fieldStart), let m = twoDigits(fieldStart + 2),
              let y = twoDigits(fieldStart + 4) else { fail(.malformedField); return nil }
        guard m >= 1, m <= 12, d >= 1, d <= NMEADate.daysInMonth(m, year: y) else { fail(.outOfRange); return nil }
        return NMEADate(year: y, month: m, day: d, hasCentury: false)
    }

    /// A latitude or longitude pair of fields (`ddmm.mmmm`,`N`), in degrees north/east, or nil when
    /// either field is empty. `maximumDegrees` is 90 for latitude, 180 for longitude. Minutes of 60 or
    /// more are out of range, except MTK's `8960.000` "no fix" placeholder, which reads as absent.
    mutating func coordinate(maximumDegrees: Int) -> Double? {
        let n = advance()
        let start = fieldStart, stop = fieldEnd
        let hemisphere = character()
        guard n > 0, let hemisphere else { return nil }
        let negative: Bool
        switch hemisphere {
        case 0x4E where maximumDegrees == 90, 0x45 where maximumDegrees == 180: negative = false   // N, E
        case 0x53 where maximumDegrees == 90, 0x57 where maximumDegrees == 180: negative = true    // S, W
        default: fail(.malformedField); return nil
        }
        // Integer part dddmm, then optional fraction of minutes.
        var integerPart = 0
        var p = start
        var integerDigits = 0
        while p < stop && base[p] != 0x2E {
            let d = base[p] &- 0x30
            guard d < 10 else { fail(.malformedField); return nil }
            integerPart = integerPart * 10 + Int(d)
            integerDigits += 1
            guard integerDigits <= 6 else { fail(.outOfRange); return nil }
            p += 1
        }
        guard integerDigits > 0 else { fail(.malformedField); return nil }
        var fraction: Int64 = 0
        var scale = 0
        if p < stop {
            p += 1                                          // '.'
            while p < stop {
                let d = base[p] &- 0x30
                guard d < 10 else { fail(.malformedField); return nil }
                if scale < 12 { fraction = fraction * 10 + Int64(d); scale += 1 }
                p += 1
            }
        }
        let degrees = integerPart / 100
        let wholeMinutes = integerPart % 100
        // MTK receivers send 89°60' ("8960.000,N") as a "no fix" placeholder: no position, not an error.
        if maximumDegrees == 90 && degrees == 89 && wholeMinutes == 60 && fraction == 0 { return nil }
        guard wholeMinutes < 60 else { fail(.outOfRange); return nil }
        let scaledMinutes = Int64(wholeMinutes) * Int64(Self.powerOfTen(scale)) + fraction
        let value = Double(degrees) + Double(scaledMinutes) / (60 * Self.powerOfTen(scale))
        guard value <= Double(maximumDegrees) else { fail(.outOfRange); return nil }
        return negative ? -value : value
    }

    // MARK: helpers

    @inline(__always)
    private func twoDigits(_ p: Int) -> Int? {
        let a = base[p] &- 0x30, b = base[p + 1] &- 0x30
        guard a < 10, b < 10 else { return nil }
        return Int(a) * 10 + Int(b)
    }

    /// Parses `[+-]digits[.digits]` between `start` and `stop` into mantissa × 10^-scale.
    @inline(__always)
    private mutating func fixedPoint(_ start: Int, _ stop: Int) -> (mantissa: Int64, scale: Int)? {
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
                guard !seenPoint else { fail(.malformedField); return nil }
                seenPoint = true
            } else {
                let d = c &- 0x30
                guard d < 10 else { fail(.malformedField); return nil }
                anyDigit = true
                if digits < 18 {
                    mantissa = mantissa * 10 + Int64(d)
                    if mantissa != 0 { digits += 1 }
                    if seenPoint { scale += 1 }
                } else if !seenPoint {
                    fail(.outOfRange)                       // more than 18 integer digits
                    return nil
                }
                // Fraction digits beyond 18 significant digits are below Double precision: ignored.
            }
            p += 1
        }
        guard anyDigit else { fail(.malformedField); return nil }
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
