/// A configuration that cannot be used, as one sentence: where (file and line, or the `--set`), what
/// (`[section] key = value`) and why, with the allowed values, e.g.
/// `/etc/puckd.conf:12: [gpio] button = 99: out of range, allowed 0…53 (BCM line offset)`.
/// At start-up puckd prints it and exits 78 (EX_CONFIG); on a SIGHUP reload the running configuration stays.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `FILE:LINE`, `FILE`, or `--set section.key=value`.
    public var location: String
    /// `[section] key = value`, when the error concerns one entry.
    public var subject: String?
    /// What is wrong and what is allowed.
    public var reason: String

    public init(location: String, subject: String? = nil, reason: String) {
        self.location = location
        self.subject = subject
        self.reason = reason
    }

    public var description: String {
        location + ": " + (subject.map { $0 + ": " } ?? "") + reason
    }
}

/// Where a key's value came from: its default, a line of a document, or a `--set`.
public enum ConfigurationOrigin: Sendable, Equatable, CustomStringConvertible {
    case defaultValue
    case document(name: String, line: Int)
    case override(String)
    /// Set with `config KEY VALUE` on the console, not saved yet.
    case console

    public var description: String {
        switch self {
        case .defaultValue: return "the default"
        case .document(let name, let line): return name + ":" + String(line)
        case .override(let text): return "--set " + text
        case .console: return "set on the console"
        }
    }
}

extension ConfigurationError {
    /// The entry subject `[section] key = value` (the key and value as short escaped excerpts).
    public static func subject(_ section: String, _ key: String, _ value: String) -> String {
        "[" + section + "] " + excerpt(key) + " = " + excerpt(value)
    }

    /// At most `limit` characters of `text` for a message, control and invisible characters escaped
    /// (`\r`, `\t`, `\x1B`, `\u{FEFF}`), "…" when cut: a message never carries a whole file or bytes
    /// that would move a terminal's cursor.
    public static func excerpt(_ text: String, limit: Int = 60) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit { return out + "…" }
            count += 1
            switch scalar {
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\n": out += "\\n"
            default:
                let v = scalar.value
                if v < 0x20 || v == 0x7F {
                    out += "\\x" + String(v >> 4, radix: 16, uppercase: true) + String(v & 15, radix: 16, uppercase: true)
                } else if (0x80..<0xA0).contains(v) || v == 0xFEFF || (0x200B...0x200F).contains(v)
                            || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0xFFFD {
                    out += "\\u{" + String(v, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// The nearest known key of `section` to `key` (edit distance ≤ 3), for "did you mean".
    static func suggestion(for key: String, in section: String) -> String? {
        var best: (String, Int)?
        for candidate in ConfigurationKeys.keys(in: section) {
            let d = editDistance(key, candidate.name)
            if d <= 3 && (best == nil || d < best!.1) { best = (candidate.name, d) }
        }
        return best?.0
    }

    public static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a.utf8), y = Array(b.utf8)
        if x.isEmpty { return y.count }
        var previous = Array(0...y.count)
        for i in 1...x.count {
            var current = [i] + Array(repeating: 0, count: y.count)
            for j in stride(from: 1, through: y.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[y.count]
    }
}
