@testable import Configuration
import Glibc
@testable import State
@testable import Simulation
import Testing
import TestSupport
@testable import Puckd

/// `puckd run --board sim` end to end, as a real process: the bundled drive replayed over a pty, the
/// IMU twin moved by the drive, the GPIO twin; commands typed on standard input; signals; the state
/// file and the systemd notify socket checked from outside. Waits are on output, with generous
/// timeouts (the machine is shared).
@Suite(.serialized) struct RunCommandProcessTests {
    final class Scratch {
        let path = SimulatedDeviceHarness.temporaryDirectory()
        deinit {
            for name in ["state", "state.tmp", "state.corrupt", "puckd.conf"] { unlink(path + "/" + name) }
            rmdir(path)
        }

        func write(_ name: String, _ text: String) {
            let fd = open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            _ = Array(text.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
    }

    /// On-pulses (start, length) in seconds from a `leds` history ("+1.234:on +1.354:off …").
    static func pulses(inHistoryOf line: String) -> [(Double, Double)] {
        var result: [(Double, Double)] = []
        var onAt: Double?
        for token in line.split(separator: " ") where token.hasPrefix("+") {
            let parts = token.dropFirst().split(separator: ":")
            guard parts.count == 2, let t = Double(parts[0]) else { continue }
            if parts[1] == "on" { onAt = t } else if let start = onAt {
                result.append((start, t - start))
                onAt = nil
            }
        }
        return result
    }

    @Test func simulatedBoardEndToEnd() throws {
        let scratch = Scratch()
        let config = scratch.path + "/puckd.conf"
        scratch.write("puckd.conf", "[heading]\nmag_noise = 0.5\n")
        let notify = SystemdNotifyTests.Listener(abstract: true)
        // The console on standard input/output, scripted (a pipe): replies on standard output, logs on
        // standard error.
        let process = try #require(PuckdProcess(
            ["run", "--board", "sim", "--config", config, "--set", "state.directory=" + scratch.path],
            environment: ["NOTIFY_SOCKET=" + notify.name, "WATCHDOG_USEC=1000000"]))

