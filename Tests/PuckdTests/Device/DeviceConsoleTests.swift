@testable import Configuration
@testable import Console
import Glibc
import Heading
import IMU
@testable import Puckd
@testable import Simulation
@testable import State
import TestSupport
import Testing
import Tracking

/// Console commands applied to the running simulated device (in-process, synthetic clock): each one
/// changes the device for real and the reply reads the change back.
@Suite(.serialized) struct DeviceConsoleTests {
    /// A device with a 3D fix after 3 s of the drive, console scripted on pipes.
    func started(_ overrides: [String] = [], interactive: Bool = false, configFile: String? = nil,
                 directory: String? = nil) throws -> ConsoleDeviceHarness {
        let c = try ConsoleDeviceHarness(interactive: interactive, overrides: overrides, directory: directory,
                                         configFile: configFile)
        c.advance(by: 3_000_000_000)
        _ = c.take()
        return c
    }

    @Test func modeAndViewportCommandsChangeTheCoreAndTheModeLED() throws {
        let c = try started()
        defer { c.h.removeDirectory() }
        #expect(c.device.core.trackingMode == .follow)
        #expect(c.command("mode next").hasPrefix("mode followWithCourse (tracking state "))
        #expect(c.device.core.trackingMode == .followWithCourse)
        #expect(c.h.output.contains("puckd: mode: followWithCourse (LED: 2 blinks)"))
        let leds = c.command("leds")
        #expect(leds.contains("mode       ") && leds.contains("2 short blinks every 2 s: followWithCourse\n"))
        #expect(leds.contains("fix        on     22  on: 3D fix\n"))
        #expect(c.command("mode followWithHeading immediate").hasPrefix("mode followWithHeading"))
        #expect(c.command("mode").hasPrefix("mode followWithHeading"))
        // The mode cycle's next step after the last entry is the first (none), then follow.
        _ = c.command("mode next")
        #expect(c.device.core.trackingMode == .none)
        #expect(c.command("leds").contains("off (first mode of the cycle): none"))

        #expect(c.command("viewport overview") .hasPrefix("viewport "))
        if case .transition(_, to: .overview) = c.device.core.camera.viewportStatus {} else if
            case .state(.overview) = c.device.core.camera.viewportStatus {} else {
            Issue.record("viewport overview did not start the overview: \(c.device.core.camera.viewportStatus)")
        }
        var waited = 0
        while c.device.core.camera.viewportStatus != .state(.overview) && waited < 20 {
            c.advance(by: 500_000_000)
            waited += 1
        }
        #expect(c.device.core.camera.viewportStatus == .state(.overview))
        #expect(c.device.currentCycleEntry == .overview)

        let follow = c.command("viewport follow zoom=15 pitch=30 bearing=course immediate")
        #expect(follow.hasPrefix("viewport "))
        #expect(c.device.core.camera.viewportStatus == .state(.followPuck))
        #expect(c.device.followViewport == SavedFollowViewport(zoom: 15, pitchDegrees: 30, bearing: .course))
        c.advance(by: 100_000_000)
        #expect(abs(c.device.core.camera.zoom - 15) < 0.01)
        #expect(abs(c.device.core.camera.pitchDegrees - 30) < 0.01)
        _ = c.command("viewport idle")
        #expect(c.device.core.camera.viewportStatus == .idle)
        // The viewport options are part of the state.
        c.advance(by: 3_000_000_000)
        #expect(c.device.stateRecord().followViewport == SavedFollowViewport(zoom: 15, pitchDegrees: 30, bearing: .course))
    }

