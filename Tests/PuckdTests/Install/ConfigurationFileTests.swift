@testable import Configuration
import Glibc
@testable import Simulation
import SystemCalls
import Testing
import TestSupport
@testable import Puckd

/// Configuration files as the fault probe met them: a quote that made the saved file unloadable,
/// CRLF and byte-order-mark files refused with the whole file quoted, FIFOs that blocked the start
/// and the loop, world-writable and foreign-owned files loaded silently and saved 0666.
@Suite struct ConfigurationFileTests {
    /// Values `config set` accepts that the old writer could not write back (printable ASCII, no blank
    /// at either end), and a few more the document API can hold.
    static let trickyValues = ["\"hello", "\"", "a \"quoted\" word", "a # b", "#start", "x#y", "back\\slash", "\\",
                               "trailing\\", ";semi", "key = value", "\"\"", "'single'", "tab\there", "lead", " lead",
                               "trail ", "", "\u{FEFF}bom", "bell\u{07}", "é ° µ", "new\nline", "cr\r"]

    /// A new temporary directory holding `puckd.conf` with `text` (mode `mode`); returns both paths.
    static func configFile(_ text: String, mode: mode_t = 0o644) -> (directory: String, path: String) {
        let directory = SimulatedDeviceHarness.temporaryDirectory()
        let path = directory + "/puckd.conf"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        fchmod(fd, mode)
        close(fd)
        return (directory, path)
    }

    @Test func everyValueReadsBackAsItself() {
        for value in Self.trickyValues {
            var document = ConfigurationDocument(name: "x", text: "[board]\nname = old  # kept\n")
            document.setValue(value, section: "board", key: "name")
            document.setValue(value, section: "gps", key: "source")          // a new key in a new section
            let reread = ConfigurationDocument(name: "x", text: document.text)
            #expect(reread.value(section: "board", key: "name") == value, "\(value.debugDescription) → \(document.text)")
            #expect(reread.value(section: "gps", key: "source") == value)
            #expect(!reread.lines.contains { $0.kind == .malformed })
            #expect(document.text.contains("  # kept"))
        }
    }

    /// `config board.name "hello` then `config save`: before, the file never loaded again (exit 78 at
    /// every start) while the console said "saved".
    @Test func aQuoteSavedOnTheConsoleLoadsAgain() throws {
        let (directory, path) = Self.configFile("[board]\nname = test board\n")
        let c = try ConsoleDeviceHarness(directory: directory, configFile: path)
        defer { c.h.removeDirectory() }
        c.advance(by: 1_000_000_000)
        _ = c.take()
        for value in ["\"hello", "a # b \\ \"c\""] {
            _ = c.command("config board.name " + value)
            #expect(c.command("config save") == "config saved to " + path + "\n")
            let loaded = try ConfigurationSources(file: path).load()
            #expect(loaded.configuration.board.name == value)
        }
    }

    @Test func aSaveThatWouldNotLoadIsRefusedBeforeTheRename() throws {
        let c = try ConsoleDeviceHarness()
        defer { c.h.removeDirectory() }
        c.device.consoleChanges = [("tracking.follow_zoom", "15")]
        let missing = c.device.readBackProblem("[tracking]\n", path: "/x.conf")
        #expect(missing == "tracking.follow_zoom would read back as nothing instead of '15'")
        c.device.consoleChanges = []
        let bad = c.device.readBackProblem("[gpio]\nbutton = 99\n", path: "/x.conf")
        #expect(bad?.hasPrefix("/x.conf:2: [gpio] button = 99: out of range") == true, "\(bad ?? "nil")")
    }

    @Test func crlfAndAByteOrderMarkAreAcceptedAndKept() throws {
        let text = "\u{FEFF}# written on Windows\r\n[gpio]\r\nbutton = 5\r\nled_fix = 6   # the fix LED\r\n"
        let document = ConfigurationDocument(name: "w.conf", text: text)
        let loaded = try ConfigurationLoader.load(documents: [document])
        #expect(loaded.configuration.gpio.button == 5 && loaded.configuration.gpio.ledFix == 6)
        var edited = document
        edited.setValue("7", section: "gpio", key: "button")
        #expect(edited.text == "\u{FEFF}# written on Windows\r\n[gpio]\r\nbutton = 7\r\nled_fix = 6   # the fix LED\r\n")
    }

