/// The words of one command line: up to `capacity` runs of non-blank bytes (blank = space or tab),
/// kept as offsets into the line so nothing is copied. Words past the capacity are counted in
/// `overflow` (the parser reports them as unexpected).
public struct CommandTokens {
    /// Maximum number of words recorded.
    public static let capacity = 16

    private var starts = InlineArray<16, Int>(repeating: 0)
    private var ends = InlineArray<16, Int>(repeating: 0)
    /// Number of words recorded.
    public private(set) var count = 0
    /// Words beyond `capacity`.
    public private(set) var overflow = 0
    /// The line the words point into.
    public let line: UnsafeRawBufferPointer

    /// Splits `line` (valid while the tokens are used).
    public init(_ line: UnsafeRawBufferPointer) {
        self.line = line
        var i = 0
        while i < line.count {
            while i < line.count && Self.isBlank(line[i]) { i += 1 }
            if i == line.count { break }
            let start = i
            while i < line.count && !Self.isBlank(line[i]) { i += 1 }
            if count < Self.capacity {
                starts[count] = start
                ends[count] = i
                count += 1
            } else {
                overflow += 1
            }
        }
    }

    @inline(__always)
    static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }

    /// The word at `index` (0 ..< count).
    public subscript(index: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: line[starts[index]..<ends[index]])
    }

    /// Everything from the start of word `index` to the end of the line, trailing blanks removed.
    public func rest(from index: Int) -> UnsafeRawBufferPointer {
        var end = line.count
        while end > starts[index] && Self.isBlank(line[end - 1]) { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: line[starts[index]..<end])
    }
}

/// Parses decimal numbers as typed on the console (`12`, `-0.5`, `+3.`, `.25`, `1e3`) without
/// `String`. Up to 18 significant digits are used; more digits are rounded away. `nan`/`inf` are not
/// numbers.
public enum CommandNumber {
    /// The value of `word`, or nil when it is not a decimal number.
    public static func parse(_ word: UnsafeRawBufferPointer) -> Double? {
        var i = 0
        var negative = false
        if i < word.count && (word[i] == UInt8(ascii: "-") || word[i] == UInt8(ascii: "+")) {
            negative = word[i] == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var digits = 0
        while i < word.count && ConsoleASCII.isDigit(word[i]) {
            accumulate(word[i], &mantissa, &significant, &exponent, fraction: false)
            digits += 1
            i += 1
        }
        if i < word.count && word[i] == UInt8(ascii: ".") {
            i += 1
            while i < word.count && ConsoleASCII.isDigit(word[i]) {
                accumulate(word[i], &mantissa, &significant, &exponent, fraction: true)
                digits += 1
                i += 1
            }
        }
        guard digits > 0 else { return nil }
        if i < word.count && (word[i] == UInt8(ascii: "e") || word[i] == UInt8(ascii: "E")) {
            i += 1
            var negativeExponent = false
            if i < word.count && (word[i] == UInt8(ascii: "-") || word[i] == UInt8(ascii: "+")) {
                negativeExponent = word[i] == UInt8(ascii: "-")
                i += 1
            }
            var e = 0
            var exponentDigits = 0
            while i < word.count && ConsoleASCII.isDigit(word[i]) {
                if e < 10_000 { e = e * 10 + Int(word[i] - 0x30) }
                exponentDigits += 1
                i += 1
            }
            guard exponentDigits > 0 else { return nil }
            exponent += negativeExponent ? -e : e
        }
        guard i == word.count else { return nil }
        var value = Double(mantissa)
        if mantissa != 0 {
            // Exact powers of ten up to 1e22 keep one correctly rounded operation for common inputs.
            var e = exponent
            while e > 0 { let step = min(e, 22); value *= powerOfTen(step); e -= step }
            while e < 0 { let step = min(-e, 22); value /= powerOfTen(step); e += step }
        }
        return negative ? -value : value
    }

    private static func accumulate(_ digit: UInt8, _ mantissa: inout UInt64, _ significant: inout Int,
                                   _ exponent: inout Int, fraction: Bool) {
        let d = UInt64(digit - 0x30)
        if significant < 18 {
            if mantissa != 0 || d != 0 { significant += 1 }
            mantissa = mantissa * 10 + d
            if fraction { exponent -= 1 }
        } else if !fraction {
            exponent += 1   // integer digits past the precision still scale the value
        }
    }

    private static func powerOfTen(_ n: Int) -> Double {
        var p: Double = 1
        var k = 0
        while k < n { p *= 10; k += 1 }
        return p
    }
}
