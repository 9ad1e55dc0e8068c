import Testing
import Tracking
@testable import Console

/// `json on`: every reply is exactly one JSON object per line, checked by python3's json module.
struct ConsoleJSONTests {
    /// Every command a script can send, one reply each.
    static let script = [
        "status", "gps", "sats", "heading", "puck", "camera", "leds", "stats", "events 64", "config", "config gps.baud",
        "version", "help", "help zoom", "mode", "mode followWithCourse", "viewport", "viewport follow zoom=15",
        "viewport overview", "viewport idle", "show", "show off", "accuracy reduced", "precise Key.1", "pan 10 20",
        "rotate 30", "zoom 12", "pitch 40", "calibrate mag", "calibrate gyro", "calibrate stop", "config gps.baud 4800",
        "config save", "press long 2", "quit", "json", "stauts", "zoom 30", "config gps.bad", "mode folow",
    ]

    func runScript(state: ConsoleState, interactive: Bool = false) -> (String, [ConsoleCommand]) {
        let d = ConsoleDriver(interactive: interactive, state: state)
        d.type("json on\n")
        let out = d.type(Self.script.joined(separator: "\n") + "\n")
        return (out, d.commands)
    }

    @Test func everyReplyIsOneValidJSONObjectPerLine() throws {
        let (out, _) = runScript(state: ConsoleTestState.realistic)
        let lines = out.split(separator: "\n")
        #expect(lines.count == Self.script.count)
        #expect(lines.allSatisfy { $0.first == "{" && $0.last == "}" })
        let values = try #require(pythonJSON(out, [
            "len(rows)",
            "' '.join(r['reply'] for r in rows)",
            "rows[0]['satellitesInView'], rows[0]['fix']['accuracySource'], rows[0]['faults'][0]['reason']",
            "rows[1]['fix']['latitudeDegrees'], rows[1]['fix']['utcTime'], rows[1]['fix']['errorEllipse']['semiMajorMeters']",
            "len(rows[2]['constellations']), sum(len(c['satellites']) for c in rows[2]['constellations']), rows[2]['signals']",
            "rows[3]['heading']['declinationDegrees'], rows[3]['storedCalibration']['coverageFraction'], rows[3]['calibrationActivity']['activity']",
            "rows[4]['puck']['bearingSource'], rows[4]['puck']['horizontalAccuracyMeters']",
            "rows[5]['camera']['trackingMode'], rows[5]['camera']['viewportStatus']",
            "[l['name'] for l in rows[6]['leds']], rows[6]['leds'][3]['line'], rows[6]['leds'][1]['color']",
            "rows[7]['nmeaFramer']['bytes'], rows[7]['device']['loop.maxLatencyNanoseconds'], rows[7]['console']['commands']",
            "rows[8]['recorded'], [e['event'] for e in rows[8]['events']]",
            "[e['key'] for e in rows[9]['entries']], rows[10]['value'], rows[10]['isDefault']",
            "rows[12]['commands'][28]['command'], rows[13]['usage']",
            "rows[36]['message']",
            "rows[37]['message']",
            "rows[38]['message']",
            "rows[39]['message']",
        ]))
        #expect(values[0] == "\(Self.script.count)")
        #expect(values[1] == "status gps sats heading puck camera leds stats events config config version help help mode mode "
            + "viewport viewport viewport viewport show show accuracy precise pan rotate zoom pitch calibrate calibrate "
            + "calibrate config config press quit json error error error error")
        #expect(values[2] == "43 gst permission denied on \"/dev/gpiochip0\"; add the puckd user to the gpio group")
        #expect(values[3] == "38.110501 2020-07-11T22:38:45.000Z 2.5")   // the log's last epoch, complete at its ZDA
        #expect(values[4] == "5 43 43")
        #expect(values[5] == "3.2 0.78 magnetometer")
        #expect(values[6] == "imuHeading 1.34")
        #expect(values[7] == "followWithHeading idle")
        #expect(values[8] == "['fix', 'mode', 'fault', 'heartbeat'] None blue")
        #expect(values[9] == "81500 6007 8")   // stats counts itself: 8 device commands so far
        #expect(values[10] == "5 ['willStartLocatingUser', 'didUpdateUserLocation', 'didChangeTrackingMode', 'didUpdateUserLocation', 'completed']")
        #expect(values[11] == "['gps.device', 'gps.baud', 'imu.rateHz', 'tracking.mode', 'console.device'] 9600 True")
        #expect(values[12] == "quit zoom Z")
        #expect(values[13] == "unknown command 'stauts'; did you mean 'status'? Type 'help' for the list.")
        #expect(values[14] == "zoom: 30 is out of range, allowed 0…25.5")
        #expect(values[15] == "config: unknown key 'gps.bad'; did you mean 'gps.baud'? (config lists the keys)")
        #expect(values[16].hasPrefix("mode: 'folow' is not one of none, follow"))
    }

    @Test func absentValuesAreNullNotZero() throws {
        let (out, _) = runScript(state: ConsoleState())
        let values = try #require(pythonJSON(out, [
            "rows[0]['fix'], rows[0]['heading'], rows[0]['trackingMode'], rows[0]['satellitesInView']",
            "rows[1]['fix'], rows[1]['ageSeconds']",
            "rows[2]['constellations'], rows[3]['heading'], rows[3]['bearing'], rows[4]['puck'], rows[5]['camera']",
            "rows[14]['trackingMode'], rows[26]['zoom']",
        ]))
        #expect(values == ["None None None None", "None None", "[] None None None None", "None None"])
    }

    @Test func fixFieldsWithoutValuesAreNull() throws {
        var state = ConsoleTestState.realistic
        var fix = state.fix!
        fix.courseDegrees = nil
        fix.utcNanoseconds = nil
        fix.errorEllipse = nil
        fix.hdop = .nan                                  // not finite: null too
        state.fix = fix
        var out = OutputBuffer(capacity: 8192)
        GPSView.appendJSON(state.fix, receivedNanoseconds: nil, nowNanoseconds: 0, to: &out)
        let values = try #require(pythonJSON(out.string, [
            "rows[0]['fix']['courseDegrees'], rows[0]['fix']['utcTime'], rows[0]['fix']['errorEllipse'], rows[0]['fix']['hdop']",
            "rows[0]['fix']['timeOfDaySeconds'], rows[0]['ageSeconds']",
        ]))
        #expect(values == ["None None None None", "81525.0 None"])
    }

    @Test func stringsFromTheDeviceAreEscaped() throws {
        var state = ConsoleState()
        // Quotes, backslashes, control bytes, DEL, valid UTF-8 and invalid UTF-8 (a lone continuation
        // byte, a truncated sequence, an overlong form, a surrogate).
        let raw: [UInt8] = Array("q\"b\\c\n\t\u{01}\u{7F} µ ".utf8) + [0x80, 0xE2, 0x82, 0x20, 0xC0, 0xAF, 0xED, 0xA0, 0x80, 0x21]
        let text = raw.withUnsafeBytes { ConsoleText(bytes: $0) }
        state.device.faults.append(ConsoleFault(source: "gps", reason: text))
        state.device.board = text
        state.device.config.set(key: text, value: text, isDefault: false)
        state.device.lastCalibrationResult = text
        var out = OutputBuffer(capacity: 16_384)
        StatusView.appendJSON(state, to: &out); out.append(UInt8(ascii: "\n"))
        ConfigView.appendJSON(state.device, key: nil, to: &out); out.append(UInt8(ascii: "\n"))
        HeadingView.appendJSON(nil, calibration: nil, bearing: nil, device: state.device, to: &out); out.append(UInt8(ascii: "\n"))
        let values = try #require(pythonJSON(out.string, [
            "ascii(rows[0]['faults'][0]['reason'])",
            "rows[0]['board'] == rows[1]['entries'][0]['key'] == rows[1]['entries'][0]['value'] == rows[2]['lastCalibrationResult'] == rows[0]['faults'][0]['reason']",
        ]))
        #expect(values[0] == #"'q"b\\c\n\t\x01\x7f \xb5 \ufffd\ufffd\ufffd \ufffd\ufffd\ufffd\ufffd\ufffd!'"#)
        #expect(values[1] == "True")
    }

    @Test func interactiveJSONRepliesAreStillOneObjectPerLine() throws {
        let (out, _) = runScript(state: ConsoleTestState.realistic, interactive: true)
        // Strip the echo and prompts: every line that starts with '{' is a reply.
        let replies = out.split(separator: "\r\n").compactMap { line -> Substring? in
            guard let i = line.firstIndex(of: "{") else { return nil }
            return line[i...]
        }
        #expect(replies.count == Self.script.count)
        let values = try #require(pythonJSON(replies.joined(separator: "\n"), ["len(rows)"]))
        #expect(values == ["\(Self.script.count)"])
    }
}
