/// A configuration file as written: every line in order with its comments, so a program can change
/// one value and write the file back with everything else untouched, so `config save` keeps the
/// user's comments, order and spelling.
///
/// Format: `[section]` headers, `key = value` entries, an optional ` # comment` after a value, `#` or
/// `;` comment lines and blank lines. Keys belong to the section above them. A value may be written in
/// double quotes, where `\"`, `\\`, `\t`, `\n`, `\r` and `\xHH` are escapes; `render` quotes every value
/// that would not read back to itself unquoted, so any text `config set` accepts survives a save.
/// Lines end in LF or CRLF (kept when written back), and a UTF-8 byte order mark is accepted (and
/// kept). Parsing never fails: a line that is none of these is kept as `.malformed` and reported by
/// `ConfigurationLoader`, which also checks keys and values against `ConfigurationKeys`.
public struct ConfigurationDocument: Sendable, Equatable {
    /// What one line is.
    public enum LineKind: Sendable, Equatable {
        case blank
        case comment
        /// A `[name]` header.
        case section(String)
        /// `key = value` in `section` ("" before the first header); `comment` is the trailing ` # …`.
        case entry(section: String, key: String, value: String, comment: String?)
        /// Not parseable; kept verbatim.
        case malformed
    }

    /// One line.
    public struct Line: Sendable, Equatable {
        /// 1-based line number in the file as read (0 for lines added by `setValue`).
        public var number: Int
        /// The line's text, without its line end.
        public var text: String
        public var kind: LineKind
    }

    /// Where the text came from, for messages: a path, or `board/NAME.conf (built in)`.
    public var name: String
    public private(set) var lines: [Line]
    /// True when the lines end in CRLF (the first line end decides; written back the same way).
    public private(set) var usesCRLF = false
    /// True when the text began with a UTF-8 byte order mark (written back too).
    public private(set) var hasByteOrderMark = false

