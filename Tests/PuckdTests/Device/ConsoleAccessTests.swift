import CLinux
@testable import Configuration
import Console
import Glibc
@testable import Simulation
import Testing
import TestSupport
@testable import Puckd

/// The console's access model: device-shaping keys are refused unless `[console] access = full`, a
/// read-only console changes nothing, a serial console with `[console] password_file` takes no
/// command before its password (crypt(3)), refuses attempts for a while after a wrong one (a state,
/// not a pause: the loop keeps running), and every change and login is logged with the console's name.
@Suite struct ConsoleAccessTests {
    func started(_ overrides: [String]) throws -> ConsoleDeviceHarness {
        let c = try ConsoleDeviceHarness(overrides: overrides)
        c.advance(by: 3_000_000_000)
        _ = c.take()
        return c
    }

    /// Before: `config state.directory /` (and gps.source, sim.*, GPIO lines, the bus) were accepted and
    /// saved, taking effect at the next start.
    @Test func deviceShapingKeysAreRefusedByDefault() throws {
        let c = try started([])
        defer { c.h.removeDirectory() }
        for (key, value) in [("state.directory", "/etc"), ("gps.source", "/etc/shadow"), ("sim.gps_log", "/dev/zero"),
                             ("sim.imu_log", "/dev/zero"), ("gpio.led_fix", "4"), ("imu.bus", "/dev/i2c-7"),
                             ("console.device", "none"), ("console.access", "full"), ("pps.device", "/dev/pps1")] {
            let reply = c.command("config " + key + " " + value)
            #expect(reply.contains("shapes the device") && reply.contains("[console] access = operate"), "\(key): \(reply)")
        }
        #expect(c.device.consoleChanges.isEmpty)
        #expect(c.h.output.contains("console standard input/output: refused to set a device-shaping key: state.directory"))
        // Operating keys still change.
        #expect(c.command("config tracking.follow_zoom 15").hasPrefix("tracking.follow_zoom = 15"))
        #expect(c.device.configuration.tracking.followZoom == 15)
    }

    @Test func fullAccessSetsThemAsBefore() throws {
        let c = try started(["console.access=full"])
        defer { c.h.removeDirectory() }
        #expect(c.command("config gpio.led_heartbeat 5").hasPrefix("gpio.led_heartbeat = 5"))
    }

    @Test func aReadOnlyConsoleChangesNothing() throws {
        let c = try started(["console.access=read-only"])
        defer { c.h.removeDirectory() }
        let mode = c.device.core.trackingMode
        for line in ["mode next", "viewport overview", "show off", "accuracy reduced", "zoom 3", "pan 10 10",
                     "calibrate gyro", "press", "config tracking.follow_zoom 12", "config save"] {
            let reply = c.command(line)
            #expect(reply.contains("this console is read-only"), "\(line): \(reply)")
        }
        #expect(c.device.core.trackingMode == mode && c.device.core.isShowingUserLocation)
        #expect(c.command("status").contains("mode"))
        #expect(c.command("mode").hasPrefix("mode "))
        #expect(c.command("config tracking.follow_zoom").hasPrefix("tracking.follow_zoom = 16.35"))
    }
}

/// A serial console (a pseudo-terminal standing for /dev/ttyGS0) locked by a password file.
@Suite struct ConsolePasswordTests {
    final class SerialConsole {
        let h: SimulatedDeviceHarness
        let master: Int32
        let slavePath: String
        private(set) var screen = ""

        init(_ overrides: [String], passwordFile: (String) -> String) throws {
            var path = [CChar](repeating: 0, count: 64)
            master = clinux_pty_open(&path, path.count)
            try #require(master >= 0)
            _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
            slavePath = path.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            let directory = SimulatedDeviceHarness.temporaryDirectory()
            let file = passwordFile(directory)
            let slave = slavePath
            h = try SimulatedDeviceHarness(overrides: ["console.password_file=" + file] + overrides, directory: directory,
                                           setupChanges: { $0.console = .serial(path: slave, baudRate: 115200) })
            h.device.startConsole(nowNanoseconds: h.now)
            advance(500_000_000)
        }