    /// Found by `make fuzz` (config target, 241 636 executions): a line ending "\r\r\n" in a file of
    /// LF lines kept a CR, so `[d]\r` was malformed and `t` stayed in `[s]`; written back, the CR read
    /// as the line end, `[d]` became a section and `t` moved into it. A CR at the end is white space now.
    @Test func aStrayCarriageReturnAtALineEndIsWhiteSpace() throws {
        let document = ConfigurationDocument(name: "f.conf", text: "[s]\n[d]\r\r\nt=\n[gpio]\nbutton = 5\r\r\n")
        #expect(document.value(section: "d", key: "t") == "" && document.value(section: "s", key: "t") == nil)
        #expect(document.value(section: "gpio", key: "button") == "5")
        var saved = document
        saved.setValue("", section: "d", key: "t")
        let reread = ConfigurationDocument(name: "f.conf", text: saved.text)
        #expect(reread.entries.map { "\($0.section).\($0.key)=\($0.value)" } == ["d.t=", "gpio.button=5"])
        let finding = try #require(Fixtures.bytes("fuzz/config/finding-stray-cr-at-a-line-end.conf"))
        let text = String(decoding: finding, as: UTF8.self)
        let found = ConfigurationDocument(name: "f.conf", text: text)
        var rewritten = found
        for entry in found.entries { rewritten.setValue(entry.value, section: entry.section, key: entry.key) }
        let again = ConfigurationDocument(name: "f.conf", text: rewritten.text)
        for entry in found.entries {
            #expect(again.value(section: entry.section, key: entry.key) == found.value(section: entry.section, key: entry.key))
        }
    }

    /// Found by `make fuzz` (config target, second run): a quoted value with a `;` comment was written
    /// back bare when it no longer needed quotes, and the bare value swallowed the comment
    /// (`button = 6  ; the button` reads as "6  ; the button").
    @Test func aSemicolonCommentKeepsItsValueQuoted() throws {
        var document = ConfigurationDocument(name: "f.conf", text: "[gpio]\nbutton = \"5\" ; the button\n")
        #expect(document.value(section: "gpio", key: "button") == "5")
        document.setValue("6", section: "gpio", key: "button")
        #expect(document.text == "[gpio]\nbutton = \"6\"  ; the button\n")
        let loaded = try ConfigurationLoader.load(documents: [ConfigurationDocument(name: "f.conf", text: document.text)])
        #expect(loaded.configuration.gpio.button == 6)
        let finding = try #require(Fixtures.bytes("fuzz/config/finding-semicolon-comment.conf"))
        let found = ConfigurationDocument(name: "f.conf", text: String(decoding: finding, as: UTF8.self))
        var rewritten = found
        for entry in found.entries { rewritten.setValue(entry.value, section: entry.section, key: entry.key) }
        let again = ConfigurationDocument(name: "f.conf", text: rewritten.text)
        #expect(!found.entries.isEmpty)
        for entry in found.entries {
            #expect(again.value(section: entry.section, key: entry.key) == found.value(section: entry.section, key: entry.key))
        }
    }

