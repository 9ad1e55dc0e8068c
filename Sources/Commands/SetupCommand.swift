import Configuration
import Puckd
import SystemCalls

/// `puckd setup BOARD`: chooses the board after a package install. Writes the built-in profile as
/// `/etc/puckd.conf` (atomically), checks it as `puckd run --check` does and says what to run next;
/// `--condition` is the unit's `ExecCondition`, which keeps a fresh install from starting a device
/// that has no board yet.
enum SetupCommand {
    static let usage: StaticString = """
          puckd setup [BOARD] [--config FILE] [--force]
              Choose the board: write its built-in profile as /etc/puckd.conf (atomically; --config
              writes FILE instead), check it as 'puckd run --check' does and say what to run next.
              Without BOARD: list the profiles and say which one the file is. A file that chooses a
              board but is no profile (one you edited) is replaced only with --force, which keeps
              it as FILE.old. Run as root (sudo puckd setup BOARD).
          puckd setup --condition [--config FILE]
              Exit 0 when the file chooses a board (a GPS source, or the simulated board) or does not
              load (puckd run then stops with the reason), 1 after saying what to run when it chooses
              none: the systemd unit's ExecCondition, so a fresh install starts nothing.
        """

    static func run(_ arguments: ArraySlice<String>) -> Int32 {
        var board: String?, path = RunCommand.defaultConfigurationPath
        var force = false, condition = false
        var rest = arguments
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help":
                StandardStreams.out("\(usage)\n")
                return ExitStatus.ok
            case "--force": force = true
            case "--condition": condition = true
            case "--config":
                guard let value = rest.popFirst() else { return usageError("--config needs a value") }
                path = value
            default:
                if argument.hasPrefix("-") { return usageError("unknown option '\(argument)'") }
                if board != nil { return usageError("one BOARD only, not also '\(argument)'") }
                board = argument
            }
        }
        if condition { return board == nil ? checkCondition(path) : usageError("--condition takes no BOARD") }
        guard let board else { return list(path) }
        return install(board, at: path, force: force)
    }

    /// What the file at `path` is now: missing, choosing no board, one of the built-in profiles
    /// (byte for byte), another board of its own, or a file that does not load.
    enum CurrentFile: Equatable {
        case missing, noBoard, profile(String), ownBoard, unloadable(String)
    }

    static func current(_ path: String) -> CurrentFile {
        if !FileSystem.exists(path) { return .missing }
        let text: String
        do throws(ConfigurationError) { text = try ConfigurationLoader.readFile(path) } catch {
            return .unloadable(error.description)
        }
        if let name = BoardProfiles.names.first(where: { BoardProfiles.builtIn($0) == text }) { return .profile(name) }
        do throws(ConfigurationError) {
            let c = try ConfigurationLoader.load(documents: [ConfigurationDocument(name: path, text: text)]).configuration
            return choosesBoard(c) ? .ownBoard : .noBoard
        } catch {
            return .unloadable(error.description)
        }
    }

    /// True when a configuration names something to run: the simulated board or a GPS source.
    static func choosesBoard(_ c: PuckdConfiguration) -> Bool {
        c.board.simulated || !(c.gps.source.isEmpty || ConfigurationKey.isNone(c.gps.source))
    }

    /// The sentence that says how to choose a board.
    static func chooseHint(_ path: String) -> String {
        "choose your board with 'sudo puckd setup BOARD" + (path == RunCommand.defaultConfigurationPath ? "" : " --config " + path)
            + "' (boards: " + BoardProfiles.names.joined(separator: ", ") + "; 'puckd setup' describes them), then "
            + "'sudo systemctl restart puckd'"
    }

    static func checkCondition(_ path: String) -> Int32 {
        switch current(path) {
        case .profile, .ownBoard, .unloadable: return ExitStatus.ok
        case .missing:
            StandardStreams.err("puckd: " + path + " does not exist, so no board is chosen and puckd does not start; "
                + chooseHint(path) + "\n")
        case .noBoard:
            StandardStreams.err("puckd: " + path + " chooses no board yet (no [gps] source), so puckd does not start; "
                + chooseHint(path) + "\n")
        }
        return ExitStatus.failure
    }

    static func list(_ path: String) -> Int32 {
        let now = current(path)
        var out = "puckd setup BOARD writes one of these profiles as " + path + ":\n"
        let width = BoardProfiles.names.map(\.count).max() ?? 0
        for name in BoardProfiles.names {
            let text = BoardProfiles.builtIn(name) ?? ""
            let title = (try? ConfigurationLoader.load(documents: [ConfigurationDocument(name: name, text: text)]))?
                .configuration.board.name ?? ""
            out += "  " + name + String(repeating: " ", count: width - name.count) + "  " + title
                + (now == .profile(name) ? "   (" + path + " is this profile)" : "") + "\n"
        }
        switch now {
        case .missing: out += path + " does not exist: no board is chosen.\n"
        case .noBoard: out += path + " chooses no board yet.\n"
        case .profile: break
        case .ownBoard: out += path + " is a configuration of its own (no profile as it is): setup BOARD --force replaces it.\n"
        case .unloadable(let why): out += path + " does not load: " + why + "\n"
        }
        StandardStreams.out(out)
        return ExitStatus.ok
    }

    static func install(_ board: String, at path: String, force: Bool) -> Int32 {
        guard let profile = BoardProfiles.builtIn(board) else {
            StandardStreams.err("puckd setup: no board profile '" + board + "'; the profiles are "
                + BoardProfiles.names.joined(separator: ", ") + "\n")
            return ExitStatus.usage
        }
        do throws(ConfigurationError) {
            _ = try ConfigurationLoader.load(documents: [ConfigurationDocument(name: "board/" + board + ".conf (built in)", text: profile)])
        } catch {
            StandardStreams.err("puckd setup: the profile does not load: \(error)\n")
            return ExitStatus.config
        }
        let before = current(path)
        switch before {
        case .profile(let name) where name == board:
            StandardStreams.out("puckd setup: " + path + " is already board/" + board + ".conf; nothing written\n")
            return RunCommand.run(["--config", path, "--check"])
        case .ownBoard where !force, .unloadable where !force:
            StandardStreams.err("puckd setup: " + path + " is a configuration of its own, not a profile as it is: "
                + "kept it; 'sudo puckd setup " + board + " --force' replaces it and keeps it as " + path + ".old\n")
            return ExitStatus.config
        default: break
        }
        if keepsOld(before) {
            // The edited file stays as FILE.old: a second name for its inode, then the new file is
            // renamed over FILE (a crash in between leaves FILE as it was).
            try? FileSystem.unlink(path + ".old")
            do throws(Errno) { try FileSystem.makeHardLink(path, at: path + ".old") } catch {
                let denied = error == .permissionDenied || error == .notPermitted
                StandardStreams.err("puckd setup: cannot keep " + path + " as " + path + ".old (" + error.message
                    + ")" + (denied ? "; run it as root: sudo puckd setup " + board + " --force" : "")
                    + "; nothing written\n")
                return denied ? ExitStatus.permission : ExitStatus.ioError
            }
            StandardStreams.out("puckd setup: kept the previous " + path + " as " + path + ".old\n")
        }
        do throws(ConfigurationFileWriter.Failure) {
            try ConfigurationFileWriter.write(profile, to: path)
        } catch {
            let hint = error.error == .permissionDenied || error.error == .notPermitted ? " (run it as root: sudo puckd setup " + board + ")" : ""
            StandardStreams.err("puckd setup: " + error.message + hint + "\n")
            return error.error == .permissionDenied || error.error == .notPermitted ? ExitStatus.permission : ExitStatus.ioError
        }
        StandardStreams.out("puckd setup: wrote board/" + board + ".conf as " + path + "\n")
        let status = RunCommand.run(["--config", path, "--check"])
        if status == ExitStatus.ok {
            StandardStreams.out("puckd setup: next: check the hardware (puckd ports, puckd imu probe, puckd gpio chips), then "
                + "'sudo systemctl restart puckd' and 'journalctl -fu puckd' for its start-up report\n")
        }
        return status
    }

    /// True for a file that is worth keeping when it is replaced (`--force`): one of the user's own.
    static func keepsOld(_ file: CurrentFile) -> Bool {
        switch file {
        case .ownBoard, .unloadable: return true
        case .missing, .noBoard, .profile: return false
        }
    }

    static func usageError(_ message: String) -> Int32 {
        StandardStreams.err("puckd setup: \(message)\nusage:\n\(usage)\n")
        return ExitStatus.usage
    }
}