        deinit { close(master) }

        func advance(_ nanoseconds: Int64) {
            h.advance(by: nanoseconds)
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                screen += String(decoding: chunk[0..<n], as: UTF8.self)
            }
        }

        /// Types `line` + CR and returns what the terminal showed for it.
        func type(_ line: String) -> String {
            let before = screen.endIndex
            let bytes = Array((line + "\r").utf8)
            _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            advance(20_000_000)                       // a tick or more of the loop
            return String(screen[before...])
        }
    }

    static func hashFile(_ directory: String, password: String, mode: mode_t = 0o600) -> String {
        let path = directory + "/console.passwd"
        let hash = ConsolePassword.make(password)!
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        _ = Array((hash + "\n").utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        fchmod(fd, mode)
        close(fd)
        return path
    }

    @Test func nothingRunsBeforeThePasswordAndWrongOnesAreRefusedForAWhile() throws {
        let s = try SerialConsole(["console.login_delay_s=2"]) { Self.hashFile($0, password: "correct horse") }
        defer { s.h.removeDirectory() }
        #expect(s.screen.contains("This console is locked: type its password"))
        #expect(s.screen.hasSuffix("password: "))
        // A command typed at the password prompt is a (wrong) password: not run, not echoed.
        let mode = s.h.device.core.trackingMode
        let wrong = s.type("mode next")
        #expect(!wrong.contains("mode next") && wrong.contains("wrong password; the next attempt is checked in 2.0 s"))
        #expect(s.h.device.core.trackingMode == mode)
        // Within the refusal even the right password is not checked; the loop keeps running meanwhile.
        let ticks = s.h.device.counters.ticks
        let early = s.type("correct horse")
        #expect(early.contains("too many wrong passwords: wait 2.0 s") || early.contains("wait 1.9 s"), "\(early)")
        #expect(s.h.device.counters.ticks > ticks)
        // A second wrong one after the wait doubles it.
        s.advance(2_100_000_000)
        #expect(s.type("hunter2").contains("checked in 4.0 s"))
        s.advance(4_100_000_000)
        let right = s.type("correct horse")
        #expect(right.contains("logged in: type help for the commands"), "\(right)")
        #expect(!right.contains("correct horse"))
        #expect(s.type("mode next").contains("mode "))
        #expect(s.h.device.core.trackingMode != mode)
        let log = s.h.output
        #expect(log.contains("console " + s.slavePath + ": wrong password (1 failure); refusing attempts for 2.0 s"))
        #expect(log.contains("console " + s.slavePath + ": wrong password (2 failures in a row); refusing attempts for 4.0 s"))
        #expect(log.contains("console " + s.slavePath + ": logged in"))
        #expect(log.contains("console " + s.slavePath + ": mode: mode "))
        #expect(!log.contains("horse") && !log.contains("hunter2"))
        // The password never reaches the history (Up recalls nothing of it).
        #expect(s.h.device.console!.session.editor.history.count == 1)
    }

    @Test func aPasswordFileOthersMayReadIsRefused() throws {
        var problem: String?
        do throws(ConsolePassword.Failure) {
            let directory = SimulatedDeviceHarness.temporaryDirectory()
            _ = try ConsolePassword.load(path: Self.hashFile(directory, password: "x", mode: 0o644))
        } catch {
            problem = error.message
        }
        #expect(problem?.contains("readable by every user (mode 0644): a password hash must be readable only by root "
            + "and puckd's user") == true, "\(problem ?? "accepted")")
    }

    @Test func anUnusablePasswordFileKeepsTheConsoleLocked() throws {
        let s = try SerialConsole([]) { directory in
            let path = directory + "/console.passwd"
            _ = Fixtures.temporaryFile(named: "x", contents: [])
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            _ = Array("not a hash\n".utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            return path
        }
        defer { s.h.removeDirectory() }
        let reply = s.type("anything")
        #expect(reply.contains("the console's password file cannot be used") && reply.contains("the console stays locked"))
        #expect(s.type("status").contains("cannot be used"))
    }
}
