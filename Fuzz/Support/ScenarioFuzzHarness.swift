import Console
import Tracking
import TrackingScenario

/// Runs arbitrary bytes as a scenario file — `ScenarioParser.parse`, then for a file that parses a
/// bounded `ScenarioRunner` run, twice — and checks what must hold for any file (the `scenario`
/// target of `make fuzz`, Fuzz/Targets/scenario.swift, and `ScenarioFuzzTests`).
///
/// Checked: errors are few, short, without invisible characters, one per line in file order; a parsed scenario is in
/// time order within range and its configuration is accepted by the core; every step of the run
/// writes whole JSON lines within the runner's reserve; camera and puck stay within the ranges their
/// types document (docs/tracking.md); tick times follow the tick grid; the same file gives the same bytes.
public enum ScenarioFuzzHarness {
    /// The outcome of one file.
    public struct Report: Sendable, Equatable {
        /// True when the file parsed.
        public var parsed = false
        /// Errors listed (parse failure).
        public var errors = 0
        /// Inputs of the parsed scenario.
        public var inputs = 0
        /// Ticks run (at most `maximumTicks`).
        public var ticks: Int64 = 0
        /// The first broken invariant, nil when all held.
        public var violation: String?

        public init() {}
    }

    /// Ticks run at most per file (and per run): enough for a scenario of 2000 s at 1 Hz.
    public static let maximumTicks: Int64 = 2000
    /// Longest error message accepted, bytes: at most one longest line quoted, plus the sentence and
    /// its list of what is allowed (the field list is 550 bytes).
    public static let maximumMessageBytes = ScenarioParser.maximumLineBytes + 1024

    /// Parses `bytes`, runs the scenario if it parses, checks every invariant.
    public static func run(_ bytes: UnsafeRawBufferPointer, maximumTicks: Int64 = maximumTicks) -> Report {
        var report = Report()
        switch ScenarioParser.parse(bytes) {
        case .failure(let failure):
            report.errors = failure.errors.count
            report.violation = check(failure, lineCount: lineCount(bytes))
        case .success(let scenario):
            report.parsed = true
            report.inputs = scenario.events.count
            if let problem = check(scenario) { report.violation = problem; return report }
            // Tick rate: as many ticks per second (≤ 60) as keep the whole run within maximumTicks.
            let seconds = max(1, scenario.endNanoseconds / 1_000_000_000)
            let hertz = Int(min(60, max(1, maximumTicks / seconds)))
            var first = ScenarioFuzzRun(), second = ScenarioFuzzRun()
            first.go(scenario, hertz: hertz, maximumTicks: maximumTicks, checkEveryStep: true)
            report.ticks = first.ticks
            if let problem = first.violation { report.violation = problem; return report }
            // The second run writes into a large buffer (many steps per call) up to the first run's
            // length: the same bytes, however the output is cut.
            second.byteLimit = first.bytes
            second.go(scenario, hertz: hertz, maximumTicks: .max, checkEveryStep: false)
            if second.violation == nil && (second.hash != first.hash || second.bytes < first.bytes) {
                report.violation = "the same scenario gave different output on a second run"
            } else {
                report.violation = second.violation
            }
        }
        return report
    }

    /// Lines of the file as the parser numbers them.
    static func lineCount(_ bytes: UnsafeRawBufferPointer) -> Int {
        var n = 0
        for b in bytes where b == 0x0A { n += 1 }
        return max(1, bytes.last == 0x0A ? n : n + 1)
    }

    /// A failed parse: 1…maximumErrors errors, lines increasing within the file, short printable messages.
    static func check(_ failure: ScenarioErrors, lineCount: Int) -> String? {
        let errors = failure.errors
        if errors.isEmpty { return "a failed parse listed no error" }
        if errors.count > ScenarioParser.maximumErrors { return "more than maximumErrors errors listed" }
        if failure.moreErrors > 0 && errors.count < ScenarioParser.maximumErrors { return "errors counted but not listed" }
        var previous = 0
        for e in errors {
            if e.line < 1 || e.line > lineCount { return "error on line \(e.line) of a \(lineCount)-line file" }
            if e.line <= previous { return "errors out of line order or two for one line (line \(e.line))" }
            previous = e.line
            let message = e.message.utf8
            if message.isEmpty { return "empty error message on line \(e.line)" }
            if message.count > maximumMessageBytes { return "a \(message.count)-byte error message on line \(e.line)" }
            if e.message.unicodeScalars.contains(where: invisible) { return "an error message with an invisible character on line \(e.line)" }
        }
        return nil
    }

    /// Control, format (zero-width, bidi) and unassigned characters: never in a message printed on a
    /// terminal (the text's own "…", "°" and "×" are fine).
    static func invisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .unassigned, .privateUse, .surrogate, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// A parsed scenario: inputs in time order within range, lines increasing, the end after them,
    /// a configuration the core accepts.
    static func check(_ scenario: Scenario) -> String? {
        let latest = ScenarioParser.nanoseconds(ScenarioParser.maximumTimeSeconds)
        var time: Int64 = 0, line = 0
        for e in scenario.events {
            if e.timeNanoseconds < time || e.timeNanoseconds > latest { return "input of line \(e.line) out of time order or range" }
            if e.line <= line { return "inputs out of line order" }
            if case .end = e.input { return "'end' kept as an input" }
            time = e.timeNanoseconds
            line = e.line
        }
        if scenario.endNanoseconds < time { return "the scenario ends before its last input" }
        if !scenario.hasEndLine && scenario.endNanoseconds != time + Scenario.defaultDrainNanoseconds {
            return "the end without an 'end' line is not last input + drain"
        }
        if let error = scenario.configuration.validationError() { return "a parsed configuration is invalid: \(error)" }
        return nil
    }
}
