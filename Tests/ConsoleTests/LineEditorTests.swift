import Testing
@testable import Console

/// The line editor driven by byte scripts through a session, as a terminal would type them.
struct LineEditorTests {
    let esc = "\u{1B}"
    let prompt = "puckd> "

    @Test func interactiveSessionGreetsEchoesAndPrompts() {
        let d = ConsoleDriver(interactive: true)
        d.session.begin(version: "0.1.0")
        #expect(d.drain() == "puckd 0.1.0 console. Type help for the commands; Tab completes, Up recalls.\r\npuckd> ")
        #expect(d.type("ver") == "ver")
        let out = d.type("sion\r")
        #expect(out == "sion\r\npuckd 0.1.0\r\npuckd> ")
        #expect(d.commands == [.version])
    }

    @Test func escapeSequencesSplitAcrossReadsMoveTheCursor() {
        let d = ConsoleDriver(interactive: true)
        d.type("zoom 1")
        // ESC [ D (left) arrives one byte per read, then an insert in the middle of the line.
        #expect(d.type(esc) == "")
        #expect(d.type("[") == "")
        #expect(d.type("D") == "\(esc)[D")
        #expect(d.type("2") == "21\(esc)[1D")      // inserted, the tail redrawn, cursor back
        d.type("\r")
        #expect(d.commands == [.zoom(level: 21)])
        // Application cursor keys (ESC O D) and Delete (ESC [ 3 ~), also split.
        d.type("pitch 456")
        d.type("\(esc)O"); d.type("D"); d.type("\(esc)O"); d.type("D")
        d.type(esc); d.type("[3"); #expect(d.type("~") == "6 \(esc)[2D")   // deleted the 5 under the cursor
        d.type("\r")
        #expect(d.commands.last == .pitch(degrees: 46))
        // Home / End in their VT100 and xterm forms.
        d.type("oom 2"); d.type("\(esc)[1~"); d.type("z"); d.type("\(esc)[F"); d.type("0\r")
        #expect(d.commands.last == .zoom(level: 20))
    }

    @Test func homeEndAndControlKeysEdit() {
        let d = ConsoleDriver(interactive: true)
        d.type("oom 3")
        d.type("\u{01}")                 // Ctrl-A: home
        d.type("z")
        d.type("\u{05}")                 // Ctrl-E: end
        d.type(".5\r")
        #expect(d.commands == [.zoom(level: 3.5)])
        d.type("zoom 4 junk")
        d.type("\u{17}")                 // Ctrl-W: delete the word before the cursor
        d.type("\r")
        #expect(d.commands.last == .zoom(level: 4))
        d.type("zoom 5xyz")
        d.type("\u{02}\u{02}\u{02}")     // Ctrl-B ×3
        d.type("\u{0B}")                 // Ctrl-K: kill to the end
        d.type("\r")
        #expect(d.commands.last == .zoom(level: 5))
    }

    @Test func backspaceBothCodesAndBellAtLineStart() {
        let d = ConsoleDriver(interactive: true)
        #expect(d.type("\u{7F}") == "\u{07}")          // nothing to delete: bell only
        #expect(d.type("\u{08}") == "\u{07}")
        #expect(d.type("gpx") == "gpx")
        #expect(d.type("\u{7F}") == "\u{08} \(esc)[1D")
        d.type("s")
        d.type("\u{08}")
        d.type("s\r")
        #expect(d.commands == [.view(.gps)])
        #expect(d.session.editor.line.count == 0)
    }

    @Test func controlUKillsTheLine() {
        let d = ConsoleDriver(interactive: true)
        d.type("rubbish here")
        #expect(d.type("\u{15}") == "\r\(prompt)\(esc)[K")
        d.type("gps\r")
        #expect(d.commands == [.view(.gps)])
    }

    @Test func controlCClearsTheLineAndControlDEnds() {
        let d = ConsoleDriver(interactive: true)
        d.type("half a comm")
        #expect(d.type("\u{03}") == "^C\r\n\(prompt)")
        d.type("leds\r")
        #expect(d.commands == [.view(.leds)])
        // Ctrl-D inside a line deletes under the cursor; on an empty line it ends the session.
        d.type("ledsx\u{02}\u{04}\r")
        #expect(d.commands.last == .view(.leds))
        d.autoReply = false
        d.type("\u{04}")
        #expect(d.commands.last == .quit(.endOfTransmission))
    }

