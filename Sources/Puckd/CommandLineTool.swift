import CLinux
import Configuration
import Glibc
import Hardware

/// puckd's command line: `puckd COMMAND [ARGUMENTS]`. Each command lives in its own file as a type
/// with `usage` (one help paragraph) and `run(_:) -> Int32` (the process exit status).
///
/// Exit statuses follow sysexits.h: 0 ok, 64 usage error, 66 input missing, 69 unavailable,
/// 74 I/O error, 77 permission denied, 78 configuration error.
public enum CommandLineTool {
    /// Runs puckd with the process arguments (`arguments[0]` is the program name).
    public static func main(_ arguments: [String]) -> Int32 {
        // A static puckd resolves host names with glibc's built-in files and dns only (CLinux/resolver.c).
        _ = clinux_restrict_static_host_lookup()
        var rest = arguments.dropFirst()
        guard let command = rest.popFirst() else {
            printHelp()
            return ExitStatus.usage
        }
        switch command {
        case "-h", "--help", "help":
            printHelp()
            return ExitStatus.ok
        case "--help-config":
            StandardStreams.out(rest.first == "markdown" ? ConfigurationHelp.markdown : ConfigurationHelp.text)
            return ExitStatus.ok
        case "-V", "--version", "version":
            StandardStreams.out(versionText)
            return ExitStatus.ok
        case "run": return RunCommand.run(rest)
        case "replay": return ReplayCommand.run(rest)
        case "scenario": return ScenarioCommand.run(rest)
        case "ports": return PortsCommand.run(rest)
        case "imu": return IMUCommand.run(rest)
        case "gpio": return GPIOCommand.run(rest)
        case "heading": return HeadingCommand.run(rest)
        case "password-hash": return PasswordHashCommand.run(rest)
        default:
            StandardStreams.err("puckd: unknown command '\(command)'; run 'puckd --help' for the list\n")
            return ExitStatus.usage
        }
    }

    /// `puckd --version`: the version, the C libraries it was built with, how it resolves host names.
    static var versionText: String {
        "puckd \(PuckdVersion.string)\n"
            + LibgpiodGPIOController.libraryDescription + ", libserialport \(SerialPort.libraryVersion)\n"
            + (clinux_is_static_executable() == 1
                ? "static executable: host names from /etc/hosts and DNS only (glibc's built-in NSS files and dns)\n"
                : "dynamic executable: host names through the system's NSS (/etc/nsswitch.conf)\n")
    }

    /// The usage paragraphs of every command, in the order `--help` prints them.
    static let commandUsages: [StaticString] = [
        RunCommand.usage,
        ReplayCommand.usage,
        ScenarioCommand.usage,
        PortsCommand.usage,
        IMUCommand.usage,
        GPIOCommand.usage,
        HeadingCommand.usage,
        PasswordHashCommand.usage,
    ]

    static func printHelp() {
        StandardStreams.out("""
            puckd \(PuckdVersion.string): GPS + IMU → map puck and camera state for Linux boards

            usage: puckd COMMAND [ARGUMENTS]

            """)
        for usage in commandUsages { StandardStreams.out("\(usage)\n") }
        StandardStreams.out("""
              puckd --help | --help-config [markdown] | --version

            """)
    }
}

/// Process exit statuses (sysexits.h).
public enum ExitStatus {
    public static let ok: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 64
    public static let dataError: Int32 = 65
    public static let noInput: Int32 = 66
    public static let unavailable: Int32 = 69
    public static let ioError: Int32 = 74
    public static let permission: Int32 = 77
    public static let config: Int32 = 78
    /// `puckd run` stopped cleanly but its final state save failed (EX_IOERR).
    public static let stateNotSaved: Int32 = 74
}

/// Writes to standard output and standard error with `write(2)` (no stdio buffering, no Foundation;
/// safe in Swift 6 strict concurrency, unlike the C `stderr` global).
public enum StandardStreams {
    /// Writes text to standard output.
    public static func out(_ text: String) { write(fd: 1, text) }
    /// Writes text to standard error: error messages. On the systemd journal's stream every line starts
    /// with the error priority `<3>`, so `journalctl -p err` shows them.
    public static func err(_ text: String) {
        if clinux_console_is_journal_stream(2) == 1 {
            var prefixed = ""
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0) {
                prefixed += "<3>" + line + "\n"
            }
            write(fd: 2, prefixed)
        } else {
            write(fd: 2, text)
        }
    }

    /// Writes raw bytes to a file descriptor, retrying on EINTR and partial writes. Returns false
    /// when the descriptor is closed or broken (EPIPE).
    @discardableResult
    public static func write(fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    private static func write(fd: Int32, _ text: String) {
        var copy = text
        copy.withUTF8 { _ = write(fd: fd, UnsafeRawBufferPointer($0)) }
    }
}
