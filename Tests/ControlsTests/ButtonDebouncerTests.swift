import Testing
@testable import Controls

/// Milliseconds (possibly fractional) to nanoseconds.
func ms(_ milliseconds: Double) -> Int64 { Int64((milliseconds * 1_000_000).rounded()) }

/// Feeds `edges` (time, level after the edge) to a debouncer the way the loop does: at each tick, the
/// edges up to the tick, then `advance` to the tick. `tick` nil: all edges first, one advance at `end`.
func runButton(_ edges: [(Int64, Bool)], until end: Int64, tick: Int64? = nil,
               timing: ButtonTiming = ButtonTiming()) -> [ButtonPress] {
    var debouncer = ButtonDebouncer(timing: timing)
    var presses: [ButtonPress] = []
    var next = 0
    var now: Int64 = tick ?? end
    while true {
        while next < edges.count && edges[next].0 <= now {
            if let p = debouncer.handleEdge(active: edges[next].1, timestampNanoseconds: edges[next].0) { presses.append(p) }
            next += 1
        }
        if let p = debouncer.advance(toNanoseconds: now) { presses.append(p) }
        if now >= end { break }
        now = min(end, now + (tick ?? end))
    }
    return presses
}

@Suite struct ButtonDebouncerTests {
    @Test func cleanShortPressIsReportedOnceTheReleaseIsStable() {
        var b = ButtonDebouncer()
        #expect(b.handleEdge(active: true, timestampNanoseconds: ms(100)) == nil)
        #expect(b.advance(toNanoseconds: ms(129.999)) == nil && !b.isPressed)
        #expect(b.advance(toNanoseconds: ms(130)) == nil && b.isPressed)
        #expect(b.handleEdge(active: false, timestampNanoseconds: ms(300)) == nil)
        #expect(b.advance(toNanoseconds: ms(329.999)) == nil)
        #expect(b.advance(toNanoseconds: ms(330)) ==
                ButtonPress(button: .primary, kind: .short, timeNanoseconds: ms(300), pressedAtNanoseconds: ms(100)))
        #expect(b.advance(toNanoseconds: ms(5000)) == nil)
    }

    /// Five edges within 10 ms on press and on release: one press, timed from the last edge of each burst.
    @Test func contactBounceGivesOnePress() {
        let edges: [(Int64, Bool)] = [
            (ms(100), true), (ms(102), false), (ms(104), true), (ms(107), false), (ms(110), true),
            (ms(400), false), (ms(401), true), (ms(403), false), (ms(406), true), (ms(409), false),
        ]
        let presses = runButton(edges, until: ms(1000), tick: ms(1))
        #expect(presses == [ButtonPress(button: .primary, kind: .short, timeNanoseconds: ms(409),
                                        pressedAtNanoseconds: ms(110))])
        var b = ButtonDebouncer()
        for (t, level) in edges { _ = b.handleEdge(active: level, timestampNanoseconds: t) }
        #expect(b.edgeCount == 10 && b.rejectedChangeCount == 4)
    }

    @Test func glitchShorterThanTheDebounceTimeIsIgnored() {
        #expect(runButton([(ms(100), true), (ms(129.999), false)], until: ms(2000), tick: ms(1)).isEmpty)
        // Exactly the debounce time is accepted: a 30 ms press.
        #expect(runButton([(ms(100), true), (ms(130), false)], until: ms(2000), tick: ms(1)) ==
                [ButtonPress(button: .primary, kind: .short, timeNanoseconds: ms(130), pressedAtNanoseconds: ms(100))])
    }

    @Test func longPressFiresAtTheThresholdWhileHeld() {
        var b = ButtonDebouncer()
        _ = b.handleEdge(active: true, timestampNanoseconds: 0)
        #expect(b.advance(toNanoseconds: ms(999.999)) == nil)
        #expect(b.advance(toNanoseconds: ms(1000)) ==
                ButtonPress(button: .primary, kind: .long, timeNanoseconds: ms(1000), pressedAtNanoseconds: 0))
        #expect(b.isPressed)
        _ = b.handleEdge(active: false, timestampNanoseconds: ms(2500))
        #expect(b.advance(toNanoseconds: ms(4000)) == nil)       // no short press after a long one
        #expect(!b.isPressed)
    }

    @Test func thresholdsAreInclusive() {
        let short = runButton([(0, true), (ms(999), false)], until: ms(3000), tick: ms(16))
        #expect(short.map(\.kind) == [.short])
        let long = runButton([(0, true), (ms(1000), false)], until: ms(3000), tick: ms(16))
        #expect(long == [ButtonPress(button: .primary, kind: .long, timeNanoseconds: ms(1000), pressedAtNanoseconds: 0)])
        // Even when the loop only learns about the release in the same wake-up.
        #expect(runButton([(0, true), (ms(1000), false)], until: ms(3000)) == long)
    }

    @Test func configurableTimes() {
        let timing = ButtonTiming(debounceNanoseconds: ms(50), longPressNanoseconds: ms(2000))
        #expect(runButton([(0, true), (ms(45), false)], until: ms(500), tick: ms(5), timing: timing).isEmpty)
        #expect(runButton([(0, true), (ms(1500), false)], until: ms(3000), tick: ms(5), timing: timing).map(\.kind) == [.short])
        #expect(runButton([(0, true)], until: ms(3000), tick: ms(5), timing: timing).map(\.timeNanoseconds) == [ms(2000)])
        let noLong = ButtonTiming(longPressNanoseconds: nil)
        #expect(runButton([(0, true), (ms(5000), false)], until: ms(6000), tick: ms(16), timing: noLong).map(\.kind) == [.short])
    }

    @Test func releaseGlitchDuringALongHoldDoesNotEndThePress() {
        let presses = runButton([(0, true), (ms(500), false), (ms(505), true), (ms(1500), false)],
                                until: ms(3000), tick: ms(16))
        #expect(presses == [ButtonPress(button: .primary, kind: .long, timeNanoseconds: ms(1000), pressedAtNanoseconds: 0)])
    }

    /// A release 10 ms before the threshold that is not confirmed yet when the threshold passes must
    /// not turn into a long press.
    @Test func pendingReleaseBeforeTheThresholdWins() {
        var b = ButtonDebouncer()
        _ = b.handleEdge(active: true, timestampNanoseconds: 0)
        _ = b.handleEdge(active: false, timestampNanoseconds: ms(990))
        #expect(b.advance(toNanoseconds: ms(1005)) == nil)
        #expect(b.nextDeadlineNanoseconds == ms(1020))
        #expect(b.advance(toNanoseconds: ms(1020)) ==
                ButtonPress(button: .primary, kind: .short, timeNanoseconds: ms(990), pressedAtNanoseconds: 0))
    }

    /// The outcome depends on the edges only, not on how often the loop ticked or how edges were batched.
    @Test func outcomeIndependentOfTickRate() {
        var edges: [(Int64, Bool)] = []
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func random(_ bound: Int64) -> Int64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int64((state >> 33) % UInt64(bound))
        }
        var t: Int64 = ms(50)
        for _ in 0..<200 {
            for k in 0..<Int(random(6)) { edges.append((t + Int64(k) * ms(1.5), k % 2 == 0)) }   // bounce
            t += ms(10)
            edges.append((t, true))
            t += ms(Double(20 + random(1600)))                  // 20 ms … 1.6 s: glitches, short and long
            for k in 0..<Int(random(6)) { edges.append((t + Int64(k) * ms(1.2), k % 2 == 0)) }
            t += ms(8)
            edges.append((t, false))
            t += ms(Double(40 + random(700)))
        }
        let reference = runButton(edges, until: t + ms(3000))
        #expect(reference.count > 100)
        #expect(reference.contains { $0.kind == .long } && reference.contains { $0.kind == .short })
        for tick in [ms(1), ms(1000.0 / 60), ms(100), ms(333)] {
            #expect(runButton(edges, until: t + ms(3000), tick: tick) == reference)
        }
    }

    @Test func lateEdgeIsTakenAtTheProcessedTime() {
        var b = ButtonDebouncer()
        _ = b.advance(toNanoseconds: ms(500))
        _ = b.handleEdge(active: true, timestampNanoseconds: ms(400))   // older than what was processed
        #expect(b.advance(toNanoseconds: ms(529)) == nil && !b.isPressed)
        _ = b.advance(toNanoseconds: ms(530))
        #expect(b.isPressed)
        _ = b.handleEdge(active: false, timestampNanoseconds: ms(600))
        #expect(b.advance(toNanoseconds: ms(700))?.pressedAtNanoseconds == ms(500))
    }

    @Test func nextDeadline() {
        var b = ButtonDebouncer()
        #expect(b.nextDeadlineNanoseconds == nil)
        _ = b.handleEdge(active: true, timestampNanoseconds: ms(10))
        #expect(b.nextDeadlineNanoseconds == ms(40))
        _ = b.advance(toNanoseconds: ms(40))
        #expect(b.nextDeadlineNanoseconds == ms(1010))
        _ = b.advance(toNanoseconds: ms(1010))
        #expect(b.nextDeadlineNanoseconds == nil)
    }
}
