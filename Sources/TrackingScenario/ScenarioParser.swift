import Console
import Tracking

/// Turns the bytes of a scenario file into a `Scenario`, or into every bad line with what is wrong.
///
/// A pure function of the bytes (no file, no clock): `puckd scenario` reads the file and prints the
/// errors; the fuzz target calls `parse` with arbitrary bytes. The format (docs/scenarios.md): one
/// input per line, `#` starts a comment, blank lines are skipped, a line is `TIME INPUT…` with TIME in
/// seconds (never earlier than the line before). Before the first timed line two untimed lines may
/// appear: `view W H` (the view size) and `set FIELD VALUE` (a `TrackingConfiguration` field).
/// Console tracking commands are parsed by the console's own `CommandParser`.
public enum ScenarioParser {
    /// Longest line accepted, bytes.
    public static let maximumLineBytes = 1024
    /// Errors listed at most (the rest are counted).
    public static let maximumErrors = 100
    /// Latest time accepted, seconds (one day).
    public static let maximumTimeSeconds = 86_400.0

    /// Parses a whole file.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> Result<Scenario, ScenarioErrors> {
        var state = ParseState()
        var lineStart = 0
        var lineNumber = 1
        while lineStart <= bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
            if lineStart == bytes.count && lineEnd == bytes.count { break }
            state.line(UnsafeRawBufferPointer(rebasing: bytes[lineStart..<lineEnd]), number: lineNumber)
            lineStart = lineEnd + 1
            lineNumber += 1
        }
        return state.finish(lastLine: max(1, lineNumber - 1))
    }

    /// Parses a whole file held in an array.
    public static func parse(_ bytes: [UInt8]) -> Result<Scenario, ScenarioErrors> {
        bytes.withUnsafeBytes { parse($0) }
    }

    /// Parses text (tests).
    public static func parse(_ text: String) -> Result<Scenario, ScenarioErrors> {
        parse(Array(text.utf8))
    }

    /// Seconds → nanoseconds, rounded to the nearest nanosecond.
    public static func nanoseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1e9).rounded()) }
}

/// The parser's running state across lines.
struct ParseState {
    var scenario = Scenario()
    var errors: [ScenarioError] = []
    var moreErrors = 0
    var sawTimedLine = false
    var sawView = false
    var lastTimeNanoseconds: Int64 = 0
    var endLine: Int? = nil

    mutating func fail(_ line: Int, _ message: String) {
        if errors.count < ScenarioParser.maximumErrors {
            errors.append(ScenarioError(line: line, message: message))
        } else {
            moreErrors += 1
        }
    }

    /// One line without its newline.
    mutating func line(_ raw: UnsafeRawBufferPointer, number: Int) {
        if raw.count > ScenarioParser.maximumLineBytes {
            fail(number, "the line is \(raw.count) bytes long, at most \(ScenarioParser.maximumLineBytes) are allowed")
            return
        }
        var end = 0
        while end < raw.count && raw[end] != UInt8(ascii: "#") { end += 1 }
        while end > 0 && (raw[end - 1] == 0x0D || raw[end - 1] == 0x20 || raw[end - 1] == 0x09) { end -= 1 }
        let text = UnsafeRawBufferPointer(rebasing: raw[0..<end])
        var i = 0
        while i < text.count {
            let b = text[i]
            if !(ConsoleASCII.isPrintable(b) || b == 0x09) {
                fail(number, "byte 0x\(hex(b)) at column \(i + 1) is not printable ASCII; scenario files are plain ASCII text")
                return
            }
            i += 1
        }
        let words = CommandTokens(text)
        if words.count == 0 { return }
        if words.overflow > 0 {
            fail(number, "the line has more than \(CommandTokens.capacity) words")
            return
        }
        if let seconds = CommandNumber.parse(words[0]) {
            timed(words, seconds: seconds, number: number)
        } else if CommandWords.equal(words[0], "view") {
            untimedView(words, number: number)
        } else if CommandWords.equal(words[0], "set") {
            untimedSet(words, number: number)
        } else {
            fail(number, "a line starts with its time in seconds, e.g. '1.5 mode follow' (only 'view W H' and "
                + "'set FIELD VALUE' come without a time, before the first timed line)")
        }
    }