    /// A bad line is quoted as a short escaped excerpt, never the whole file or raw control bytes.
    @Test func errorsQuoteAShortEscapedExcerpt() {
        let long = "\u{1B}[2J" + String(repeating: "x", count: 5000) + "\r"
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.load(documents: [ConfigurationDocument(name: "f.conf", text: "[gpio]\n" + long + "\n")])
        }
        let message = error?.description ?? ""
        #expect(message.hasPrefix("f.conf:2: '\\x1B[2Jxxxxx"))
        #expect(message.count < 200 && message.contains("…") && !message.contains("\u{1B}"))
        let value = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.load(documents: [ConfigurationDocument(name: "f.conf", text: "[gpio]\nbutton = \u{FEFF}1\n")])
        }
        #expect(value?.description == "f.conf:2: [gpio] button = \\u{FEFF}1: not a whole number, allowed 0…53 (BCM line offset) or none")
    }

    /// A FIFO as `--config`, `sim.gps_log` or `sim.imu_log` blocked in open() forever.
    @Test(.timeLimit(.minutes(1))) func aFIFOIsRefusedAtOnce() throws {
        let directory = SimulatedDeviceHarness.temporaryDirectory()
        defer { unlink(directory + "/fifo"); rmdir(directory) }
        let fifo = directory + "/fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        let check = try #require(runProcess([PuckdProcess.binary, "run", "--config", fifo, "--check"]))
        #expect(check.status == ExitStatus.config)
        #expect(check.errorOutput == "puckd: " + fifo + ": not a regular file (a device, directory or pipe); give the path of a file\n")
        for key in ["sim.gps_log", "sim.imu_log"] {
            let run = try #require(runProcess([PuckdProcess.binary, "run", "--board", "sim", "--set", key + "=" + fifo,
                                               "--set", "state.directory=" + directory, "--console", "stdio"]))
            #expect(run.status == ExitStatus.noInput, "\(key): \(run.errorOutput)")
            #expect(run.errorOutput.contains("not a regular file"), "\(run.errorOutput)")
        }
    }

    /// A SIGHUP while the configuration file is a FIFO stalled the whole loop (and the watchdog).
    @Test(.timeLimit(.minutes(1))) func aReloadOfAFIFOIsRejectedWithoutBlocking() throws {
        let (directory, path) = Self.configFile("[tracking]\nfollow_zoom = 15\n")
        let h = try SimulatedDeviceHarness(directory: directory, configFile: path)
        defer { unlink(path); h.removeDirectory() }
        unlink(path)
        try #require(mkfifo(path, 0o600) == 0)
        h.device.requestReload()
        h.advance(by: 10_000_000)
        #expect(h.output.contains("config: reload rejected, the running configuration stays: " + path
            + ": not a regular file (a device, directory or pipe)"))
        #expect(h.device.configuration.tracking.followZoom == 15)
    }

    @Test func aWorldWritableFileIsRefused() throws {
        let path = try #require(Fixtures.temporaryFile(named: "open.conf", contents: Array("[gpio]\nbutton = 5\n".utf8)))
        chmod(path, 0o666)
        #expect(throws: ConfigurationError(location: path, reason: "refused: writable by every user (mode 0666): anyone "
            + "on this machine could reconfigure the board; remove the write permission (chmod o-w " + path + ")")) {
            _ = try ConfigurationSources(file: path).load()
        }
        chmod(path, 0o644)
        #expect(try ConfigurationSources(file: path).load().configuration.gpio.button == 5)
    }

    /// Only root can give a file to another user.
    @Test(.enabled(if: geteuid() == 0, "needs root to chown a file to another user"))
    func aForeignOwnedFileIsRefused() throws {
        let path = try #require(Fixtures.temporaryFile(named: "theirs.conf", contents: Array("[gpio]\nbutton = 5\n".utf8)))
        chown(path, 65534, 65534)
        let error = #expect(throws: ConfigurationError.self) { _ = try ConfigurationSources(file: path).load() }
        #expect(error?.reason.hasPrefix("refused: owned by uid 65534") == true, "\(error?.description ?? "")")
    }

    /// `config save` of a group-writable file wrote it back 0666-style; now without write for others.
    @Test func aSaveUsesSafePermissions() throws {
        let (directory, path) = Self.configFile("[tracking]\nfollow_zoom = 15\n", mode: 0o664)   // our group: trusted
        let c = try ConsoleDeviceHarness(directory: directory, configFile: path)
        defer { unlink(path); c.h.removeDirectory() }
        c.advance(by: 1_000_000_000)
        _ = c.command("config tracking.follow_zoom 14")
        #expect(c.command("config save") == "config saved to " + path + "\n")
        var info = stat()
        stat(path, &info)
        #expect(info.st_mode & 0o7777 == 0o644)
        #expect(info.st_uid == geteuid())
    }

    @Test func aReadOnlyEtcUnderTheUnitIsExplained() {
        let failure = ConfigurationFileWriter.Failure(path: "/etc/puckd.conf", step: "checking it", error: .readOnlyFileSystem)
        let unit = failure.message(underSystemd: true)
        #expect(unit.hasPrefix("cannot write /etc/puckd.conf (Read-only file system): the systemd unit mounts /etc "
            + "read-only for puckd (ProtectSystem=strict)"))
        #expect(unit.contains("ReadWritePaths=/etc/puckd") && unit.hasSuffix("; the file is unchanged"))
        #expect(failure.message(underSystemd: false).contains("the file system is mounted read-only"))
    }
}
