import SystemCalls
import Configuration
import Hardware
import Puckd
import Simulation

/// puckd's command line: `puckd COMMAND [ARGUMENTS]`. Each command lives in its own file as a type
/// with `usage` (one help paragraph) and `run(_:) -> Int32` (the process exit status), and has its
/// row in `CommandTable`, from which `--help`, `puckd.8` and the bash completion are made.
///
/// Exit statuses follow sysexits.h: 0 ok, 64 usage error, 66 input missing, 69 unavailable,
/// 74 I/O error, 77 permission denied, 78 configuration error.
public enum CommandLineTool {
    /// Runs puckd with the process arguments (`arguments[0]` is the program name).
    public static func main(_ arguments: [String]) -> Int32 {
        // A static puckd resolves host names with glibc's built-in files and dns only (CLinux/resolver.c).
        StaticExecutable.restrictHostLookup()
        var rest = arguments.dropFirst()
        guard let command = rest.popFirst() else {
            printHelp()
            return ExitStatus.usage
        }
        switch command {
        case "-h", "--help", "help":
            if rest.first == "man" { StandardStreams.out(CommandManual.page) } else { printHelp() }
            return ExitStatus.ok
        case "--help-config":
            switch rest.first {
            case "markdown": StandardStreams.out(ConfigurationHelp.markdown)
            case "man": StandardStreams.out(ConfigurationManual.page)
            default: StandardStreams.out(ConfigurationHelp.text)
            }
            return ExitStatus.ok
        case "--completion":
            guard rest.first == "bash" else {
                StandardStreams.err("puckd: --completion takes the shell: bash\n")
                return ExitStatus.usage
            }
            StandardStreams.out(BashCompletion.script)
            return ExitStatus.ok
        case "-V", "--version", "version":
            StandardStreams.out(versionText)
            return ExitStatus.ok
        default:
            if let entry = CommandTable.entry(named: command) { return entry.run(rest) }
            StandardStreams.err("puckd: unknown command '\(command)'; run 'puckd --help' for the list\n")
            return ExitStatus.usage
        }
    }

    /// `puckd --version`: the version, the C libraries it was built with, how it resolves host names.
    static var versionText: String {
        "puckd \(PuckdVersion.string)\n"
            + LibgpiodGPIOController.libraryDescription + ", libserialport \(SerialPort.libraryVersion)\n"
            + (StaticExecutable.isStatic
                ? "static executable: host names from /etc/hosts and DNS only (glibc's built-in NSS files and dns)\n"
                : "dynamic executable: host names through the system's NSS (/etc/nsswitch.conf)\n")
    }

    static func printHelp() {
        StandardStreams.out("""
            puckd \(PuckdVersion.string): GPS + IMU → map puck and camera state for Linux boards

            usage: puckd COMMAND [ARGUMENTS]

            """)
        for entry in CommandTable.all { StandardStreams.out("\(entry.usage)\n") }
        StandardStreams.out(CommandTable.globalUsage + "\n")
    }
}
