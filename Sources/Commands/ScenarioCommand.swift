import SystemCalls
import Configuration
import Console
import Puckd
import Simulation
import TrackingScenario

/// `puckd scenario FILE [--hz N]`: runs a scenario file (timed fixes, headings, commands and gestures;
/// docs/scenarios.md) through the tracking core and prints one JSON line per tick and per event.
///
/// The command only reads the file and writes the lines: parsing (`ScenarioParser`) and running
/// (`ScenarioRunner`) are pure. Bad lines are listed as `FILE:LINE: what is wrong` and nothing runs
/// (exit status 65).
public enum ScenarioCommand {
    public static let usage: StaticString = """
          puckd scenario FILE|- [--hz N]
              Run a scenario file through the tracking core (docs/scenarios.md): one input per line,
              'TIME fix LAT LON acc=… speed=… course=…', 'TIME heading DEG acc=…', 'TIME camera …',
              gestures and every console tracking command ('TIME mode followWithCourse'). Prints one
              JSON line per tick ({"t","camera","puck","viewport","mode"}) and per event ({"t","event"}).
              --hz N   ticks per second of scenario time (default 60, 1…1000)
              Bad lines are reported as FILE:LINE: … and nothing runs (exit status 65).
        """

    /// Largest scenario file read, bytes.
    static let maximumFileBytes = 16 << 20

    /// Runs the command; returns the exit status.
    public static func run(_ arguments: ArraySlice<String>) -> Int32 {
        var path: String?
        var hertz = 60
        var rest = arguments
        while let argument = rest.popFirst() {
            switch argument {
            case "--hz":
                guard let text = rest.popFirst(), let value = Int(text), value >= 1,
                      value <= ScenarioRunner.maximumTicksPerSecond else {
                    return usageError("--hz needs a whole number of ticks per second, 1…\(ScenarioRunner.maximumTicksPerSecond)")
                }
                hertz = value
            default:
                if argument.hasPrefix("-") && argument != "-" { return usageError("unknown option '\(argument)'") }
                if path != nil { return usageError("more than one scenario file given ('\(argument)')") }
                path = argument
            }
        }
        guard let path else { return usageError("give the scenario FILE to run ('-' reads standard input)") }
        let bytes: [UInt8]
        switch read(path) {
        case .success(let b): bytes = b
        case .failure(let error): return error.status
        }
        let name = path == "-" ? "<stdin>" : path
        let scenario: Scenario
        switch ScenarioParser.parse(bytes) {
        case .success(let s): scenario = s
        case .failure(let problems):
            report(problems, file: name)
            return ExitStatus.dataError
        }
        ProcessSignals.ignoreBrokenPipe()
        return output(scenario, ticksPerSecond: hertz, fd: 1, file: name)
    }

    /// Runs `scenario` and writes its lines to `fd`; returns the exit status.
    static func output(_ scenario: Scenario, ticksPerSecond: Int, fd: Int32, file: String) -> Int32 {
        var runner: ScenarioRunner
        do {
            runner = try ScenarioRunner(scenario: scenario, ticksPerSecond: ticksPerSecond)
        } catch {
            StandardStreams.err("\(file): \(error.description)\n")
            return ExitStatus.dataError
        }
        var out = OutputBuffer(capacity: 1 << 16)
        var more = true
        while more {
            more = runner.run(into: &out)
            let failure: Errno? = out.withBytes { bytes in
                do throws(Errno) { try FileDescriptor(known: fd).writeAll(bytes); return nil } catch { return error }
            }
            out.removeAll()
            if let failure { return failure == .brokenPipe ? ExitStatus.ok : ExitStatus.ioError }
        }
        return ExitStatus.ok
    }

    /// Every bad line as `FILE:LINE: message` on standard error.
    static func report(_ problems: ScenarioErrors, file: String) {
        var text = ""
        for e in problems.errors { text += e.formatted(file: file) + "\n" }
        if problems.moreErrors > 0 { text += "\(file): \(problems.moreErrors) more bad lines not listed\n" }
        StandardStreams.err(text)
    }

    /// The bytes of the scenario (`-` = standard input), or the exit status after saying why not.
    static func read(_ path: String, command: String = "puckd scenario") -> Result<[UInt8], ExitStatusError> {
        if path == "-" {
            var bytes: [UInt8] = []
            let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
            defer { chunk.deallocate() }
            while true {
                let n: Int
                do throws(Errno) { n = try FileDescriptor.standardInput.read(into: chunk) } catch {
                    StandardStreams.err("\(command): reading standard input failed (\(error.message))\n")
                    return .failure(ExitStatusError(status: ExitStatus.ioError))
                }
                if n == 0 { return .success(bytes) }
                bytes.append(contentsOf: chunk[0..<n])
                if bytes.count > maximumFileBytes { return tooLarge("standard input", command: command) }
            }
        }
        do throws(WholeFile.Failure) {
            return .success(try WholeFile.read(path, limitBytes: maximumFileBytes))
        } catch {
            switch error {
            case .cannotOpen(let code) where code == .noSuchFileOrDirectory || code == .notADirectory:
                StandardStreams.err("\(command): \(path) does not exist; give the path of a scenario file\n")
                return .failure(ExitStatusError(status: ExitStatus.noInput))
            case .cannotOpen(let code) where code == .permissionDenied || code == .notPermitted:
                StandardStreams.err("\(command): no permission to read \(path); make it readable (chmod a+r \(path))\n")
                return .failure(ExitStatusError(status: ExitStatus.permission))
            case .cannotOpen(let code), .cannotRead(let code):
                StandardStreams.err("\(command): cannot read \(path) (\(code.message)); check the path\n")
                return .failure(ExitStatusError(status: ExitStatus.noInput))
            case .notRegular:
                StandardStreams.err("\(command): \(path) is not a regular file; give the path of a scenario file\n")
                return .failure(ExitStatusError(status: ExitStatus.noInput))
            case .tooLarge:
                return tooLarge(path, command: command)
            case .untrusted(let why):                      // only with a trust check, which scenarios do not ask for
                StandardStreams.err("\(command): \(path): \(why)\n")
                return .failure(ExitStatusError(status: ExitStatus.noInput))
            }
        }
    }

    static func tooLarge(_ name: String, command: String) -> Result<[UInt8], ExitStatusError> {
        StandardStreams.err("\(command): \(name) is larger than \(maximumFileBytes >> 20) MiB; a scenario is a short text file\n")
        return .failure(ExitStatusError(status: ExitStatus.dataError))
    }

    static func usageError(_ message: String) -> Int32 {
        StandardStreams.err("puckd scenario: \(message); run 'puckd --help' for the usage\n")
        return ExitStatus.usage
    }
}

/// An exit status carried as an error (after the message was printed).
struct ExitStatusError: Error {
    let status: Int32
}
