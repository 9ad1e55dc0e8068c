import Testing
import TestSupport
@testable import Console

/// Zero heap allocations after start-up: `watch status 60` for 100k ticks with a realistic state
/// (a fix, 43 satellites, a heading, puck and camera), JSON replies to every command, and typing
/// with echo, history and completion. Holds in debug and release builds.
struct ConsoleAllocationTests {
    /// Feeds `bytes` and replies to every command with `state`; drains the output.
    static func run(_ session: inout ConsoleSession, _ bytes: UnsafeRawBufferPointer, _ state: borrowing ConsoleState) {
        var offset = 0
        while let command = session.feed(bytes, from: &offset) {
            session.reply(to: command, state: state)
            session.consumeOutput(session.pendingOutputCount)
        }
        session.consumeOutput(session.pendingOutputCount)
    }

    func watch(_ line: String, interactive: Bool, ticks: Int) -> (allocations: UInt64, frames: Int64, bytes: Int64) {
        let state = ConsoleTestState.realistic
        var session = ConsoleSession(options: ConsoleOptions(interactive: interactive))
        let bytes = Array(line.utf8)
        bytes.withUnsafeBytes { Self.run(&session, $0, state) }
        var t: Int64 = 1_000_000_000
        for _ in 0..<120 {                                   // warm up
            session.tick(nowNanoseconds: t, state: state)
            session.consumeOutput(session.pendingOutputCount)
            t += 16_666_667
        }
        let framesBefore = session.counters.watchFrames
        let bytesBefore = session.counters.bytesOut
        let allocations = allocationCount {
            var i = 0
            while i < ticks {
                session.tick(nowNanoseconds: t, state: state)
                session.consumeOutput(session.pendingOutputCount)
                t += 16_666_667
                i += 1
            }
        }
        return (allocations, session.counters.watchFrames - framesBefore, session.counters.bytesOut - bytesBefore)
    }

    @Test func watchStatus60For100kTicksAllocatesNothing() {
        let r = watch("watch status 60\r", interactive: true, ticks: 100_000)
        #expect(r.allocations == 0)
        #expect(r.frames == 100_000)
        #expect(r.bytes > 100_000 * 900)                    // real frames (~1 kB each) were drawn
    }

    @Test func scriptedAndJSONWatchesAllocateNothing() {
        let scripted = watch("watch sats 60\n", interactive: false, ticks: 10_000)
        #expect(scripted.allocations == 0)
        #expect(scripted.frames == 10_000)
        let json = watch("json on\nwatch status 60\n", interactive: false, ticks: 10_000)
        #expect(json.allocations == 0)
        #expect(json.frames == 10_000)
        let events = watch("json on\rwatch events 60\r", interactive: true, ticks: 10_000)
        #expect(events.allocations == 0)
        #expect(events.frames == 10_000)
    }

    @Test func jsonRepliesToEveryCommandAllocateNothing() {
        let state = ConsoleTestState.realistic
        var session = ConsoleSession(options: ConsoleOptions(interactive: false))
        let bytes = Array(("json on\n" + ConsoleJSONTests.script.joined(separator: "\n") + "\n").utf8)
        let repeated = Array(bytes.dropFirst(8))
        bytes.withUnsafeBytes { Self.run(&session, $0, state) }
        let commandsBefore = session.counters.commands
        let allocations = repeated.withUnsafeBytes { raw in
            allocationCount {
                var i = 0
                while i < 50 { Self.run(&session, raw, state); i += 1 }
            }
        }
        let commands = session.counters.commands - commandsBefore
        let json = session.jsonMode
        #expect(allocations == 0)
        #expect(json)
        #expect(commands == 50 * 34)   // 40 lines; help ×2, json and three parse errors stay in the session
    }

    @Test func textRepliesAndTypingAllocateNothing() {
        let state = ConsoleTestState.realistic
        var session = ConsoleSession(options: ConsoleOptions(interactive: true))
        session.begin(version: "0.1.0")
        let typing = "sta\t\tus\r\u{1B}[A\rzoom 1\u{1B}[D2\u{1B}[3~\rmode fol\t\u{7F}\tW\t\rxx\u{15}gps\r\u{7F}\u{08}"
            + "viewport follow zo\t15 bea\tcourse\rhelp\rhelp watch\rstauts\rzoom 99\r\u{1B}[A\u{1B}[A\u{1B}[B\u{1B}[B\r"
            + "sats\rstats\rheading\rpuck\rcamera\rleds\revents 64\rconfig\rconfig gps.bad\rwatch leds\r\u{03}"
            + String(repeating: "a", count: 210) + "\u{15}\u{03}"
        let bytes = Array(typing.utf8)
        bytes.withUnsafeBytes { Self.run(&session, $0, state) }
        let linesPerRun = session.counters.lines
        let allocations = bytes.withUnsafeBytes { raw in
            allocationCount {
                var i = 0
                while i < 20 { Self.run(&session, raw, state); i += 1 }
            }
        }
        let lines = session.counters.lines
        #expect(allocations == 0)
        #expect(linesPerRun > 20)
        #expect(lines == 21 * linesPerRun)
    }
}
