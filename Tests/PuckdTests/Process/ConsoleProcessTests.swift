import CLinux
@testable import Configuration
import Glibc
@testable import State
@testable import Simulation
import Testing
import TestSupport
@testable import Puckd

/// `puckd run --board sim` with its console, end to end as real processes: typed on a pseudo-terminal
/// like a person (interactive), piped like a script (scripted), on a serial port (a pty's slave given
/// with --console), and the way `make run` starts it. Waits are for text, never sleeps.
@Suite(.serialized) struct ConsoleProcessTests {
    final class Scratch {
        let path = SimulatedDeviceHarness.temporaryDirectory()
        deinit {
            _ = runProcess(["rm", "-rf", path])
        }

        @discardableResult
        func write(_ name: String, _ text: String, mode: mode_t = 0o644) -> String {
            let fd = open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
            _ = Array(text.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            close(fd)
            return path + "/" + name
        }

        func read(_ name: String) -> String { String(decoding: Fixtures.readFile(path + "/" + name) ?? [], as: UTF8.self) }
    }

    @Test func interactiveSessionOnATerminal() throws {
        let scratch = Scratch()
        // A temporary copy of the simulated profile: config save writes into it.
        let profile = scratch.write("sim.conf", try #require(BoardProfiles.builtIn("sim")))
        let p = try #require(PtyProcess(["run", "--board", profile, "--set", "state.directory=" + scratch.path + "/state"]))
        // The start-up report, the greeting, the prompt.
        #expect(p.expect("puckd: degraded: nothing\r\n") != nil, "the report, before raw mode: the terminal adds the CRs")
        #expect(p.expect("puckd 0.1.0 console. Type help for the commands; Tab completes, Up recalls.\r\npuckd> ") != nil)
        // Log lines arrive above the prompt; wait until the IMU runs and a fix came in.
        #expect(p.expect("puckd: imu: running (LSM6DSL + LIS3MDL)\r\n") != nil)
        // Wait for the first 3D fix in a watch (redrawn 10 times a second), then stop it.
        p.type("watch status 10\r")
        #expect(p.expect("fix           3D ") != nil)
        p.type("q")
        #expect(p.expect("\r\npuckd> ") != nil)
        let status = try #require(p.command("status"))
        #expect(status.contains("fix           3D ") && status.contains("  41.57"), "\(status)")
        #expect(status.contains("mode          follow ("))

        // mode next: the next mode of the cycle, and the mode LED blinks its position.
        let mode = try #require(p.command("mode next"))
        #expect(mode.contains("mode followWithCourse (tracking state "), "\(mode)")
        #expect(try #require(p.command("leds")).contains("2 short blinks every 2 s: followWithCourse\r\n"))
        let viewport = try #require(p.command("viewport overview"))
        #expect(viewport.contains("viewport ") && viewport.contains("overview"), "\(viewport)")
        let zoom = try #require(p.command("zoom 15"))
        #expect(zoom.contains(", zoom 15.00, "), "a pinch gesture to zoom 15: \(zoom)")

        // config: set a live key and save it into the profile copy, comments kept.
        #expect(p.command("config tracking.follow_zoom 15")?.contains(
            "tracking.follow_zoom = 15  (set on the console)  (not saved yet: config save writes it)\r\n") == true)
        #expect(p.command("config save")?.contains("config saved to " + profile + "\r\n") == true)
        let saved = scratch.read("sim.conf")
        #expect(saved.contains("# puckd board profile: the simulated board"), "the comments survived")
        #expect(saved.contains("[tracking]\nmode = follow\nshow_location = true\nfollow_zoom = 15\n"))
        var unchanged = saved
        if let added = unchanged.firstRange(of: "follow_zoom = 15\n") { unchanged.removeSubrange(added) }
        #expect(unchanged == BoardProfiles.builtIn("sim"), "nothing else changed")

        // Tab completes a command name; Up recalls the last line.
        p.type("versi\t")
        #expect(p.expect("versi" + "on ") != nil)
        p.type("\r")
        #expect(p.expect("puckd 0.1.0\r\npuckd> ") != nil)
        p.type("\u{1B}[A")
        #expect(p.expect("\rpuckd> version \u{1B}[K") != nil)
        p.type("\r")
        #expect(p.expect("puckd 0.1.0\r\npuckd> ") != nil)

        // watch status 5: redrawn in place until Ctrl-C.
        p.type("watch status 5\r")
        #expect(p.expect("\u{1B}[Hevery 0.2 s: status   (Ctrl-C or q stops)\u{1B}[K\r\npuckd 0.1.0, board ") != nil)
        #expect(p.expect("\u{1B}[Hevery 0.2 s: status") != nil, "a second frame")
        p.type("\u{03}")
        #expect(p.expect("\r\npuckd> ") != nil)