        // Start-up report, then live state from the replayed drive over the pty.
        #expect(process.logLine(containing: "degraded: nothing", seconds: 30) != nil)
        #expect(process.errorOutput.contains("gps: simulated receiver on /dev/pts/"))
        #expect(process.errorOutput.contains("imu: the simulated I2C bus, 100 Hz, mounting x-forward,z-up: LSM6DSL + LIS3MDL"))
        #expect(process.errorOutput.contains("gpio: simulated chip (label puckd-sim, 54 lines), button 17 (active-low, pull-up, "
            + "debounce 30 ms in puckd: the twin models GPIO uAPI v1, which has no kernel debounce), LEDs fix 22 mode 23 fault 24"))
        #expect(process.logLine(containing: "POSIX termios, because libserialport does not know the device", seconds: 30) != nil,
                "the GPS bytes go through the real serial source's termios path")
        // A scripted watch prints a frame 5 times a second: wait for a 3D fix and the IMU heading.
        process.send("watch status 5")
        #expect(process.waitUntil(seconds: 60) { $0.contains("fix           3D ") && $0.contains("bearing       imuHeading") },
                "the IMU heading takes over after start-up")
        #expect(notify.received().first == "READY=1")

        // A short press (the next command also ends the watch): the next mode of the cycle, on the mode LED.
        process.send("press")
        #expect(process.logLine(containing: "mode: followWithCourse (LED: 2 blinks)", seconds: 30) != nil)
        let beforeLEDs = process.output.endIndex
        process.send("leds")
        #expect(process.line(containing: "mode       ", after: beforeLEDs, seconds: 30)?
            .hasSuffix("  2 short blinks every 2 s: followWithCourse") == true)
        #expect(process.line(containing: "fix        on     22  on: 3D fix", after: beforeLEDs, seconds: 30) != nil)
        #expect(process.line(containing: "fault      off    24  off: no fault", after: beforeLEDs, seconds: 30) != nil)
        var notifications: [String] = []
        process.waitUntil(seconds: 30) { _ in
            notifications += notify.received()
            return notifications.contains("WATCHDOG=1")
        }
        #expect(notifications.contains("WATCHDOG=1"), "watchdog pings at half of WATCHDOG_USEC")

        // SIGHUP with a bad file: rejected, old configuration kept.
        scratch.write("puckd.conf", "[gpio]\nbutton = 99\n")
        process.signal(SIGHUP)
        #expect(process.logLine(containing: "config: reload rejected, the running configuration stays: " + config
            + ":2: [gpio] button = 99: out of range, allowed 0…53 (BCM line offset) or none", seconds: 30) != nil)
        // SIGHUP with a good file: applied, and the new long-press action works.
        scratch.write("puckd.conf", "[heading]\nmag_noise = 0.25\n[gpio]\nlong_press = toggle-location\n")
        process.signal(SIGHUP)
        #expect(process.logLine(containing: "applied heading.mag_noise 0.5 → 0.25, gpio.long_press toggle-overview → "
            + "toggle-location", seconds: 30) != nil)
        process.send("press long")
        #expect(process.logLine(containing: "location: hidden", seconds: 30) != nil)

        // SIGTERM: LEDs off, state saved, exit 0.
        process.signal(SIGTERM)
        #expect(process.waitForExit(seconds: 30) == 0)
        #expect(process.errorOutput.contains("stopped by SIGTERM: LEDs off, state saved to " + scratch.path + "/state"))
        #expect(process.errorOutput.contains("sim: LED lines at exit: fix 22 low mode 23 low fault 24 low"))
        #expect(notify.received().last == "STOPPING=1")
        guard case .loaded(let record) = try StateStore.open(directory: scratch.path).get().load() else {
            Issue.record("no state file after SIGTERM")
            return
        }
        #expect(!record.showsLocation)
        #expect(record.trackingMode == .none, "hiding the puck ends tracking (MapLibre showsUserLocation = NO)")
        #expect(record.lastFix != nil)
    }

    @Test func withoutAConsoleStatusLinesRunUntilSIGINT() throws {
        let scratch = Scratch()
        let process = try #require(PuckdProcess(["run", "--board", "sim", "--console", "none",
                                                 "--set", "state.directory=" + scratch.path, "--status-interval", "0.2"]))
        #expect(process.line(containing: "degraded: nothing", seconds: 30) != nil)
        #expect(process.output.contains("puckd: console: none; a status line every 0.2 s"))
        process.closeInput()
        let mark = process.output.endIndex
        var lines = 0
        process.waitUntil(seconds: 30) { output in
            lines = output[mark...].split(separator: "\n").filter { $0.hasPrefix("status ") }.count
            return lines >= 5
        }
        #expect(lines >= 5, "status lines on standard output; the end of standard input means nothing without a console")
        process.signal(SIGINT)
        #expect(process.waitForExit(seconds: 30) == 0)
        #expect(process.output.contains("stopped by SIGINT"))
    }

    @Test func badConfigurationExits78WithOneSentence() throws {
        let scratch = Scratch()
        scratch.write("puckd.conf", "[gpio]\n\nbutton = 99\n")
        let config = scratch.path + "/puckd.conf"
        let process = try #require(PuckdProcess(["run", "--board", "sim", "--config", config]))
        #expect(process.waitForExit(seconds: 30) == 78)
        #expect(process.errorOutput == "puckd: " + config + ":3: [gpio] button = 99: out of range, allowed 0…53 "
            + "(BCM line offset) or none\n")
        let set = try #require(PuckdProcess(["run", "--board", "sim", "--set", "loop.tick_hz=1000"]))
        #expect(set.waitForExit(seconds: 30) == 78)
        #expect(set.errorOutput == "puckd: --set loop.tick_hz=1000: out of range, allowed 1…240 (hertz)\n")
    }

    @Test func noGPSSourceAtAllExitsWithOneClearSentence() throws {
        let scratch = Scratch()
        scratch.write("puckd.conf", "[board]\nname = bare\n")
        let config = scratch.path + "/puckd.conf"
        let process = try #require(PuckdProcess(["run", "--config", config]))
        #expect(process.waitForExit(seconds: 30) == 78)
        // (`PuckdProcess` adds a free server port, which the sentence names among the overrides.)
        #expect(process.errorOutput == "puckd: no GPS source: [gps] source is not set in " + config
            + " + --set server.listen=127.0.0.1:0; choose the "
            + "board (sudo puckd setup BOARD; puckd setup lists them), set it (e.g. source = /dev/serial0), pass "
            + "--gps SOURCE, or try the simulated board: puckd run --board sim\n")
    }

    @Test func helpConfigPrintsEveryKey() throws {
        let process = try #require(PuckdProcess(["--help-config"]))
        #expect(process.waitForExit(seconds: 30) == 0)
        #expect(process.output == ConfigurationHelp.text)
        #expect(process.output.contains("  button = 17\n      the mode button\n      allowed: 0…53 (BCM line offset) or none; reload: restart"))
    }
}
