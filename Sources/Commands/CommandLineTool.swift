import CLinux
import Configuration
import Glibc
import Hardware
import Puckd
import Simulation

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
        case "track": return TrackCommand.run(rest)
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
        TrackCommand.usage,
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