        // json on: every reply one JSON object.
        #expect(p.command("json on") == "{\"reply\":\"json\",\"json\":true}\r\n")
        let json = try #require(p.command("status"))
        let parsed = try #require(runProcess(["python3", "-c",
            "import json,sys; r=json.loads(sys.stdin.read()); print(r['reply'], r['fix']['mode'], r['viewport']['viewportStatus'] if 'viewportStatus' in r['viewport'] else sorted(r['viewport']))"],
            input: Array(json.utf8)))
        #expect(parsed.status == 0 && parsed.output.hasPrefix("status 3D "), "\(json) → \(parsed.output) \(parsed.errorOutput)")
        #expect(p.command("json off") == "json off\r\n")

        // quit: a clean exit, LEDs off, state saved, the terminal restored.
        p.type("quit\r")
        #expect(p.expect("bye\r\n") != nil)
        #expect(p.waitForExit() == 0)
        #expect(p.rest.contains("puckd: stopped by quit on the console: LEDs off, state saved to " + scratch.path + "/state/state"))
        #expect(p.rest.contains("sim: LED lines at exit: fix 22 low mode 23 low fault 24 low"))
        var settings = termios()
        #expect(tcgetattr(p.slave, &settings) == 0)
        #expect(settings.c_lflag & tcflag_t(ICANON | ECHO | ISIG) == tcflag_t(ICANON | ECHO | ISIG), "the terminal is cooked again")
        guard case .loaded(let record) = try StateStore.open(directory: scratch.path + "/state").get().load() else {
            Issue.record("no state after quit")
            return
        }
        #expect(record.lastFix != nil)
        #expect(record.viewport == .overview || record.trackingMode == .none, "the pinch ended tracking")
    }

    @Test func scriptedCommandsFromAPipeReplyAndEndAtEndOfInput() throws {
        let scratch = Scratch()
        let result = try #require(runProcess([PuckdProcess.binary, "run", "--board", "sim",
                                              "--set", "state.directory=" + scratch.path],
                                             input: Array("mode next\nstatus\n".utf8)))
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        // Whether the replayed drive's first fix was applied before the piped line was read, and whether
        // the camera's move to it had begun or ended by the tick that answers (a command is answered
        // at the next tick), depends on how fast the process started: any of the three states is right;
        // the mode is what the line asked for.
        let states = ["possible", "began", "changed"].map { "mode followWithCourse (tracking state \($0))" }
        #expect(states.contains(String(lines.first ?? "")), "\(lines.first ?? "")")
        #expect(lines.dropFirst().first?.hasPrefix("puckd 0.1.0, board simulated board") == true)
        #expect(!result.output.contains("puckd: "), "replies only on standard output: \(result.output)")
        #expect(result.errorOutput.contains("puckd: degraded: nothing\n"))
        #expect(result.errorOutput.hasSuffix("puckd: stopped by the end of the console's input: LEDs off, state saved to "
            + scratch.path + "/state\npuckd: sim: LED lines at exit: fix 22 low mode 23 low fault 24 low\n"))
        guard case .loaded(let record) = try StateStore.open(directory: scratch.path).get().load() else {
            Issue.record("no state")
            return
        }
        #expect(record.trackingMode == .followWithCourse)
    }

    @Test func startedWithStandardInputOnDevNull() throws {
        let scratch = Scratch()
        // By hand: the start-up report and a clean exit at the end of input.
        let byHand = try #require(runProcess(["sh", "-c", "exec '" + PuckdProcess.binary + "' run --board sim --set "
            + "state.directory=" + scratch.path + " </dev/null"]))
        #expect(byHand.status == 0)
        #expect(byHand.output.isEmpty)
        #expect(byHand.errorOutput.contains("puckd: console: standard input/output (not a terminal: scripted"))
        #expect(byHand.errorOutput.contains("puckd: stopped by the end of the console's input"))
        // Under systemd (a notify socket), with [console] device = auto (the real boards' profiles leave it
        // so; the simulated profile says stdio): no console, the device keeps running until SIGTERM.
        let notify = SystemdNotifyTests.Listener(abstract: true)
        let service = try #require(PuckdProcess(["run", "--board", "sim", "--console", "auto",
                                                 "--set", "state.directory=" + scratch.path],
                                                environment: ["NOTIFY_SOCKET=" + notify.name], standardInputNull: true))
        #expect(service.line(containing: "console: none", seconds: 30) != nil)
        #expect(service.line(containing: "gps: source open", seconds: 30) != nil)
        #expect(service.exitStatus == nil)
        service.signal(SIGTERM)
        #expect(service.waitForExit(seconds: 30) == 0)
        #expect(service.output.contains("stopped by SIGTERM"))
    }

    @Test func makeRunStartsWatchingAndCtrlCReturnsToThePrompt() throws {
        let scratch = Scratch()
        let p = try #require(PtyProcess(["run", "--board", "sim", "--set", "state.directory=" + scratch.path,
                                         "--set", "console.start_command=watch status 2"]))
        // The live status shows without typing anything.
        #expect(p.expect("puckd> watch status 2\r\n") != nil)
        #expect(p.expect("\u{1B}[Hevery 0.5 s: status   (Ctrl-C or q stops)") != nil)
        #expect(p.expect("fix           3D", seconds: 60) != nil)
        p.type("\u{03}")
        #expect(p.expect("\r\npuckd> ") != nil)
        p.type("\u{04}")   // Ctrl-D on an empty line
        #expect(p.expect("bye\r\n") != nil)
        #expect(p.waitForExit() == 0)
    }

    @Test func serialConsoleOnAPortQuitStartsAFreshSession() throws {
        let scratch = Scratch()
        var path = [CChar](repeating: 0, count: 64)
        let master = clinux_pty_open(&path, path.count)
        try #require(master >= 0)
        defer { close(master) }
        let port = path.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let process = try #require(PuckdProcess(["run", "--board", "sim", "--console", port,
                                                 "--set", "state.directory=" + scratch.path]))
        let terminal = PtyMaster(fd: master)
        #expect(terminal.expect("puckd 0.1.0 console. Type help for the commands; Tab completes, Up recalls.\r\npuckd> ") != nil)
        #expect(process.line(containing: "console: " + port + " at 115200 baud (serial console, interactive)", seconds: 30) != nil)
        terminal.type("version\r")
        #expect(terminal.expect("version\r\npuckd 0.1.0\r\npuckd> ") != nil)
        terminal.type("mode none\r")
        #expect(terminal.expect("mode none (tracking state possible)\r\npuckd> ") != nil)
        // quit ends this session: bye, then a fresh greeting; puckd keeps running.
        terminal.type("quit\r")
        #expect(terminal.expect("bye\r\npuckd 0.1.0 console.") != nil)
        #expect(terminal.expect("puckd> ") != nil)
        terminal.type("\u{1B}[A")
        #expect(terminal.expect("\u{07}") != nil, "a fresh session: no history to recall (bell)")
        #expect(process.exitStatus == nil)
        process.signal(SIGTERM)
        #expect(process.waitForExit(seconds: 30) == 0)
        #expect(process.output.contains("stopped by SIGTERM"))
    }

    @Test func configSaveRefusesAFileItMayNotWrite() throws {
        let scratch = Scratch()
        let profile = scratch.write("sim.conf", try #require(BoardProfiles.builtIn("sim")), mode: 0o644)
        chmod(scratch.path, 0o755)           // not world-writable: puckd refuses a profile in such a directory
        let state = scratch.path + "/state"
        mkdir(state, 0o777)
        chmod(state, 0o777)
        // As root, run puckd as nobody (who may not write the root-owned profile); as a user, make it read-only.
        var command = [PuckdProcess.binary, "run", "--board", profile, "--set", "state.directory=" + state]
        if geteuid() == 0 {
            command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command
        } else {
            chmod(profile, 0o444)
        }
        let before = scratch.read("sim.conf")
        let result = try #require(runProcess(command, input: Array("config tracking.follow_zoom 15\nconfig save\n".utf8)))
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.hasSuffix("config: cannot write " + profile + " (Permission denied): run puckd as a user that "
            + "may write it, or start it with --config FILE naming a file it may write; the file is unchanged\n"),
                "\(result.output)")
        #expect(scratch.read("sim.conf") == before)
    }
}

/// The test's end of a serial console: the master of a pty whose slave puckd opened as its console.
final class PtyMaster {
    let fd: Int32
    private var received = ""
    private var consumed = 0

    init(fd: Int32) {
        self.fd = fd
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// Waits until `text` arrives after what was consumed; returns it with what came before.
    func expect(_ text: String, seconds: Double = 60) -> String? {
        let deadline = PuckdProcess.now() + seconds
        while true {
            let rest = String(received.utf8.dropFirst(consumed))!
            if let range = rest.firstRange(of: text) {
                let taken = String(rest[..<range.upperBound])
                consumed += taken.utf8.count
                return taken
            }
            let left = deadline - PuckdProcess.now()
            if left <= 0 { return nil }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, Int32(min(left * 1000, 200)) + 1)
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                received += String(decoding: chunk[0..<n], as: UTF8.self)
            }
        }
    }
}
