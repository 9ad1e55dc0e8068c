import Glibc
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
        scratch.write("puckd.conf", "[heading]\nmag_gain = 0.5\n")
        let notify = SystemdNotifyTests.Listener(abstract: true)
        let process = try #require(PuckdProcess(
            ["run", "--board", "sim", "--config", config, "--set", "state.directory=" + scratch.path,
             "--status-interval", "0.5"],
            environment: ["NOTIFY_SOCKET=" + notify.name, "WATCHDOG_USEC=1000000"]))

        // Start-up report, then live state from the replayed drive over the pty.
        #expect(process.line(containing: "degraded: nothing", seconds: 30) != nil)
        #expect(process.output.contains("gps: simulated receiver on /dev/pts/"))
        #expect(process.output.contains("imu: the simulated I2C bus, 100 Hz, mounting x-forward,z-up: LSM6DSL + LIS3MDL"))
        #expect(process.output.contains("gpio: simulated chip (label puckd-sim, 54 lines), button 17 (active-low, pull-up), "
            + "LEDs fix 22 mode 23 fault 24"))
        #expect(process.line(containing: "POSIX termios, because libserialport does not know the device", seconds: 30) != nil,
                "the GPS bytes go through the real serial source's termios path")
        #expect(process.line(containing: "| fix 3D dgps", seconds: 30) != nil)
        #expect(process.line(containing: "imuHeading", seconds: 30) != nil, "the IMU heading takes over after start-up")
        #expect(notify.received().first == "READY=1")

        // A short press: the next mode of the cycle; after two blink groups, the LED history shows 2 blinks.
        let beforePress = process.output.endIndex
        process.send("press")
        #expect(process.line(containing: "mode: followWithCourse (LED: 2 blinks)", after: beforePress, seconds: 30) != nil)
        let afterChange = process.output.endIndex
        #expect(process.line(containing: "status ", after: afterChange, seconds: 30) != nil)
        // Wait 4.5 s of device time (status lines every 0.5 s), then ask for the LEDs.
        var statusLines = 0
        process.waitUntil(seconds: 60) { output in
            statusLines = output[afterChange...].split(separator: "\n").filter { $0.hasPrefix("status ") }.count
            return statusLines >= 10
        }
        let beforeLEDs = process.output.endIndex
        process.send("leds")
        let modeLine = try #require(process.line(containing: "leds: mode line 23", after: beforeLEDs, seconds: 30))
        let fixLine = try #require(process.line(containing: "leds: fix line 22", after: beforeLEDs, seconds: 30))
        let faultLine = try #require(process.line(containing: "leds: fault line 24", after: beforeLEDs, seconds: 30))
        // Mode LED: the last complete groups have 2 pulses of 120 ms, 250 ms apart, groups 2 s apart.
        let pulses = Self.pulses(inHistoryOf: modeLine)
        #expect(pulses.count >= 4)
        let last4 = pulses.suffix(4).map { $0 }
        if last4.count == 4 {
            for p in last4 { #expect(abs(p.1 - 0.120) < 0.045, "blink length \(p.1) s") }
            #expect(abs(last4[1].0 - last4[0].0 - 0.25) < 0.045)
            #expect(abs(last4[3].0 - last4[2].0 - 0.25) < 0.045)
            #expect(abs(last4[2].0 - last4[0].0 - 2.0) < 0.045, "groups every 2 s")
        }
        // Fix LED steadily on (3D), fault LED off.
        #expect(fixLine.contains("line 22 on") && fixLine.hasSuffix(":on"))
        #expect(faultLine.contains("line 24 off") && !faultLine.contains(":on"))
        #expect(notify.received().contains("WATCHDOG=1"), "watchdog pings at half of WATCHDOG_USEC")

        // SIGHUP with a bad file: rejected, old configuration kept.
        scratch.write("puckd.conf", "[gpio]\nbutton = 99\n")
        var mark = process.output.endIndex
        process.signal(SIGHUP)
        #expect(process.line(containing: "config: reload rejected, the running configuration stays: " + config
            + ":2: [gpio] button = 99: out of range, allowed 0…53 (BCM line offset) or none", after: mark, seconds: 30) != nil)
        // SIGHUP with a good file: applied, and the new long-press action works.
        scratch.write("puckd.conf", "[heading]\nmag_gain = 0.25\n[gpio]\nlong_press = toggle-location\n")
        mark = process.output.endIndex
        process.signal(SIGHUP)
        #expect(process.line(containing: "applied heading.mag_gain 0.5 → 0.25, gpio.long_press toggle-overview → "
            + "toggle-location", after: mark, seconds: 30) != nil)
        mark = process.output.endIndex
        process.send("press long")
        #expect(process.line(containing: "location: hidden", after: mark, seconds: 30) != nil)

        // SIGTERM: LEDs off, state saved, exit 0.
        mark = process.output.endIndex
        process.signal(SIGTERM)
        #expect(process.waitForExit(seconds: 30) == 0)
        #expect(process.output[mark...].contains("stopped by SIGTERM: LEDs off, state saved to " + scratch.path + "/state"))
        #expect(process.output[mark...].contains("sim: LED lines at exit: fix 22 low mode 23 low fault 24 low"))
        #expect(notify.received().last == "STOPPING=1")
        guard case .loaded(let record) = try StateStore.open(directory: scratch.path).get().load() else {
            Issue.record("no state file after SIGTERM")
            return
        }
        #expect(!record.showsLocation)
        #expect(record.trackingMode == .none, "hiding the puck ends tracking (MapLibre showsUserLocation = NO)")
        #expect(record.lastFix != nil)
    }

    @Test func endOfStandardInputKeepsItRunningAndSIGINTStopsIt() throws {
        let scratch = Scratch()
        let process = try #require(PuckdProcess(["run", "--board", "sim", "--set", "state.directory=" + scratch.path,
                                                 "--status-interval", "0.2"]))
        #expect(process.line(containing: "degraded: nothing", seconds: 30) != nil)
        process.closeInput()
        let mark = process.output.endIndex
        var lines = 0
        process.waitUntil(seconds: 30) { output in
            lines = output[mark...].split(separator: "\n").filter { $0.hasPrefix("status ") }.count
            return lines >= 5
        }
        #expect(lines >= 5, "status lines keep coming after end of input")
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
        #expect(process.errorOutput == "puckd: no GPS source: [gps] source is not set in " + config + "; set it (e.g. "
            + "source = /dev/serial0), pass --gps SOURCE, or try the simulated board: puckd run --board sim\n")
    }

    @Test func helpConfigPrintsEveryKey() throws {
        let process = try #require(PuckdProcess(["--help-config"]))
        #expect(process.waitForExit(seconds: 30) == 0)
        #expect(process.output == ConfigurationHelp.text)
        #expect(process.output.contains("  button = 17\n      the mode button\n      allowed: 0…53 (BCM line offset) or none; reload: restart"))
    }
}
