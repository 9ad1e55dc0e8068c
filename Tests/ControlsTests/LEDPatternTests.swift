import Testing
@testable import Controls

@Suite struct LEDPatternTests {
    let patterns = LEDPatterns()

    /// Lit intervals of `lit` over [from, to) sampled each millisecond, as (start, end) in ms.
    func litIntervals(from: Int64, to: Int64, _ lit: (Int64) -> Bool) -> [(Int64, Int64)] {
        var intervals: [(Int64, Int64)] = []
        var start: Int64?
        var t = from
        while t < to {
            if lit(ms(Double(t))) { if start == nil { start = t } } else if let s = start { intervals.append((s, t)); start = nil }
            t += 1
        }
        if let s = start { intervals.append((s, to)) }
        return intervals
    }

    @Test func fixLED() {
        let base = ms(1_000_000)                                 // any time: phases come from the clock
        for t in [0.0, 100, 499.999, 500, 900, 1000, 1499] {
            let time = base + ms(t)
            #expect(!patterns.fixLit(.noFix, at: time))
            #expect(patterns.fixLit(.fix3D, at: time))
        }
        // 2D: 1 Hz, on in the first half of each second.
        #expect(patterns.fixLit(.fix2D, at: base + ms(0)) && patterns.fixLit(.fix2D, at: base + ms(499)))
        #expect(!patterns.fixLit(.fix2D, at: base + ms(500)) && !patterns.fixLit(.fix2D, at: base + ms(999)))
        #expect(litIntervals(from: 0, to: 3000) { patterns.fixLit(.fix2D, at: $0) }.map { $0.1 - $0.0 } == [500, 500, 500])
        // Stale: 4 Hz.
        let stale = litIntervals(from: 0, to: 1000) { patterns.fixLit(.stale, at: $0) }
        #expect(stale.map(\.0) == [0, 250, 500, 750] && stale.allSatisfy { $0.1 - $0.0 == 125 })
    }

    @Test func modeBlinkCountEveryTwoSeconds() {
        let changed = ms(12_345)
        for n in 0...6 {
            let blinks = litIntervals(from: 12_345, to: 12_345 + 2000) {
                patterns.modeLit(n, sinceNanoseconds: changed, at: $0)
            }
            #expect(blinks.count == n, "mode \(n)")
            #expect(blinks.allSatisfy { $0.1 - $0.0 == 120 })
            if n > 0 { #expect(blinks[0].0 == 12_345) }          // the group starts at the mode change
            // The next group repeats 2 s later.
            let next = litIntervals(from: 12_345 + 2000, to: 12_345 + 4000) {
                patterns.modeLit(n, sinceNanoseconds: changed, at: $0)
            }
            #expect(next.map { $0.0 - 2000 } == blinks.map(\.0))
        }
        #expect(patterns.timing.maximumModeBlinks == 6)
        let capped = litIntervals(from: 0, to: 2000) { patterns.modeLit(9, sinceNanoseconds: 0, at: $0) }
        #expect(capped.count == 6)
    }

    @Test func rgbModeColours() {
        #expect(patterns.modeColor(0) == .off)
        #expect(patterns.modeColor(1) == .green)
        #expect(patterns.modeColor(2) == .blue)
        #expect(patterns.modeColor(7) == .white)
        #expect(patterns.modeColor(12) == .white)
        var custom = LEDPatterns()
        custom.modeColors[3] = .magenta
        #expect(custom.frame(for: LEDIndicatorState(modeNumber: 3), atNanoseconds: 0).modeColor == .magenta)
    }

    @Test func faultAndHeartbeat() {
        #expect(patterns.frame(for: LEDIndicatorState(fault: true), atNanoseconds: ms(777)).fault)
        #expect(!patterns.frame(for: LEDIndicatorState(fault: false), atNanoseconds: ms(777)).fault)
        let beats = litIntervals(from: 5000, to: 7000) { patterns.heartbeatLit(at: $0) }
        #expect(beats.map(\.0) == [5000, 5240, 6000, 6240] && beats.allSatisfy { $0.1 - $0.0 == 80 })
    }

    @Test func framesAtChosenTimes() {
        let state = LEDIndicatorState(fix: .fix2D, modeNumber: 2, modeChangedAtNanoseconds: ms(10_000), fault: true)
        #expect(patterns.frame(for: state, atNanoseconds: ms(10_050)) ==
                LEDFrame(fix: true, mode: true, modeColor: .blue, fault: true, heartbeat: true))
        #expect(patterns.frame(for: state, atNanoseconds: ms(10_130)) ==
                LEDFrame(fix: true, mode: false, modeColor: .blue, fault: true, heartbeat: false))
        #expect(patterns.frame(for: state, atNanoseconds: ms(10_260)) ==
                LEDFrame(fix: true, mode: true, modeColor: .blue, fault: true, heartbeat: true))
        #expect(patterns.frame(for: state, atNanoseconds: ms(10_600)) ==
                LEDFrame(fix: false, mode: false, modeColor: .blue, fault: true, heartbeat: false))
    }

    /// Frames depend on nothing but the state and the time passed in: any order of calls, any instance.
    @Test func patternsDeriveOnlyFromTheTimePassedIn() {
        var times: [Int64] = []
        var seed: UInt64 = 7
        for _ in 0..<2000 {
            seed = seed &* 6364136223846793005 &+ 1
            times.append(Int64(seed >> 20) - Int64(1) << 42)      // also negative times
        }
        let states = FixIndicator.allCases.map {
            LEDIndicatorState(fix: $0, modeNumber: Int($0.rawValue) + 1, modeChangedAtNanoseconds: ms(3), fault: $0 == .stale)
        }
        for state in states {
            let forward = times.map { patterns.frame(for: state, atNanoseconds: $0) }
            let other = LEDPatterns()
            let backward = times.reversed().map { other.frame(for: state, atNanoseconds: $0) }
            #expect(forward == Array(backward.reversed()))
        }
        #expect(LEDPatterns.phase(-1, 1000) == 999 && LEDPatterns.phase(-1000, 1000) == 0)
    }
}
