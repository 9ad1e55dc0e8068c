/// Writes the members of one JSON object into an `OutputBuffer`, inserting the commas. Strings are
/// escaped (quote, backslash, control bytes) and invalid UTF-8 becomes U+FFFD, so any bytes (fault
/// reasons, config values) give valid JSON. Numbers are fixed-point; non-finite numbers and nil are
/// `null`. Allocation-free.
///
///     var o = JSONWriter.begin(&out)        // {
///     o.number("zoom", 16.35, decimals: 4, &out)
///     o.end(&out)                           // }
public struct JSONWriter {
    private var needsComma = false

    /// Writes `{` and returns a writer for the members.
    public static func begin(_ out: inout OutputBuffer) -> JSONWriter {
        out.append(UInt8(ascii: "{"))
        return JSONWriter()
    }

    /// Writes `}`.
    public func end(_ out: inout OutputBuffer) { out.append(UInt8(ascii: "}")) }

    /// Writes `,"name":` (the value follows).
    public mutating func key(_ name: StaticString, _ out: inout OutputBuffer) {
        if needsComma { out.append(UInt8(ascii: ",")) }
        needsComma = true
        out.append(UInt8(ascii: "\""))
        out.append(name)
        out.append("\":")
    }

    /// A number with `decimals` digits, or `null`.
    public mutating func number(_ name: StaticString, _ value: Double?, decimals: Int, _ out: inout OutputBuffer) {
        key(name, &out)
        if let value { out.append(jsonNumber: value, decimals: decimals) } else { out.append("null") }
    }

    /// An integer, or `null`.
    public mutating func integer(_ name: StaticString, _ value: Int64?, _ out: inout OutputBuffer) {
        key(name, &out)
        if let value { out.append(int: value) } else { out.append("null") }
    }

    /// An integer, or `null`.
    public mutating func integer(_ name: StaticString, _ value: Int?, _ out: inout OutputBuffer) {
        integer(name, value.map { Int64($0) }, &out)
    }

    /// `true` / `false`.
    public mutating func bool(_ name: StaticString, _ value: Bool, _ out: inout OutputBuffer) {
        key(name, &out)
        out.append(value ? "true" : "false")
    }

    /// A string from a static string (escaped).
    public mutating func string(_ name: StaticString, _ value: StaticString, _ out: inout OutputBuffer) {
        key(name, &out)
        JSONWriter.string(value, &out)
    }

    /// A string from a static string, or `null`.
    public mutating func string(_ name: StaticString, _ value: StaticString?, _ out: inout OutputBuffer) {
        key(name, &out)
        if let value { JSONWriter.string(value, &out) } else { out.append("null") }
    }

    /// A string from console text (escaped, invalid UTF-8 replaced).
    public mutating func text(_ name: StaticString, _ value: borrowing ConsoleText, _ out: inout OutputBuffer) {
        key(name, &out)
        value.withBytes { JSONWriter.string($0, &out) }
    }

    /// `null`.
    public mutating func null(_ name: StaticString, _ out: inout OutputBuffer) {
        key(name, &out)
        out.append("null")
    }

    // MARK: strings

    /// A quoted, escaped JSON string from a static string.
    public static func string(_ value: StaticString, _ out: inout OutputBuffer) {
        string(UnsafeRawBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount), &out)
    }

    /// A quoted, escaped JSON string from arbitrary bytes.
    public static func string(_ bytes: UnsafeRawBufferPointer, _ out: inout OutputBuffer) {
        out.append(UInt8(ascii: "\""))
        var run = 0   // start of the pending run of bytes that need no escaping
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b >= 0x20 && b < 0x7F && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") {
                i += 1
                continue
            }
            if run < i { out.append(UnsafeRawBufferPointer(rebasing: bytes[run..<i])) }
            if b < 0x80 {
                escapeASCII(b, &out)
                i += 1
            } else {
                let n = validSequenceLength(bytes, at: i)
                if n == 0 {
                    out.append("\\ufffd")
                    i += 1
                } else {
                    out.append(UnsafeRawBufferPointer(rebasing: bytes[i..<i + n]))
                    i += n
                }
            }
            run = i
        }
        if run < bytes.count { out.append(UnsafeRawBufferPointer(rebasing: bytes[run..<bytes.count])) }
        out.append(UInt8(ascii: "\""))
    }

    private static func escapeASCII(_ b: UInt8, _ out: inout OutputBuffer) {
        switch b {
        case UInt8(ascii: "\""): out.append("\\\"")
        case UInt8(ascii: "\\"): out.append("\\\\")
        case 0x0A: out.append("\\n")
        case 0x0D: out.append("\\r")
        case 0x09: out.append("\\t")
        case 0x00..<0x20, 0x7F:
            out.append("\\u00")
            let digits: StaticString = "0123456789abcdef"
            out.append(digits.utf8Start[Int(b >> 4)])
            out.append(digits.utf8Start[Int(b & 0x0F)])
        default: out.append(b)
        }
    }

    /// Length (2...4) of the well-formed UTF-8 sequence starting at `i`, or 0 when it is not one
    /// (overlong forms, surrogates and code points above U+10FFFF are not well-formed).
    static func validSequenceLength(_ bytes: UnsafeRawBufferPointer, at i: Int) -> Int {
        let b0 = bytes[i]
        var length = 0
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 0
        }
        guard i + length <= bytes.count else { return 0 }
        let b1 = bytes[i + 1]
        guard b1 >= low && b1 <= high else { return 0 }
        var k = 2
        while k < length {
            guard bytes[i + k] & 0xC0 == 0x80 else { return 0 }
            k += 1
        }
        return length
    }
}
