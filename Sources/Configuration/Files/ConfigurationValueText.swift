/// How a value is spelled in a configuration file: bare when it reads back to itself, else in double
/// quotes with escapes (`\"`, `\\`, `\t`, `\n`, `\r`, `\xHH` for other control bytes). `written` and
/// `unquoted` are inverse: `unquoted(written(v)) == v` for every string (`config save` relies on it).
/// Inside quotes a backslash before any other character is kept as it is (`"C:\dir"` stays C:\dir).
enum ConfigurationValueText {
    /// The value as it goes after `key = `.
    static func written(_ value: String) -> String {
        needsQuotes(value) ? quoted(value) : value
    }

    /// The value in double quotes with escapes (always: a value before a `;` comment needs them, since a
    /// bare value ends only at a `#` after white space).
    static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\x" + hexDigit(scalar.value >> 4) + hexDigit(scalar.value & 15)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// True when the bare value would not read back as itself: empty, spaces or tabs at either end, a
    /// quote at the start, a `#` (a comment after white space), a backslash or a control character.
    static func needsQuotes(_ value: String) -> Bool {
        guard let first = value.unicodeScalars.first, let last = value.unicodeScalars.last else { return true }
        if first == " " || first == "\t" || last == " " || last == "\t" || first == "\"" { return true }
        // Lines are cut at LF and a CR before it is dropped; U+FEFF first would pass for a byte order mark.
        if first == "\u{FEFF}" { return true }
        return value.unicodeScalars.contains { $0 == "#" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }
    }

    /// Reads a quoted value at the start of `text` (which begins with `"`): the value and what follows
    /// the closing quote, or nil when the quote is never closed.
    static func unquoted(_ text: Substring) -> (value: String, after: Substring)? {
        var value = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.dropFirst()[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\"":
                return (String(value), Substring(scalars))
            case "\\":
                guard let next = scalars.first else { value.append(scalar); continue }
                switch next {
                case "\"", "\\": value.append(next); scalars.removeFirst()
                case "t": value.append("\t"); scalars.removeFirst()
                case "n": value.append("\n"); scalars.removeFirst()
                case "r": value.append("\r"); scalars.removeFirst()
                case "x":
                    let digits = scalars.dropFirst().prefix(2)
                    if digits.count == 2, let code = UInt32(String(String.UnicodeScalarView(digits)), radix: 16),
                       let decoded = Unicode.Scalar(code) {
                        value.append(decoded)
                        scalars.removeFirst(3)
                    } else {
                        value.append(scalar)
                    }
                default:
                    value.append(scalar)                   // not an escape: the backslash stays
                }
            default:
                value.append(scalar)
            }
        }
        return nil
    }

    private static func hexDigit(_ v: UInt32) -> String { String(v, radix: 16, uppercase: true) }
}