    @Test func tabCompletesUniqueNamesAndListsAmbiguousOnes() {
        let d = ConsoleDriver(interactive: true)
        #expect(d.type("ver\t") == "version ")                    // unique: completed plus a blank
        d.type("\u{15}")
        #expect(d.type("sta\t") == "stat")                        // stats/status: common prefix added
        #expect(d.type("\t") == "\r\nstatus  stats\r\n\r\(prompt)stat\(esc)[K")   // nothing to add: listed
        d.type("us\r")
        #expect(d.commands == [.view(.status)])
        #expect(d.type("xyz\t") == "xyz\u{07}")                   // no candidate: bell
        d.type("\u{15}")
        #expect(d.type("mode followWithC\t") == "mode followWithCourse ")
        d.type("\u{15}")
        #expect(d.type("viewport follow zo\t") == "viewport follow zoom=")   // option: no blank after '='
        d.type("\u{15}")
        #expect(d.type("watch he\t") == "watch heading ")
        d.type("\u{15}")
        #expect(d.type("help calib\t") == "help calibrate ")
        d.type("\u{15}")
        d.type("zoom 1\u{02}")
        #expect(d.type("\t") == "\u{07}")                         // cursor not at the end: bell
    }

    @Test func historyRecallsWithUpAndDown() {
        let d = ConsoleDriver(interactive: true)
        d.type("gps\r")
        d.type("sats\r")
        d.type("zoom 4")                                          // a draft, kept while browsing
        #expect(d.type("\(esc)[A") == "\r\(prompt)sats\(esc)[K")
        #expect(d.type("\(esc)[A") == "\r\(prompt)gps\(esc)[K")
        #expect(d.type("\(esc)[A") == "\u{07}")                   // oldest reached
        #expect(d.type("\(esc)[B") == "\r\(prompt)sats\(esc)[K")
        #expect(d.type("\(esc)[B") == "\r\(prompt)zoom 4\(esc)[K") // back to the draft
        #expect(d.type("\(esc)[B") == "\u{07}")
        d.type("\u{15}\u{10}\r")                                  // Ctrl-P recalls too
        #expect(d.commands == [.view(.gps), .view(.sats), .view(.sats)])
        // Repeats and blank lines are not stored; the ring keeps the last 16 lines.
        #expect(d.session.editor.history.count == 2)
        for i in 0..<20 { d.type("events \(i + 1)\r") }
        #expect(d.session.editor.history.count == LineEditorHistory.capacity)
        #expect(d.session.editor.history.entry(0) == LineEditorLine("events 20"))
        #expect(d.session.editor.history.entry(15) == LineEditorLine("events 5"))
    }

    @Test func lineEndsCrLfAndCrLf() {
        let d = ConsoleDriver(interactive: false)
        d.type("gps\r\nsats\nstatus\rleds\n\r\n\r")
        #expect(d.commands == [.view(.gps), .view(.sats), .view(.status), .view(.leds)])
        #expect(d.session.counters.lines == 6)   // and two blank lines: "\r\n" and "\r"
    }

    @Test func scriptedSessionsDoNotEchoOrPrompt() {
        let d = ConsoleDriver(interactive: false)
        let out = d.type("vers\u{7F}sion\n")
        #expect(out == "puckd 0.1.0\n")
        #expect(d.type("mode fol\tlow\n").hasPrefix("mode: 'fol' is not one of"))   // Tab is a blank in scripts
    }

    @Test func overlongLines() {
        // Interactive: refused past the limit with a bell and one notice; the line stays usable.
        let d = ConsoleDriver(interactive: true)
        let out = d.type(String(repeating: "a", count: LineEditorLine.capacity + 5))
        #expect(out.ranges(of: "(line full: commands are at most 200 bytes)").count == 1)
        #expect(out.filter { $0 == "\u{07}" }.count == 5)
        #expect(d.session.editor.line.count == LineEditorLine.capacity)
        d.type("\u{15}gps\r")
        #expect(d.commands == [.view(.gps)])
        // Scripted: the whole line is ignored with a message, the next line works.
        let s = ConsoleDriver(interactive: false)
        let reply = s.type("zoom " + String(repeating: "1", count: 300) + "\ngps\n")
        #expect(reply.hasPrefix("line ignored: longer than 200 bytes. Type a shorter command (config values are at most 120 bytes).\n"))
        #expect(s.commands == [.view(.gps)])
    }

    @Test func nonASCIIBytes() {
        let s = ConsoleDriver(interactive: false)
        #expect(s.feed(Array("gps".utf8) + [0xC3, 0xA9] + Array("\n".utf8))
            == "line ignored: byte 0xC3 at column 4 is not printable ASCII; commands are plain ASCII text.\n")
        let d = ConsoleDriver(interactive: true)
        #expect(d.feed([0xC3, 0xA9]) == "\u{07}\u{07}")
        #expect(s.commands.isEmpty)
    }

    @Test func unknownSequencesAndControlBytesAreIgnored() {
        let d = ConsoleDriver(interactive: true)
        #expect(d.type("\(esc)[15~\(esc)[200~\(esc)x\u{00}\u{1F}") == "")   // F5, paste start, Alt-x, NUL, 0x1F
        d.type("gps\r")
        #expect(d.commands == [.view(.gps)])
        #expect(d.session.editor.ignoredBytes == 5)
    }
}
