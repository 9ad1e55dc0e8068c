import Testing
@testable import Controls

/// `LEDPatterns.nextChangeNanoseconds` (ticks on demand, docs/power.md): LEDs refreshed only at the
/// times it gives show, at every millisecond, the frame a refresh at that millisecond would show, and
/// every refresh changes the frame (the pattern timing is the full-rate timing, without busy ticks).
@Suite struct LEDPatternScheduleTests {
    let patterns = LEDPatterns()

    func ms(_ t: Int64) -> Int64 { t * 1_000_000 }

    /// Steps through [start, start + 6 s) each millisecond, refreshing only at the next change;
    /// returns (refreshes, frame changes, the first millisecond where the shown frame is wrong).
    func run(_ state: LEDIndicatorState, start: Int64, fix: Bool = true, mode: Bool = true, heartbeat: Bool = true)
        -> (refreshes: Int, changes: Int, wrongAt: Int64?) {
        func visible(_ f: LEDFrame) -> LEDFrame {
            LEDFrame(fix: fix && f.fix, mode: mode && f.mode, modeColor: f.modeColor, fault: f.fault,
                     heartbeat: heartbeat && f.heartbeat)
        }
        var shown = visible(patterns.frame(for: state, atNanoseconds: start))
        var next = patterns.nextChangeNanoseconds(for: state, after: start, fix: fix, mode: mode, heartbeat: heartbeat)
        var refreshes = 0, changes = 0
        var previous = shown
        var t = start + ms(1)
        while t < start + ms(6000) {
            while let due = next, due <= t {
                shown = visible(patterns.frame(for: state, atNanoseconds: due))
                refreshes += 1
                next = patterns.nextChangeNanoseconds(for: state, after: due, fix: fix, mode: mode, heartbeat: heartbeat)
                if let n = next, n <= due { return (refreshes, changes, due) }     // must move forward
            }
            let truth = visible(patterns.frame(for: state, atNanoseconds: t))
            if truth != previous { changes += 1; previous = truth }
            if shown != truth { return (refreshes, changes, t) }
            t += ms(1)
        }
        return (refreshes, changes, nil)
    }

    @Test(arguments: [FixIndicator.noFix, .fix2D, .fix3D, .stale])
    func everyEdgeAtItsTimeAndNoOtherRefresh(_ fix: FixIndicator) {
        for modeNumber in 0...7 {
            for (start, changedAt) in [(ms(1_000_000), ms(999_000)), (ms(12_345), ms(12_345)), (ms(7) + 3, ms(-333) + 1)] {
                let state = LEDIndicatorState(fix: fix, modeNumber: modeNumber, modeChangedAtNanoseconds: changedAt)
                let r = run(state, start: start)
                #expect(r.wrongAt == nil, "fix \(fix), mode \(modeNumber): wrong frame at \(r.wrongAt ?? 0) ns")
                #expect(r.refreshes == r.changes, "fix \(fix), mode \(modeNumber): \(r.refreshes) refreshes for \(r.changes) changes")
            }
        }
    }

    @Test func nothingBlinkingNeedsNoRefresh() {
        let steady = LEDIndicatorState(fix: .fix3D, modeNumber: 0, modeChangedAtNanoseconds: 0, fault: true)
        #expect(patterns.nextChangeNanoseconds(for: steady, after: ms(5000)) != nil)           // the heartbeat beats
        #expect(patterns.nextChangeNanoseconds(for: steady, after: ms(5000), heartbeat: false) == nil)
        let blinking = LEDIndicatorState(fix: .fix2D, modeNumber: 3, modeChangedAtNanoseconds: 0)
        #expect(patterns.nextChangeNanoseconds(for: blinking, after: ms(5000), fix: false, mode: false, heartbeat: false) == nil)
        let r = run(blinking, start: ms(5000), fix: false, mode: true, heartbeat: false)
        #expect(r.wrongAt == nil && r.refreshes == r.changes && r.changes == 3 * 2 * 3)   // 3 blinks, on and off, 3 groups
    }
}
