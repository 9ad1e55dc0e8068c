import Testing
@testable import Console

/// `watch CMD [HZ]`: in-place frames on a terminal, lines in scripts, JSON lines in json mode, driven
/// by `tick(nowNanoseconds:)`; Ctrl-C stops it.
struct ConsoleWatchTests {
    let esc = "\u{1B}"

    @Test func interactiveWatchRedrawsInPlaceAtTheRateAndCtrlCStops() throws {
        let d = ConsoleDriver(interactive: true)
        #expect(d.type("watch status 2\r") == "watch status 2\r\n")
        #expect(d.isWatching)
        #expect(d.session.nextRedrawNanoseconds == Int64.min)            // draw at once
        let frame = d.tick(1_000)
        #expect(frame.hasPrefix("\(esc)[Hevery 0.5 s: status   (Ctrl-C or q stops)\(esc)[K\r\npuckd 0.1.0, board sim"))
        #expect(frame.hasSuffix("\(esc)[K\r\n\(esc)[J"))
        // Every line is cleared to its end; no bare line feeds; nothing scrolls (≤ 23 lines on 24 rows).
        let lines = frame.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.dropLast().allSatisfy { $0.hasSuffix("\(esc)[K") })
        #expect(lines.count - 1 <= 23)
        #expect(!frame.replacing("\r\n", with: "").contains("\n"))
        #expect(d.session.nextRedrawNanoseconds == 500_001_000)
        #expect(d.tick(400_000_000) == "")                               // not due yet
        #expect(d.tick(500_001_000).hasPrefix("\(esc)[H"))
        #expect(d.type("x") == "")                                       // typing is ignored while watching
        #expect(d.type("\u{03}") == "\r\npuckd> ")                       // Ctrl-C stops and gives the prompt
        #expect(!d.isWatching)
        #expect(d.session.nextRedrawNanoseconds == nil)
        #expect(d.tick(2_000_000_000) == "")
        #expect(d.session.counters.watchFrames == 2)
        d.type("gps\r")
        #expect(d.commands == [.view(.gps)])                             // the ignored 'x' did not leak
    }

    @Test func qAlsoStopsAnInteractiveWatch() {
        let d = ConsoleDriver(interactive: true)
        d.type("watch camera\r")
        _ = d.tick(0)
        #expect(d.type("q") == "\r\npuckd> ")
        #expect(!d.isWatching)
    }

    @Test func framesAreCutToTheTerminalHeight() {
        let d = ConsoleDriver(interactive: true) { $0.terminalRows = 12 }
        d.type("watch sats 5\r")
        let frame = d.tick(0)
        let lines = frame.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count - 1 == 11)                                   // rows - 1: the screen never scrolls
        #expect(lines[10].hasPrefix("\u{2026} "))
        #expect(lines[10].hasSuffix(" more lines (the terminal has 12 rows)\(esc)[K"))
    }

    @Test func scriptedWatchPrintsFramesAsLinesUntilTheNextCommand() {
        let d = ConsoleDriver(interactive: false)
        d.type("watch leds 10\n")
        let first = d.tick(0)
        #expect(first == "LED        now  line  pattern\nfix        on     17  on: 3D fix\n"
            + "mode       off    27  4 short blinks every 2 s: followWithHeading (blue)\n"
            + "fault      on     22  on: a source is in error\nheartbeat  off     -  double blink every 1 s\n\n")
        #expect(d.tick(50_000_000) == "")
        #expect(d.tick(100_000_000) == first)
        // Without a drain the next frame still comes (scripts read them all; only a full buffer drops).
        d.session.tick(nowNanoseconds: 200_000_000, state: d.state)
        d.session.tick(nowNanoseconds: 300_000_000, state: d.state)
        #expect(d.drain() == first + first)
        #expect(d.type("version\n") == "puckd 0.1.0\n")                  // a new command ends the watch
        #expect(!d.isWatching)
    }

    @Test func jsonWatchWritesOneObjectPerFrame() throws {
        let d = ConsoleDriver(interactive: true)
        d.type("json on\r")
        d.drain()
        d.type("watch heading 60\r")
        d.drain()
        var text = ""
        for i in 0..<3 { text += d.tick(Int64(i) * 16_666_667) }
        #expect(!text.contains(esc))
        let values = try #require(pythonJSON(text.replacing("\r\n", with: "\n"),
                                             ["len(rows)", "[r['reply'] for r in rows]", "rows[2]['heading']['trueHeadingDegrees']"]))
        #expect(values == ["3", "['heading', 'heading', 'heading']", "271.3"])
    }

    @Test func aBackedUpTerminalSkipsFramesInsteadOfQueueingThem() {
        let d = ConsoleDriver(interactive: true)
        d.type("watch status 60\r")
        // The first frame is drawn and nobody takes it: the next nine are skipped, not queued.
        for i in 0..<10 { d.session.tick(nowNanoseconds: Int64(i) * 16_666_667, state: d.state) }
        #expect(d.session.counters.watchFrames == 1)
        #expect(d.session.counters.skippedWatchFrames == 9)
        #expect(d.drain().split(separator: "\u{1B}[H").count == 1)
        _ = d.tick(10 * 16_666_667)
        #expect(d.session.counters.watchFrames == 2)
    }

    @Test func aLateDeviceDoesNotGetABurstOfFrames() {
        var w = WatchSchedule(view: .status, hertz: 2)
        #expect(w.isDue(at: 0))
        w.advance(from: 0)
        #expect(w.nextDueNanoseconds == 500_000_000)
        w.advance(from: 10_000_000_000)                                  // 20 intervals late
        #expect(w.nextDueNanoseconds == 10_500_000_000)
        w.advance(from: 10_600_000_000)                                  // slightly late: keep the cadence
        #expect(w.nextDueNanoseconds == 11_000_000_000)
    }
}
