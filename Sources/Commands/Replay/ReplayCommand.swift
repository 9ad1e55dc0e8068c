import CBundledData
import Console
import SystemCalls
import NMEA
import Puckd

/// `puckd replay [FILE|-] [--json] [--realtime] [--strict]`: runs a recorded NMEA log through the
/// location pipeline (framer → parser → epoch assembler) and prints one line per fix, then a summary.
///
/// Input is read with POSIX `read()` into one fixed buffer; output goes through one `OutputBuffer`.
/// After start-up nothing is allocated per byte, sentence or fix.
public enum ReplayCommand {
    public static let usage: StaticString = """
          puckd replay [FILE|-] [--json] [--realtime] [--strict] [--track TARGET [--script FILE]]
              Replay an NMEA 0183 log: one line per fix, then a summary of every counter.
              FILE    the log to read; '-' reads standard input; no FILE replays the drive built into
                      puckd (gpsd's nmea-rtk log: 10 Hz, course turning
                      through the whole circle, DGPS then RTK; BSD-2-Clause)
              --json      one JSON object per fix (time, lat, lon, alt, speed, track, mode, eph, epv),
                          the format compare_fixes.py scores; the summary goes to standard error
              --realtime  pace the fixes as recorded (pauses capped at 2 s)
              --strict    drop sentences that have no checksum
              --track TARGET  drive the tracking core with the log's fixes and print the puck and
                          camera at 60 Hz of log time (plus every tracking event) instead of fixes;
                          TARGET: none, follow, followWithCourse, followWithHeading, off, recenter,
                          navigation, compassNavigation (tracking modes) or followPuck, overview
              --script FILE  with --track: timed inputs (the scenario format of 'puckd scenario':
                          button presses as console commands, gestures, compass samples) at seconds
                          from the log's first epoch; bad lines: FILE:LINE: … and exit status 65
        """

    /// Input and output chunk sizes, bytes.
    static let chunkBytes = 1 << 16

    /// Runs the command; returns the exit status.
    public static func run(_ arguments: ArraySlice<String>) -> Int32 {
        let options: ReplayOptions
        switch ReplayOptions.parse(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let message):
            StandardStreams.err("puckd replay: \(message); run 'puckd --help' for the usage\n")
            return ExitStatus.usage
        }
        var script: ReplayScript?
        if let path = options.script {
            switch loadScript(path) {
            case .success(let loaded): script = loaded
            case .failure(let error): return error.status
            }
        }
        ProcessSignals.ignoreBrokenPipe()

        switch options.source {
        case .bundled:
            let bytes = UnsafeRawBufferPointer(start: bundled_drive_bytes(), count: bundled_drive_count())
            return replay(bytes, options: options, script: script)
        case .standardInput:
            var session = ReplaySession(options: options, script: script)
            let status = readAll(fd: .standardInput, name: "standard input", into: &session)
            return status == ExitStatus.ok ? session.finish() : status
        case .file(let path):
            let fd: FileDescriptor
            do throws(Errno) { fd = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec]) } catch {
                return openFailure(path: path, error: error)
            }
            defer { try? fd.close() }
            if let status = try? fd.status(), status.isDirectory {
                StandardStreams.err("puckd replay: \(path) is a directory; give the path of an NMEA log file\n")
                return ExitStatus.noInput
            }
            var session = ReplaySession(options: options, script: script)
            let status = readAll(fd: fd, name: path, into: &session)
            return status == ExitStatus.ok ? session.finish() : status
        }
    }

    /// Replays bytes already in memory (the built-in drive; tests), in 64 KiB chunks as if read from a
    /// file, writing fix lines to `output` and the summary to `summary` (see `ReplaySession`).
    static func replay(_ bytes: UnsafeRawBufferPointer, options: ReplayOptions, output: FileDescriptor = .standardOutput,
                       summary: FileDescriptor? = nil, script: ReplayScript? = nil) -> Int32 {
        var session = ReplaySession(options: options, output: output, summary: summary, script: script)
        var offset = 0
        while offset < bytes.count && !session.outputClosed {
            let n = min(chunkBytes, bytes.count - offset)
            session.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + n]))
            offset += n
        }
        return session.finish()
    }

    /// Reads `fd` to the end through one fixed buffer.
    private static func readAll(fd: FileDescriptor, name: String, into session: inout ReplaySession) -> Int32 {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkBytes, alignment: 16)
        defer { buffer.deallocate() }
        while !session.outputClosed {
            let n: Int
            do throws(Errno) { n = try fd.read(into: buffer) } catch {
                StandardStreams.err("puckd replay: reading \(name) failed (\(error.message)); check the device or file\n")
                return ExitStatus.ioError
            }
            if n == 0 { break }
            session.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
        return ExitStatus.ok
    }

    private static func openFailure(path: String, error code: Errno) -> Int32 {
        switch code {
        case .noSuchFileOrDirectory, .notADirectory:
            StandardStreams.err("puckd replay: \(path) does not exist; give the path of an NMEA log, '-' for "
                + "standard input, or no FILE for the built-in drive\n")
            return ExitStatus.noInput
        case .permissionDenied, .notPermitted:
            StandardStreams.err("puckd replay: no permission to read \(path); make it readable "
                + "(chmod a+r \(path)) or run puckd as a user who may read it\n")
            return ExitStatus.permission
        default:
            let reason = code.message
            StandardStreams.err("puckd replay: cannot open \(path) (\(reason)); check the path\n")
            return ExitStatus.noInput
        }
    }
}

/// Parsed command-line options of `puckd replay`.
struct ReplayOptions: Equatable {
    enum Source: Equatable { case bundled, standardInput, file(String) }
    enum Parsed: Equatable { case success(ReplayOptions), failure(String) }

    var source: Source = .bundled
    var json = false
    var realtime = false
    var strict = false
    var track: ReplayTrackTarget?
    /// `--script FILE` (needs `--track`).
    var script: String?

    static func parse(_ arguments: ArraySlice<String>) -> Parsed {
        var options = ReplayOptions()
        var sawSource = false
        var rest = arguments
        while let argument = rest.popFirst() {
            switch argument {
            case "--track":
                guard let name = rest.popFirst() else { return .failure("--track needs a target (\(ReplayTrackTarget.allowedNames))") }
                guard let target = ReplayTrackTarget(name: name) else {
                    return .failure("unknown --track target '\(name)'; allowed: \(ReplayTrackTarget.allowedNames)")
                }
                options.track = target
            case "--script":
                guard let path = rest.popFirst() else { return .failure("--script needs the FILE of timed inputs") }
                options.script = path
            case "--json": options.json = true
            case "--realtime": options.realtime = true
            case "--strict": options.strict = true
            case "-": 
                if sawSource { return .failure("more than one input given ('-')") }
                options.source = .standardInput
                sawSource = true
            default:
                if argument.hasPrefix("-") { return .failure("unknown option '\(argument)'") }
                if sawSource { return .failure("more than one input given ('\(argument)')") }
                options.source = .file(argument)
                sawSource = true
            }
        }
        if options.script != nil && options.track == nil {
            return .failure("--script needs --track TARGET (the script drives the tracking core)")
        }
        if options.script == "-" && options.source == .standardInput {
            return .failure("the log and the script cannot both come from standard input ('-')")
        }
        return .success(options)
    }
}
