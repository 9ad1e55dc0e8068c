import Puckd

/// One `puckd COMMAND`: its name, its usage paragraph (what `--help`, `puckd.8` and the bash
/// completion are made from) and the function that runs it.
struct CommandEntry: Sendable {
    /// The first word after `puckd`.
    let name: String
    /// The help paragraph: synopsis lines starting with `puckd NAME`, then the description and options.
    let usage: StaticString
    /// Runs the command with the arguments after its name; returns the exit status.
    let run: @Sendable (ArraySlice<String>) -> Int32
}

/// The commands of `puckd`, in the order `--help` and the manual list them. `CommandLineTool`
/// dispatches through this table, so a command missing here does not exist.
enum CommandTable {
    static let all: [CommandEntry] = [
        CommandEntry(name: "run", usage: RunCommand.usage, run: RunCommand.run),
        CommandEntry(name: "setup", usage: SetupCommand.usage, run: SetupCommand.run),
        CommandEntry(name: "replay", usage: ReplayCommand.usage, run: ReplayCommand.run),
        CommandEntry(name: "scenario", usage: ScenarioCommand.usage, run: ScenarioCommand.run),
        CommandEntry(name: "ports", usage: PortsCommand.usage, run: PortsCommand.run),
        CommandEntry(name: "imu", usage: IMUCommand.usage, run: IMUCommand.run),
        CommandEntry(name: "gpio", usage: GPIOCommand.usage, run: GPIOCommand.run),
        CommandEntry(name: "heading", usage: HeadingCommand.usage, run: HeadingCommand.run),
        CommandEntry(name: "track", usage: TrackCommand.usage, run: TrackCommand.run),
        CommandEntry(name: "password-hash", usage: PasswordHashCommand.usage, run: PasswordHashCommand.run),
    ]

    /// The entry named `name`, or nil.
    static func entry(named name: String) -> CommandEntry? { all.first { $0.name == name } }

    /// The options of `puckd` itself (no command), with their usage line: `--help`'s last line.
    static let globalUsage = "  puckd --help [man] | --help-config [markdown|man] | --version | --completion bash"

    /// The process exit statuses (sysexits.h) with what each means: `puckd.8`'s EXIT STATUS.
    static let exitStatuses: [(status: Int32, meaning: String)] = [
        (ExitStatus.ok, "success (run: a clean stop)"),
        (ExitStatus.failure, "setup --condition: no board chosen yet (the unit's ExecCondition skips the start)"),
        (ExitStatus.usage, "usage error: an unknown command or option, a missing value"),
        (ExitStatus.dataError, "a scenario or script file with bad lines (FILE:LINE: …)"),
        (ExitStatus.noInput, "an input file or device is missing"),
        (ExitStatus.unavailable, "a device or service is unavailable (no GPIO chip, no IMU)"),
        (ExitStatus.ioError, "output could not be written, or the final state save failed"),
        (ExitStatus.permission, "permission denied"),
        (ExitStatus.config, "a configuration error: the sentence names file, line and key"),
    ]
}