    @Test func showAccuracyAndPreciseChangeAuthorization() throws {
        let c = try started()
        defer { c.h.removeDirectory() }
        #expect(c.command("show off") == "showsUserLocation off\n")
        #expect(!c.device.core.isShowingUserLocation)
        #expect(c.command("show") == "showsUserLocation off\n")
        #expect(c.command("show on") == "showsUserLocation on\n")
        #expect(c.command("accuracy reduced") == "authorization authorized, accuracy reduced\n")
        #expect(c.device.core.authorization.accuracy == .reduced)
        #expect(c.device.accuracySetting == .reduced)
        #expect(c.command("precise SomeOtherKey") == "precise: the tracking core knows no such purpose key (MapLibre's is "
            + "MLNAccuracyAuthorizationDescription)\n")
        #expect(c.command("precise MLNAccuracyAuthorizationDescription")
            == "authorization authorized, accuracy full (purpose key MLNAccuracyAuthorizationDescription)\n")
        #expect(c.device.core.authorization.accuracy == .full)
        #expect(c.device.accuracySetting == .reduced, "temporary: the setting stays reduced")
    }

    @Test func gesturesMoveTheCameraAsUserGestures() throws {
        let c = try started()
        defer { c.h.removeDirectory() }
        _ = c.command("mode follow immediate")
        c.advance(by: 2_000_000_000)
        let before = c.device.core.camera
        let reply = c.command("pan 200 0")
        #expect(reply.hasPrefix("camera ") && reply.hasSuffix(", mode none\n"), "a pan ends tracking: \(reply)")
        #expect(c.device.core.trackingMode == .none)
        #expect(c.device.core.camera.center != before.center)
        _ = c.command("zoom 15.5")
        c.advance(by: 100_000_000)
        #expect(abs(c.device.core.camera.zoom - 15.5) < 0.01)
        _ = c.command("pitch 40")
        c.advance(by: 100_000_000)
        #expect(abs(c.device.core.camera.pitchDegrees - 40) < 0.01)
        let bearing = c.device.core.camera.bearingDegrees
        _ = c.command("rotate 30")
        c.advance(by: 100_000_000)
        let turned = (c.device.core.camera.bearingDegrees - bearing + 720).truncatingRemainder(dividingBy: 360)
        #expect(abs(turned - 330) < 0.5 || abs(turned - 30) < 0.5, "rotated by 30°: \(turned)")
    }

    @Test func pressPressesTheSimulatedButton() throws {
        let c = try started()
        defer { c.h.removeDirectory() }
        let presses = c.device.counters.shortPresses
        #expect(c.command("press") == "press: button 1 short press\n")
        c.advance(by: 1_000_000_000)
        #expect(c.device.counters.shortPresses == presses + 1)
        #expect(c.device.core.trackingMode == .followWithCourse)
        #expect(c.command("press 2") == "press: no second button configured ([gpio] button2), or it is still held\n")
        #expect(c.command("press long") == "press: button 1 long press\n")
        c.advance(by: 2_000_000_000)
        #expect(c.device.counters.longPresses == 1)
        #expect(c.device.currentCycleEntry == .overview, "the long press toggles the overview")
    }

    @Test func statsEventsVersionAndJSON() throws {
        let c = try started()
        defer { c.h.removeDirectory() }
        let stats = c.command("stats")
        for name in ["[nmea framer]", "dropBadChecksums", "sentencesDelivered", "[device]", "loop.ticks", "gps.fixes",
                     "i2c.errors.nack", "gpio.buttonEdges", "loop.maxWakeLatencyNanoseconds", "console.commandsApplied",
                     "state.writes", "track.recordsAppended", "track.durableSequence", "allocationsAfterStartUp", "[console]", "droppedReplies"] {
            #expect(stats.contains(name), "stats lists \(name)")
        }
        let fixesLine = try #require(stats.split(separator: "\n").first { $0.contains("gps.fixes") })
        #expect((Int(fixesLine.split(separator: " ").last ?? "") ?? 0) >= 20, "\(fixesLine)")
        _ = c.command("mode none")
        let events = c.command("events 5")
        #expect(events.contains("didChangeTrackingMode"))
        #expect(c.command("version") == "puckd " + PuckdVersion.string.description + "\n")
        #expect(c.command("json on") == "{\"reply\":\"json\",\"json\":true}\n")
        let status = c.command("status")
        let parsed = try #require(runProcess(["python3", "-c",
            "import json,sys; r=json.loads(sys.stdin.read()); print(r['reply'], r['fix']['mode'], r['trackingMode'], "
                + "[s['name'] for s in r['sources']])"], input: Array(status.utf8)))
        #expect(parsed.status == 0, "\(status)")
        #expect(parsed.output == "status 3D none ['gps', 'imu', 'gpio', 'pps', 'console', 'state', 'track']\n")
    }

    @Test func aTrackFaultIsListedByStatusWithWhatToDo() throws {
        let c = try started(["track.directory=/proc/puckd-no-track"])
        defer { c.h.removeDirectory() }
        let status = c.command("status")
        #expect(status.contains("track: cannot create the track directory /proc/puckd-no-track"), "\(status)")
        #expect(c.command("track").contains("last error  cannot create the track directory /proc/puckd-no-track"))
    }

    @Test func trackViewShowsTheJournal() throws {
        let c = try started(["track.flush_interval_s=1"])
        defer { c.h.removeDirectory() }
        c.advance(by: 3_000_000_000)
        let text = c.command("track")
        #expect(text.hasPrefix("track       " + c.h.directory + "/track\nsegments    1, "), "\(text)")
        #expect(text.contains(" records\noldest      20"))
        #expect(text.contains("\nsequence    last "))
        #expect(text.contains("\nlast flush  ") && text.contains(" s ago\n"))
        #expect(text.contains("last error  none\n"))
        #expect(c.command("status").contains("track: " + c.h.directory + "/track"))
        _ = c.command("json on")
        let json = c.command("track")
        let parsed = try #require(runProcess(["python3", "-c",
            "import json,sys; r=json.loads(sys.stdin.read()); print(r['reply'], r['enabled'], r['segments'], "
                + "r['lastSequence'] >= r['durableSequence'] >= 0, r['records'] == r['lastSequence'] + 1, r['lastError'])"],
            input: Array(json.utf8)))
        #expect(parsed.output == "track True 1 True True None\n", "\(json)")
    }

    @Test func configShowsOriginsSetsLiveOrForRestartAndRefusesBadValues() throws {
        let c = try started(["console.access=full"])      // gpio.button shapes the device (ConsoleAccessTests)
        defer { c.h.removeDirectory() }
        #expect(c.command("config gps.baud") == "gps.baud = 115200  (board/sim.conf (built in):13)\n")
        #expect(c.command("config tracking.follow_pitch") == "tracking.follow_pitch = 45  (default)\n")
        #expect(c.command("config state.directory").hasPrefix("state.directory = " + c.h.directory
            + "  (--set state.directory="))
        let list = c.command("config")
        #expect(list.split(separator: "\n").count == ConfigurationKeys.all.count)
        // A live key applies at once.
        #expect(c.command("config tracking.follow_zoom 15")
            == "tracking.follow_zoom = 15  (set on the console)  (not saved yet: config save writes it)\n")
        #expect(c.device.configuration.tracking.followZoom == 15)
        _ = c.command("viewport follow immediate")
        c.advance(by: 100_000_000)
        #expect(abs(c.device.core.camera.zoom - 15) < 0.01)
        // A restart key waits.
        #expect(c.command("config imu.rate_hz 50") == "imu.rate_hz = 50  (set on the console)  (needs a restart to apply)"
            + "  (not saved yet: config save writes it)\n")
        #expect(c.device.configuration.imu.rateHertz == 100)
        #expect(c.h.output.contains("puckd: config: imu.rate_hz = 50 set on the console standard input/output (needs a "
            + "restart to apply; not saved yet)"))
        // Errors: the key table's own messages, the checks across keys, unknown keys.
        #expect(c.command("config gpio.button 99")
            == "config: [gpio] button = 99: out of range, allowed 0…53 (BCM line offset) or none\n")
        #expect(c.command("config gpio.button abc")
            == "config: [gpio] button = abc: not a whole number, allowed 0…53 (BCM line offset) or none\n")
        #expect(c.command("config gps.strict maybe") == "config: [gps] strict = maybe: not a boolean, allowed true or false\n")
        #expect(c.command("config tracking.mode sideways") == "config: [tracking] mode = sideways: not allowed, use one of "
            + "none, follow, followWithCourse, followWithHeading, off, recenter, navigation, compassNavigation\n")
        #expect(c.command("config gpio.button 22") == "config: board/sim.conf (built in):31: [gpio] led_fix = 22: line 22 "
            + "is also [gpio] button (set on the console); give each button, LED and PPS input its own line\n")
        #expect(c.command("config tracking.folow_zoom 3")
            == "config: unknown key 'tracking.folow_zoom'; did you mean 'tracking.follow_zoom'? (config lists the keys)\n")
        #expect(c.device.configuration.gpio.button == 17)
        // Nothing to write back to with a built-in profile.
        #expect(c.command("config save") == "config: running from the built-in board profile sim with no configuration "
            + "file, so there is no file to write back to; copy the profile (board/sim.conf in the source tree) to a file "
            + "you may write, start puckd with --config FILE, and save again\n")
    }

    /// A profile copy with comments, blank lines and a value with a trailing comment.
    static let profile = """
        # My board: a copy of the simulated profile.
        [board]
        name = my sim   # shown at start-up
        simulated = true

        [gps]
        baud = 115200

        # Tracking as I like it.
        [tracking]
        mode = follow
        follow_zoom = 16   # closer than Mapbox's 16.35

        [console]
        status_interval_s = 0

        """

    @Test func configSaveWritesTheFileKeepingCommentsAndOrder() throws {
        let directory = SimulatedDeviceHarness.temporaryDirectory()
        let path = directory + "/my-board.conf"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o640)
        _ = Array(Self.profile.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let c = try started(configFile: path, directory: directory)
        defer {
            unlink(path)
            c.h.removeDirectory()
        }
        #expect(c.command("config tracking.follow_zoom") == "tracking.follow_zoom = 16  (" + path + ":12)\n")
        _ = c.command("config tracking.follow_zoom 15")
        _ = c.command("config gps.stale_s 5")
        _ = c.command("config imu.rate_hz 50")
        #expect(c.command("config save") == "config saved to " + path + "\n")
        let saved = String(decoding: Fixtures.readFile(path) ?? [], as: UTF8.self)
        #expect(saved == """
            # My board: a copy of the simulated profile.
            [board]
            name = my sim   # shown at start-up
            simulated = true

            [gps]
            baud = 115200
            stale_s = 5

            # Tracking as I like it.
            [tracking]
            mode = follow
            follow_zoom = 15  # closer than Mapbox's 16.35

            [console]
            status_interval_s = 0

            [imu]
            rate_hz = 50

            """)
        var info = stat()
        stat(path, &info)
        #expect(info.st_mode & 0o777 == 0o640, "the file keeps its permissions")
        let leftovers = try #require(runProcess(["sh", "-c", "ls -a " + directory + " | grep puckd- || true"]))
        #expect(leftovers.output.isEmpty, "no temporary file left: \(leftovers.output)")
        // The values now come from the file, at their new lines.
        #expect(c.command("config gps.stale_s") == "gps.stale_s = 5  (" + path + ":8)\n")
        #expect(c.command("config imu.rate_hz") == "imu.rate_hz = 50  (" + path + ":19)  (needs a restart to apply)\n")
        #expect(c.command("config save") == "config: nothing to save: no value was changed on the console since the start "
            + "or the last save (" + path + " is as it was)\n")
        // And the file is a valid configuration that gives those values.
        let reloaded = try ConfigurationSources(board: "sim", file: path).load().configuration
        #expect(reloaded.tracking.followZoom == 15 && reloaded.gps.staleSeconds == 5 && reloaded.imu.rateHertz == 50)
    }

    @Test func calibrateGyroMeasuresTheBiasAppliesAndSavesIt() throws {
        let directory = SimulatedDeviceHarness.temporaryDirectory()
        let bias = Vector3(0.004, -0.003, 0.0025)   // rad/s: about 0.23, -0.17, 0.14 °/s
        do {
            let c = try ConsoleDeviceHarness(directory: directory, prepare: { $0.motion.gyroBiasRadiansPerSecond = bias })
            c.advance(by: 3_000_000_000)
            _ = c.take()
            #expect(c.command("calibrate gyro").hasPrefix("calibrate: gyroscope bias measurement started: keep the board still ("))
            #expect(c.command("heading").contains("running       gyroscope"))
            c.advance(by: 7_000_000_000)
            let measured = try #require(c.device.imuLink.savedGyroBias)
            #expect((measured - bias).length < 0.0005, "measured \(measured), true \(bias)")
            #expect(c.device.imuLink.lastCalibrationResult.string.hasPrefix("gyroscope bias 0.2"))
            #expect(c.device.imuLink.lastCalibrationResult.string.hasSuffix(" s still; applied and saved"))
            #expect(c.h.output.contains("puckd: calibration: gyroscope bias "))
            #expect(c.command("calibrate stop") == "calibrate: no calibration is running (calibrate mag or calibrate gyro "
                + "starts one)\n")
            c.advance(by: 3_000_000_000)
            guard case .loaded(let record) = try StateStore.open(directory: directory).get().load() else {
                Issue.record("no state file")
                return
            }
            #expect((record.gyroBiasRadiansPerSecond.map { ($0 - bias).length } ?? 1) < 0.0005)
        }
        // The next start seeds the heading filter with it.
        let again = try SimulatedDeviceHarness(directory: directory)
        defer { again.removeDirectory() }
        #expect(again.device.imuLink.heading.filter.gyroBias.isEstimated)
        #expect((again.device.imuLink.heading.filter.gyroBias.biasRadiansPerSecond - bias).length < 0.0005)
    }

    @Test func calibrateMagnetometerAndStopIt() throws {
        let c = try started()
        defer { c.h.removeDirectory() }
        #expect(c.command("calibrate mag").hasPrefix("calibrate: magnetometer run started: turn the board slowly"))
        c.advance(by: 1_000_000_000)
        // Stopped after 1 s of tumbling: too little to fit, and it says how far it got.
        let stopped = c.command("calibrate stop")
        #expect(stopped.hasPrefix("calibrate: stopped; stopped at "), "\(stopped)")
        #expect(c.device.imuLink.heading.calibration == nil)
        #expect(!c.device.imuLink.calibration.isRunning)
        // A whole run fits.
        _ = c.command("calibrate mag")
        c.advance(by: 40_000_000_000)
        #expect(c.device.imuLink.heading.calibration != nil)
        #expect(c.command("heading").contains("last result   magnetometer calibrated ("))
    }

    @Test func interactiveConsoleShowsLogLinesAboveThePrompt() throws {
        let c = try started(interactive: true)
        defer { c.h.removeDirectory() }
        let notices = c.console.session.counters.notices
        c.type("mo")
        c.advance(by: 1_000_000)
        #expect(c.take() == "mo")
        _ = c.h.board.press(.primary, long: false, longPressNanoseconds: 1_000_000_000, nowNanoseconds: c.h.now)
        c.advance(by: 1_000_000_000)
        // The log lines are printed on their own lines, the prompt and the typed "mo" redrawn below.
        #expect(c.take() == "\r\u{1B}[Kpuckd: button: short press → next-mode\r\n\rpuckd> mo\u{1B}[K"
            + "\r\u{1B}[Kpuckd: mode: followWithCourse (LED: 2 blinks)\r\n\rpuckd> mo\u{1B}[K")
        #expect(c.console.session.counters.notices == notices + 2)
    }

    @Test func endOfScriptedInputStopsAfterTheLastReplyUnlessAWatchRuns() throws {
        let c = try started()
        defer { c.h.removeDirectory() }
        c.type("mode none\nversion")   // the last line has no line end
        c.endInput()
        c.advance(by: 40_000_000)   // each reply waits for the next scheduled tick (60 Hz): two ticks
        #expect(c.take() == "mode none (tracking state possible)\npuckd " + PuckdVersion.string.description + "\n")
        #expect(c.device.stopReason == .endOfInput)
        #expect(c.device.stopReason?.description == "the end of the console's input")

        let w = try started()
        defer { w.h.removeDirectory() }
        w.type("watch status 10\n")
        w.endInput()
        w.advance(by: 500_000_000)
        #expect(w.device.stopReason == nil, "a scripted watch keeps running after the end of input")
        let frames = w.take().ranges(of: "puckd 0.1.0, board ").count
        #expect(frames >= 4 && frames <= 6, "10 Hz for 0.5 s: \(frames) frames")
        #expect(w.h.output.contains("puckd: console: end of input; the watch keeps running until SIGINT or SIGTERM"))
    }

    @Test func aSlowReaderGetsEveryReplyInsteadOfDrops() throws {
        let c = try started()
        defer { c.h.removeDirectory() }
        // 200 status requests at once (about 300 kB of replies) while nobody reads for 2 s: the pipe and
        // the console's buffer fill up, the input waits, nothing is dropped and the loop keeps running.
        c.type(String(repeating: "status\n", count: 200))
        let ticks = c.device.counters.ticks
        c.h.advance(by: 2_000_000_000)
        #expect(c.console.inputPaused)
        #expect(c.device.counters.ticks - ticks >= 119, "the loop ran on")
        var received = ""
        var replies = 0
        var rounds = 0
        while replies < 200 && rounds < 1000 {
            received += c.take()
            replies = received.ranges(of: "puckd 0.1.0, board ").count
            c.h.advance(by: 5_000_000)
            rounds += 1
        }
        #expect(replies == 200)
        #expect(c.console.session.counters.droppedReplies == 0)
    }

    @Test func quitStopsTheDeviceOnStandardStreams() throws {
        let c = try started()
        defer { c.h.removeDirectory() }
        #expect(c.command("quit") == "bye\n")
        #expect(c.device.stopReason == .consoleQuit)
        #expect(c.command("status") == "", "nothing is read after quit")
    }
}
