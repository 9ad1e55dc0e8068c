/// One bad scenario line: its 1-based number and what is wrong (one sentence, no file name; the
/// command prints `FILE:LINE: message`).
public struct ScenarioError: Error, Sendable, Equatable {
    /// Line number, 1-based.
    public var line: Int
    /// What is wrong and what is allowed.
    public var message: String

    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    /// `FILE:LINE: message` (no newline).
    public func formatted(file: String) -> String { "\(file):\(line): \(message)" }
}

/// Every bad line of a scenario (at most `ScenarioParser.maximumErrors`; `moreErrors` counts the rest).
public struct ScenarioErrors: Error, Sendable, Equatable {
    public var errors: [ScenarioError]
    /// Bad lines not listed.
    public var moreErrors: Int

    public init(errors: [ScenarioError], moreErrors: Int = 0) {
        self.errors = errors
        self.moreErrors = moreErrors
    }
}

/// What is wrong with one line, before the parser adds the line number (written as a string literal).
struct LineProblem: Error, ExpressibleByStringInterpolation {
    let message: String

    init(_ message: String) { self.message = message }
    init(stringLiteral value: String) { message = value }
    init(stringInterpolation: DefaultStringInterpolation) { message = String(stringInterpolation: stringInterpolation) }
}