    /// Parses `text`.
    public init(name: String, text: String) {
        self.name = name
        var lines: [Line] = []
        var section = ""
        var number = 0
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            hasByteOrderMark = true
            bytes.removeFirst(3)
        }
        var start = 0
        var index = 0
        var sawLineEnd = false
        while index <= bytes.count {
            guard index == bytes.count || bytes[index] == 0x0A else { index += 1; continue }
            if index == bytes.count && start == index && number > 0 { break }    // the final line end
            var end = index
            if end > start && bytes[end - 1] == 0x0D {
                end -= 1
                if !sawLineEnd && index < bytes.count { usesCRLF = true }
            }
            if index < bytes.count { sawLineEnd = true }
            number += 1
            let line = String(decoding: bytes[start..<end], as: UTF8.self)
            let kind = Self.classify(line, section: section)
            if case .section(let s) = kind { section = s }
            lines.append(Line(number: number, text: line, kind: kind))
            start = index + 1
            index += 1
        }
        if let last = lines.last, last.text.isEmpty, last.kind == .blank { lines.removeLast() }
        self.lines = lines
    }

    /// The entries in order.
    public var entries: [(line: Int, section: String, key: String, value: String)] {
        lines.compactMap { line in
            if case .entry(let s, let k, let v, _) = line.kind { return (line.number, s, k, v) }
            return nil
        }
    }

    /// The value of `[section] key` (the last occurrence), if set.
    public func value(section: String, key: String) -> String? {
        entries.last { $0.section == section && $0.key == key }?.value
    }

    /// Sets `[section] key = value`: rewrites the existing entry keeping its trailing comment, or adds
    /// the entry at the end of the section (creating the section at the end of the file if needed).
    public mutating func setValue(_ value: String, section: String, key: String) {
        if let index = lines.lastIndex(where: {
            if case .entry(let s, let k, _, _) = $0.kind { return s == section && k == key }
            return false
        }) {
            guard case .entry(_, _, _, let comment) = lines[index].kind else { return }
            lines[index].text = Self.render(key: key, value: value, comment: comment)
            lines[index].kind = .entry(section: section, key: key, value: value, comment: comment)
            return
        }
        let newLine = Line(number: 0, text: Self.render(key: key, value: value, comment: nil),
                           kind: .entry(section: section, key: key, value: value, comment: nil))
        if let header = lines.lastIndex(where: { $0.kind == .section(section) }) {
            // After the section's last entry (comments and blank lines after it belong to what follows).
            var end = header + 1
            var lastEntry = header
            while end < lines.count {
                if case .section = lines[end].kind { break }
                if case .entry = lines[end].kind { lastEntry = end }
                end += 1
            }
            lines.insert(newLine, at: lastEntry + 1)
        } else {
            if let last = lines.last, last.kind != .blank { lines.append(Line(number: 0, text: "", kind: .blank)) }
            lines.append(Line(number: 0, text: "[" + section + "]", kind: .section(section)))
            lines.append(newLine)
        }
    }

    /// The document as text (the line end after every line; the byte order mark if it had one).
    public var text: String {
        (hasByteOrderMark ? "\u{FEFF}" : "") + lines.map { $0.text + (usesCRLF ? "\r\n" : "\n") }.joined()
    }

    static func render(key: String, value: String, comment: String?) -> String {
        // A `;` comment (kept from a quoted value) ends only a quoted value: a bare one would swallow it.
        let spelled = comment?.hasPrefix(";") == true ? ConfigurationValueText.quoted(value) : ConfigurationValueText.written(value)
        var line = key + " = " + spelled
        if let comment { line += "  " + comment }
        return line
    }

    /// True when every character of `key` is a letter, a digit, `_`, `-` or `.`. An ASCII key (every
    /// key puckd knows) is checked byte by byte, so a valid file never touches Swift's Unicode
    /// property tables (docs/power.md §3.1); a key with other characters is checked as Characters, so
    /// `schlüssel = 1` is still an unknown key rather than a malformed line.
    static func isKeyName(_ key: String) -> Bool {
        var ascii = true
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
                continue
            case 0x80...:
                ascii = false
            default:
                return false
            }
        }
        return ascii || key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." })
    }

    static func classify(_ line: String, section: String) -> LineKind {
        // A CR left at the end (a line that ended "\r\r\n") is white space too: written back before
        // an LF it would read as part of the line end, and the line would change meaning (make fuzz).
        var body = Substring(line)
        while let last = body.last, last == "\r" || last == " " || last == "\t" { body = body.dropLast() }
        let trimmed = body.trimmingSpaces
        if trimmed.isEmpty { return .blank }
        if trimmed.hasPrefix("#") || trimmed.hasPrefix(";") { return .comment }
        if trimmed.hasPrefix("[") {
            guard trimmed.hasSuffix("]") else { return .malformed }
            let name = Substring(trimmed.dropFirst().dropLast()).trimmingSpaces
            return name.isEmpty || name.contains(where: { $0 == " " || $0 == "[" || $0 == "]" }) ? .malformed : .section(name)
        }
        guard let equals = trimmed.firstIndex(of: "=") else { return .malformed }
        let key = trimmed[..<equals].trimmingSpaces
        guard !key.isEmpty, isKeyName(key) else { return .malformed }
        var rest = trimmed[trimmed.index(after: equals)...].trimmingSpaces[...]
        var comment: String?
        if rest.hasPrefix("\"") {
            guard let (value, after) = ConfigurationValueText.unquoted(rest) else { return .malformed }
            let tail = Substring(after).trimmingSpaces
            if !tail.isEmpty {
                guard tail.hasPrefix("#") || tail.hasPrefix(";") else { return .malformed }
                comment = tail
            }
            return .entry(section: section, key: key, value: value, comment: comment)
        }
        // A comment after a value needs white space before its '#', so "#" inside a value survives.
        var index = rest.startIndex
        while index < rest.endIndex {
            if rest[index] == "#" && index > rest.startIndex {
                let before = rest[rest.index(before: index)]
                if before == " " || before == "\t" {
                    comment = String(rest[index...])
                    rest = rest[..<index]
                    break
                }
            }
            index = rest.index(after: index)
        }
        return .entry(section: section, key: key, value: rest.trimmingSpaces, comment: comment)
    }
}
