/// Why a command line was not accepted, with what is needed to say exactly what is wrong and how to
/// fix it (`appendMessage`). The offending word is kept in `text` (printable ASCII: the line editor
/// admits nothing else).
public struct CommandError: Error, Sendable, Equatable {
    /// The kinds of mistakes.
    public enum Kind: Sendable, Equatable {
        /// The first word is not a command; `suggestion` is the nearest one.
        case unknownCommand(suggestion: ConsoleCommandName?)
        /// A required argument is missing; `what` names it (e.g. "zoom level").
        case missingArgument(what: StaticStringBox)
        /// More words than the command takes.
        case unexpectedArgument
        /// `text` should have been a number.
        case notANumber(what: StaticStringBox)
        /// `text` is a number outside `minimum…maximum` (`unit` may be empty; `what` names the
        /// option when the command has several).
        case outOfRange(what: StaticStringBox, minimum: Double, maximum: Double, unit: StaticStringBox)
        /// `text` is not one of `keywords`; `suggestion` indexes the nearest word.
        case unknownKeyword(CommandKeywords, suggestion: Int?)
        /// `text` is not a valid purpose key / config key: `rule` says what is allowed.
        case invalidWord(what: StaticStringBox, rule: StaticStringBox)
        /// A config value of `length` bytes is longer than `limit`.
        case valueTooLong(length: Int, limit: Int)
        /// The line had more than `limit` bytes and was ignored.
        case lineTooLong(limit: Int)
        /// The line held a byte that is not printable ASCII (at 1-based `column`) and was ignored.
        case notASCII(byte: UInt8, column: Int)
        /// `watch` was given a command that is not a view (`text`).
        case notWatchable
    }

    /// The command the error belongs to (nil for unknown commands and line errors).
    public var command: ConsoleCommandName?
    public var kind: Kind
    /// The offending word as typed.
    public var text: ConsoleText

    public init(command: ConsoleCommandName?, kind: Kind, text: ConsoleText = ConsoleText()) {
        self.command = command
        self.kind = kind
        self.text = text
    }

    /// Appends the one-line message (no newline), e.g. `zoom: 30 is out of range, allowed 0…25.5`.
    public func appendMessage(to out: inout OutputBuffer) {
        if let command {
            out.append(command.word)
            out.append(": ")
        }
        switch kind {
        case .unknownCommand(let suggestion):
            out.append("unknown command '"); out.append(text: text); out.append("'")
            if let suggestion {
                out.append("; did you mean '"); out.append(suggestion.word); out.append("'? Type 'help' for the list.")
            } else {
                out.append("; type 'help' for the list of commands.")
            }
        case .missingArgument(let what):
            out.append("missing "); out.append(what.value); usage(&out)
        case .unexpectedArgument:
            out.append("unexpected argument '"); out.append(text: text); out.append("'"); usage(&out)
        case .notANumber(let what):
            out.append("'"); out.append(text: text); out.append("' is not a number (")
            out.append(what.value); out.append(")"); usage(&out)
        case .outOfRange(let what, let minimum, let maximum, let unit):
            if what.value.utf8CodeUnitCount > 0 { out.append(what.value); out.append(" ") }
            out.append(text: text); out.append(" is out of range, allowed ")
            RenderFormat.compact(minimum, to: &out); out.append("\u{2026}"); RenderFormat.compact(maximum, to: &out)
            if unit.value.utf8CodeUnitCount > 0 { out.append(" "); out.append(unit.value) }
        case .unknownKeyword(let keywords, let suggestion):
            out.append("'"); out.append(text: text); out.append("' is not one of "); out.append(keywords.list)
            if let suggestion {
                out.append("; did you mean '"); out.append(keywords.word(suggestion)); out.append("'?")
            }
        case .invalidWord(let what, let rule):
            out.append("'"); out.append(text: text); out.append("' is not a valid "); out.append(what.value)
            out.append(": "); out.append(rule.value)
        case .valueTooLong(let length, let limit):
            out.append("the value has "); out.append(int: length); out.append(" bytes, at most ")
            out.append(int: limit); out.append(" are allowed")
        case .lineTooLong(let limit):
            out.append("line ignored: longer than "); out.append(int: limit)
            out.append(" bytes. Type a shorter command (config values are at most ")
            out.append(int: ConsoleText.capacity); out.append(" bytes).")
        case .notASCII(let byte, let column):
            out.append("line ignored: byte 0x"); out.append(hex2: byte); out.append(" at column "); out.append(int: column)
            out.append(" is not printable ASCII; commands are plain ASCII text.")
        case .notWatchable:
            out.append("'"); out.append(text: text); out.append("' cannot be watched; watch one of ")
            out.append(ConsoleCommandName.watchableList)
        }
    }

    private func usage(_ out: inout OutputBuffer) {
        guard let command else { return }
        out.append("; usage: ")
        out.append(HelpText.usage(command))
    }
}

/// A `StaticString` that compares equal by content, so errors carrying one stay `Equatable`.
public struct StaticStringBox: Sendable, Equatable, ExpressibleByStringLiteral {
    public let value: StaticString

    public init(_ value: StaticString) { self.value = value }
    public init(stringLiteral value: StaticString) { self.value = value }

    public static func == (a: StaticStringBox, b: StaticStringBox) -> Bool {
        let n = a.value.utf8CodeUnitCount
        guard n == b.value.utf8CodeUnitCount else { return false }
        var i = 0
        while i < n {
            if a.value.utf8Start[i] != b.value.utf8Start[i] { return false }
            i += 1
        }
        return true
    }
}
