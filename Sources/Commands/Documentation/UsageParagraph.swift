/// A command's usage paragraph (`CommandEntry.usage`) read as the manual and the shell completion
/// need it: its forms (`puckd gpio watch …`), each with its synopsis and options. `--help` prints the
/// paragraph itself; these are made from the same text, so the three cannot disagree.
struct UsageParagraph {
    /// One synopsis of the paragraph: `puckd imu probe [--bus /dev/i2c-N | --adapter NAME]`.
    struct Form: Equatable {
        /// The words after `puckd` that name it: `["imu", "probe"]`, `["run"]`.
        var words: [String]
        /// The synopsis, its continuation lines joined with single spaces.
        var synopsis: String
        /// The options the synopsis names, in order, each once: `--bus`, `--adapter`.
        var options: [String]
        /// The options among them that take a value (`--bus /dev/i2c-N`), not flags (`--check`).
        var valueOptions: [String]
        /// The operands that are no option or option value: `[BOARD]`, `FILE|-`, `OFFSET...`.
        var operands: [String]
    }

    /// The paragraph's lines, without the two spaces every usage line starts with.
    let lines: [String]
    /// The forms, in order.
    let forms: [Form]

    init(_ usage: StaticString) {
        let text = usage.description
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(line.hasPrefix("  ") ? String(line.dropFirst(2)) : String(line))
        }
        self.lines = lines
        var forms: [Form] = []
        var synopsis: String?
        func finish() {
            if let synopsis { forms.append(Self.form(synopsis)) }
            synopsis = nil
        }
        // A synopsis starts a line (descriptions are indented), and continues on indented lines that
        // start with "[" (an option).
        for line in lines {
            let trimmed = Self.trimmed(line)
            if line.hasPrefix("puckd ") {
                finish()
                synopsis = Self.beforeColumnGap(trimmed)
            } else if synopsis != nil, trimmed.hasPrefix("[") {
                synopsis! += " " + Self.beforeColumnGap(trimmed)
            } else {
                finish()
            }
        }
        finish()
        self.forms = forms
    }

    /// The form of one synopsis line.
    static func form(_ synopsis: String) -> Form {
        let tokens = synopsis.split(separator: " ").map(String.init)
        var words = [tokens[1]]
        if tokens.count > 2, tokens[2].allSatisfy({ $0.isLowercase || $0 == "-" }), !tokens[2].hasPrefix("-") {
            words.append(tokens[2])
        }
        var options: [String] = [], valueOptions: [String] = [], operands: [String] = []
        var index = 1 + words.count
        while index < tokens.count {
            let raw = tokens[index]
            let token = String(raw.drop { $0 == "[" || $0 == "|" }.prefix { $0 != "]" })
            index += 1
            guard token.hasPrefix("--"), token.count > 2 else {
                if !token.isEmpty, token != "...", token != "|" { operands.append(token) }
                continue
            }
            if !options.contains(token) { options.append(token) }
            if !raw.hasSuffix("]"), index < tokens.count, !tokens[index].hasPrefix("["),
               !tokens[index].hasPrefix("|"), !tokens[index].hasPrefix("--") {
                if !valueOptions.contains(token) { valueOptions.append(token) }
                index += 1
            }
        }
        return Form(words: words, synopsis: synopsis, options: options, valueOptions: valueOptions, operands: operands)
    }

    /// `text` without leading and trailing spaces.
    static func trimmed(_ text: String) -> String {
        String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    /// The part of a line before a gap of three spaces or more (GPIO's synopses share their line with
    /// the description).
    static func beforeColumnGap(_ line: String) -> String {
        guard let gap = line.firstRange(of: "   ") else { return line }
        return trimmed(String(line[..<gap.lowerBound]))
    }
}
