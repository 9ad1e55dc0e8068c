import Console
import Puckd
import Tracking
import TrackingScenario

/// The timed inputs of `puckd replay LOG --track MODE --script FILE` (a scenario file,
/// docs/scenarios.md): button presses, gestures, compass samples, camera and console commands
/// replayed over a recorded drive.
///
/// Times are seconds from the log's first epoch on the replay clock (the core's clock: log time,
/// except that it never runs backwards across a time jump in the log). An input is applied at its
/// own time before the tick at or after it; an input at the very time of a fix comes after that fix.
/// Inputs that fall in a gap the replay skips (more than 5 s without fixes) apply when the log
/// resumes. Each applied input prints an `input` line naming its line of the script.
/// The script's untimed `view` and `set` lines configure the core; `end` has no effect (the log's end
/// ends the replay; the replay runs on until 4 s after the last input).
struct ReplayScript: Sendable {
    /// The script's inputs in time order.
    let events: [ScenarioEvent]
    /// The core's configuration (`view`, `set`).
    let configuration: TrackingConfiguration
    /// Index of the next input to apply.
    private(set) var next = 0

    init(_ scenario: Scenario) {
        var events: [ScenarioEvent] = []
        for e in scenario.events {
            if case .end = e.input { continue }
            events.append(e)
        }
        self.events = events
        configuration = scenario.configuration
    }

    /// Time of the last input, nanoseconds (0 without inputs).
    var lastTimeNanoseconds: Int64 { events.last?.timeNanoseconds ?? 0 }

    /// Applies the next input when it is due: at or before `nextTickNanoseconds`, and before the
    /// pending log input at `pendingNanoseconds` (at or before it when `pendingIsEnd`). Writes its
    /// `input` line and returns true; false when none is due.
    mutating func applyNext(to core: inout TrackingCore, nextTickNanoseconds: Int64, pendingNanoseconds: Int64,
                            pendingIsEnd: Bool, json: Bool, to out: inout OutputBuffer) -> Bool {
        guard next < events.count else { return false }
        let t = events[next].timeNanoseconds
        guard t <= nextTickNanoseconds, t < pendingNanoseconds || (pendingIsEnd && t <= pendingNanoseconds) else {
            return false
        }
        let event = events[next]
        next += 1
        Self.appendInputLine(line: event.line, at: t, json: json, to: &out)
        ScenarioInputApplier.apply(event.input, to: &core, at: t)
        return true
    }

    /// `{"timeNanoseconds":…,"event":"input","line":N}` (JSON) or `t=…s event input line N` (text).
    static func appendInputLine(line: Int, at time: Int64, json: Bool, to out: inout OutputBuffer) {
        if json {
            out.append("{\"timeNanoseconds\":"); out.append(int: time)
            out.append(",\"event\":\"input\",\"line\":"); out.append(int: Int64(line)); out.append("}\n")
        } else {
            out.append("t="); out.append(Double(time) / 1e9, decimals: 3)
            out.append("s event input line "); out.append(int: Int64(line)); out.append("\n")
        }
    }
}

extension ReplayCommand {
    /// Reads and parses `--script FILE`; a bad line is reported as `FILE:LINE: …` (exit status 65),
    /// as is a `set` value out of range.
    static func loadScript(_ path: String) -> Result<ReplayScript, ExitStatusError> {
        let bytes: [UInt8]
        switch ScenarioCommand.read(path, command: "puckd replay --script") {
        case .success(let b): bytes = b
        case .failure(let error): return .failure(error)
        }
        let name = path == "-" ? "<stdin>" : path
        switch ScenarioParser.parse(bytes) {
        case .success(let scenario):
            if let error = scenario.configuration.validationError() {
                StandardStreams.err("\(name): \(error.description)\n")
                return .failure(ExitStatusError(status: ExitStatus.dataError))
            }
            return .success(ReplayScript(scenario))
        case .failure(let problems):
            ScenarioCommand.report(problems, file: name)
            return .failure(ExitStatusError(status: ExitStatus.dataError))
        }
    }
}
