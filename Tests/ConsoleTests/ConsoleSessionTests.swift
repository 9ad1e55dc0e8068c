import Testing
import Tracking
@testable import Console

/// The session as the device loop sees it: commands out in order, one reply each, bounded output.
struct ConsoleSessionTests {
    @Test func scriptedInputGivesCommandsAndRepliesInOrder() {
        let d = ConsoleDriver(interactive: false)
        let out = d.type("mode next\nstatus\n")
        #expect(d.commands == [.mode(.next(animated: true)), .view(.status)])
        #expect(out.hasPrefix("mode followWithHeading (tracking state changed)\npuckd 0.1.0, board sim, up 1d 02:03:04\n"))
        #expect(!out.contains("\r"))
        #expect(!out.contains("puckd> "))
    }

    @Test func feedStopsRightAfterEachCommand() {
        var session = ConsoleSession(options: ConsoleOptions(interactive: false))
        let bytes = Array("gps\nsats\nhelp\nzoom 3".utf8)
        var offsets: [Int] = []
        var commands: [ConsoleCommand] = []
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while let c = session.feed(raw, from: &offset) {
                commands.append(c)
                offsets.append(offset)
                session.reply(to: c, state: ConsoleTestState.realistic)
            }
            #expect(offset == raw.count)
        }
        #expect(commands == [.view(.gps), .view(.sats)])
        #expect(offsets == [4, 9])
        // The last line has no line end: end of input still runs it; afterwards input is ignored.
        #expect(session.endOfInput() == .zoom(level: 3))
        #expect(session.endOfInput() == nil)
        #expect(session.feed(UInt8(ascii: "x")) == nil)
    }

    @Test func interactiveRepliesUseCRLFAndThePromptFollows() {
        let d = ConsoleDriver(interactive: true)
        let out = d.type("leds\r")
        #expect(out.hasPrefix("leds\r\nLED        now  line  pattern\r\nfix        on     17  on: 3D fix\r\n"))
        #expect(out.hasSuffix("\r\npuckd> "))
        #expect(!out.replacing("\r\n", with: "").contains("\n"))
    }

    @Test func quitSaysByeWithoutAPrompt() {
        let d = ConsoleDriver(interactive: true)
        #expect(d.type("exit\r") == "exit\r\nbye\r\n")
        #expect(d.type("\u{04}") == "\r\nbye\r\n")
        #expect(d.commands == [.quit(.command), .quit(.endOfTransmission)])
    }

    @Test func aCommandWithoutReplyGetsThePromptBackAtTheNextKey() {
        let d = ConsoleDriver(interactive: true)
        d.autoReply = false
        #expect(d.type("press\r") == "press\r\n")
        #expect(d.type("g") == "puckd> g")
    }

    @Test func deviceFailuresAreRepliedAsTextAndJSON() {
        let d = ConsoleDriver(interactive: false)
        d.autoReply = false
        d.type("precise Nope\n")
        d.session.replyFailure(to: d.commands[0], message: "purpose key not configured; add it to tracking.purposeKeys")
        #expect(d.drain() == "precise: purpose key not configured; add it to tracking.purposeKeys\n")
        d.type("json on\nconfig gps.baud 12\n")
        d.session.replyFailure(to: d.commands[1], text: ConsoleText("gps.baud must be one of 4800, 9600, 38400, 115200"))
        let lines = d.drain().split(separator: "\n").map(String.init)
        #expect(lines.last == #"{"reply":"error","command":"config","message":"config: gps.baud must be one of 4800, 9600, 38400, 115200"}"#)
        #expect(d.session.counters.errors == 2)
    }

    /// The status and camera views say which source turned the map (tracking.md 1.5, 4.7).
    @Test func statusAndCameraSayWhatTurnedTheMap() {
        let d = ConsoleDriver(interactive: false)
        #expect(d.type("status\n").contains("camera        zoom 0.00, bearing 271.3\u{00B0} (imuHeading), pitch 0.0\u{00B0}\n"))
        #expect(d.type("camera\n").contains("bearing       271.3\u{00B0} true, turned by imuHeading\n"))
        _ = d.type("json on\n")
        #expect(d.type("status\n").contains(#""cameraBearingDegrees":271.30,"cameraBearingSource":"imuHeading""#))
        #expect(d.type("camera\n").contains(#""bearingDegrees":271.300,"bearingSource":"imuHeading""#))
    }

    @Test func acknowledgementsReadTheStateBack() {
        let d = ConsoleDriver(interactive: false)
        // The realistic state entered followWithHeading without animation at zoom 0: the follow ease
        // that ran at once ended the 0.3 s zoom-floor ease at its start (one transition, tracking.md 3.8).
        #expect(d.type("zoom 12\n") == "camera 38.1105010 N 122.6269230 W, zoom 0.00, bearing 271.3\u{00B0}, pitch 0.0\u{00B0}, mode followWithHeading\n")
        #expect(d.type("show\n") == "showsUserLocation on\n")
        #expect(d.type("accuracy\n") == "authorization authorized, accuracy full\n")
        #expect(d.type("viewport\n") == "viewport idle\n")
        #expect(d.type("calibrate stop\n") == "calibrate: stopped; magnetometer calibration applied: coverage 78 %, residual 3.1 %\n")
        #expect(d.type("config gps.baud 9600\n") == "gps.baud = 9600  (default)  (not saved yet: config save writes it)\n")
        #expect(d.type("config save\n") == "config saved to /etc/puckd.conf\n")
        #expect(d.type("config gps.bad\n") == "config: unknown key 'gps.bad'; did you mean 'gps.baud'? (config lists the keys)\n")
        #expect(d.type("config imu.rateHz\n") == "imu.rateHz = 100  (default)\n")
        #expect(d.type("press long 2\n") == "press: button 2 long press\n")
        #expect(d.type("quit\n") == "bye\n")
        #expect(d.session.counters.errors == 1)
    }

    @Test func outputIsBoundedWhenNobodyReads() {
        let d = ConsoleDriver(interactive: false) { $0.outputCapacity = 4096 }
        var one = ConsoleSession(options: ConsoleOptions(interactive: false))
        one.reply(to: .view(.status), state: ConsoleTestState.realistic)
        let statusLength = one.pendingOutputCount
        #expect(statusLength > 500)
        for _ in 0..<100 {
            "status\n".utf8.withContiguousStorageIfAvailable { raw in
                var offset = 0
                while let c = d.session.feed(UnsafeRawBufferPointer(raw), from: &offset) { d.session.reply(to: c, state: d.state) }
            }
        }
        let kept = d.session.pendingOutputCount / statusLength
        #expect(d.session.pendingOutputCount == kept * statusLength)          // only whole replies
        #expect(d.session.pendingOutputCount <= 4096)
        #expect(d.session.counters.droppedReplies == Int64(100 - kept))
        #expect(d.session.counters.droppedBytes == Int64((100 - kept) * statusLength))
        // Once drained, replies flow again.
        d.drain()
        #expect(d.type("version\n") == "puckd 0.1.0\n")
    }

    @Test func repliesLargerThanTheReplyBufferAreCutAndSaySo() {
        let d = ConsoleDriver(interactive: false) { $0.replyCapacity = 1024 }
        let out = d.type("stats\n")
        #expect(out.count <= 1024)
        #expect(out.contains("\u{2026} reply cut: "))
        #expect(out.hasSuffix(" more bytes did not fit the console's reply buffer\n"))
        #expect(d.session.counters.truncatedReplies == 1)
        let json = d.type("json on\nstats\n").split(separator: "\n").map(String.init)
        #expect(json.last == #"{"reply":"error","message":"reply too large for the console (1024 bytes); ask for less, e.g. events 10"}"#)
    }

    @Test func jsonSettingIsReportedAndToggles() {
        let d = ConsoleDriver(interactive: false)
        #expect(d.type("json\n") == "json off\n")
        #expect(d.type("json on\n") == "{\"reply\":\"json\",\"json\":true}\n")
        #expect(d.type("json\n") == "{\"reply\":\"json\",\"json\":true}\n")
        #expect(d.type("version\n") == "{\"reply\":\"version\",\"version\":\"0.1.0\"}\n")
        #expect(d.type("json off\n") == "json off\n")
        #expect(d.commands == [.version])
    }

    @Test func viewsWithoutDataSayWhy() {
        let d = ConsoleDriver(interactive: false, state: ConsoleState())
        #expect(d.type("gps\n") == "gps: no fix received yet (check the GPS source with status)\n")
        #expect(d.type("sats\n") == "sats: no satellites reported yet (the receiver has sent no complete GSV set)\n")
        #expect(d.type("puck\n") == "puck: the tracking core is not running yet\n")
        #expect(d.type("camera\n") == "camera: the tracking core is not running yet\n")
        #expect(d.type("leds\n") == "leds: no LEDs (none configured, or GPIO unavailable: see status for faults)\n")
        #expect(d.type("events\n") == "events: no tracking events yet\n")
        #expect(d.type("config\n") == "config: no configuration values known\n")
        #expect(d.type("heading\n").hasPrefix("heading: no IMU heading (no IMU, or not running yet; see status for faults)\nstored cal    none\n"))
        #expect(d.type("mode\n") == "mode: the tracking core is not running yet\n")
    }

    @Test func deviceTextCannotMoveTheTerminalCursor() {
        var state = ConsoleState()
        state.device.faults.append(ConsoleFault(source: "gps", reason: ConsoleText("bad\u{1B}[2Jbyte\r\nhere")))
        let d = ConsoleDriver(interactive: false, state: state)
        #expect(d.type("status\n").contains("gps: bad?[2Jbyte??here\n"))
    }
}