    mutating func untimedView(_ words: CommandTokens, number: Int) {
        if sawTimedLine || sawView {
            fail(number, sawView ? "the view size is already set; resize during the run with 'TIME view W H'"
                : "'view W H' without a time must come before the first timed line; give it a time to resize the view")
            return
        }
        let line = ScenarioLineParser(words: words, first: 0, number: number)
        switch line.viewSize() {
        case .success(let size):
            sawView = true
            scenario.configuration.viewportWidthPoints = size.widthPoints
            scenario.configuration.viewportHeightPoints = size.heightPoints
        case .failure(let problem): fail(number, problem.message)
        }
    }

    mutating func untimedSet(_ words: CommandTokens, number: Int) {
        if sawTimedLine {
            fail(number, "'set' must come before the first timed line: the core's configuration is fixed while it runs")
            return
        }
        guard words.count == 3 else {
            fail(number, "usage: set FIELD VALUE (fields: \(ScenarioSettings.fieldList))")
            return
        }
        var configuration = scenario.configuration
        if let message = ScenarioSettings.apply(field: words[1], value: words[2], to: &configuration) {
            fail(number, message)
        } else if let error = configuration.validationError() {
            fail(number, error.description)
        } else {
            scenario.configuration = configuration
        }
    }

    mutating func timed(_ words: CommandTokens, seconds: Double, number: Int) {
        sawTimedLine = true
        guard seconds >= 0 && seconds <= ScenarioParser.maximumTimeSeconds else {
            fail(number, "time \(format(seconds)) s is out of range, allowed 0…\(format(ScenarioParser.maximumTimeSeconds)) s")
            return
        }
        let time = ScenarioParser.nanoseconds(seconds)
        if time < lastTimeNanoseconds {
            fail(number, "time \(format(seconds)) s is earlier than the line before (\(format(Double(lastTimeNanoseconds) / 1e9)) s); "
                + "lines must be in time order")
            return
        }
        if let endLine {
            fail(number, "input after the 'end' on line \(endLine); the run has stopped by then")
            return
        }
        guard words.count >= 2 else {
            fail(number, "the time needs an input after it, e.g. '\(format(seconds)) fix 52.52 13.405 acc=5'")
            return
        }
        lastTimeNanoseconds = time
        let line = ScenarioLineParser(words: words, first: 1, number: number)
        switch line.input() {
        case .success(let input):
            if case .end = input {
                endLine = number
                scenario.endNanoseconds = time
                scenario.hasEndLine = true
                return
            }
            scenario.events.append(ScenarioEvent(timeNanoseconds: time, line: number, input: input))
        case .failure(let problem):
            fail(number, problem.message)
        }
    }

    mutating func finish(lastLine: Int) -> Result<Scenario, ScenarioErrors> {
        if errors.isEmpty && !sawTimedLine {
            fail(lastLine, "the scenario has no timed line; add inputs such as '0 fix 52.52 13.405 acc=5' and '1 mode follow'")
        }
        if !errors.isEmpty { return .failure(ScenarioErrors(errors: errors, moreErrors: moreErrors)) }
        if !scenario.hasEndLine {
            scenario.endNanoseconds = (scenario.events.last?.timeNanoseconds ?? 0) + Scenario.defaultDrainNanoseconds
        }
        return .success(scenario)
    }
}

/// `value` as the shortest decimal text of up to 6 decimals (messages).
func format(_ value: Double) -> String {
    var out = OutputBuffer(capacity: 64)
    RenderFormat.compact(value, maximumDecimals: 6, to: &out)
    return out.withBytes { String(decoding: $0, as: UTF8.self) }
}

/// Two upper-case hexadecimal digits.
func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
}
