/// What the fix LED shows.
public enum FixIndicator: UInt8, Sendable, Equatable, CaseIterable {
    /// No fix: off.
    case noFix = 0
    /// 2D fix: slow blink (1 Hz by default).
    case fix2D = 1
    /// 3D fix: steady on.
    case fix3D = 2
    /// The last fix is too old (receiver silent or lost): fast blink (4 Hz by default).
    case stale = 3
}

/// An on/off colour of an RGB LED (three outputs).
public struct RGBColor: Sendable, Equatable {
    public var red: Bool
    public var green: Bool
    public var blue: Bool

    public init(red: Bool, green: Bool, blue: Bool) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let off = RGBColor(red: false, green: false, blue: false)
    public static let red = RGBColor(red: true, green: false, blue: false)
    public static let green = RGBColor(red: false, green: true, blue: false)
    public static let blue = RGBColor(red: false, green: false, blue: true)
    public static let yellow = RGBColor(red: true, green: true, blue: false)
    public static let cyan = RGBColor(red: false, green: true, blue: true)
    public static let magenta = RGBColor(red: true, green: false, blue: true)
    public static let white = RGBColor(red: true, green: true, blue: true)
}

/// The device state the LEDs show.
public struct LEDIndicatorState: Sendable, Equatable {
    /// Fix LED state.
    public var fix: FixIndicator
    /// Mode number: position of the tracking mode in the button's cycle; 0 = no blinks (RGB: off).
    public var modeNumber: Int
    /// When the mode last changed, monotonic nanoseconds: the blink group restarts there so the new count
    /// shows at once.
    public var modeChangedAtNanoseconds: Int64
    /// True while any source is in error.
    public var fault: Bool

    public init(fix: FixIndicator = .noFix, modeNumber: Int = 0, modeChangedAtNanoseconds: Int64 = 0,
                fault: Bool = false) {
        self.fix = fix
        self.modeNumber = modeNumber
        self.modeChangedAtNanoseconds = modeChangedAtNanoseconds
        self.fault = fault
    }
}

/// Logical LED values at one instant (true = lit).
public struct LEDFrame: Sendable, Equatable {
    public var fix: Bool
    public var mode: Bool
    public var modeColor: RGBColor
    public var fault: Bool
    public var heartbeat: Bool

    public init(fix: Bool = false, mode: Bool = false, modeColor: RGBColor = .off, fault: Bool = false,
                heartbeat: Bool = false) {
        self.fix = fix
        self.mode = mode
        self.modeColor = modeColor
        self.fault = fault
        self.heartbeat = heartbeat
    }

    /// Everything off (the frame shown on exit).
    public static let allOff = LEDFrame()
}

/// Blink timing of the LED patterns, in nanoseconds.
public struct LEDPatternTiming: Sendable, Equatable {
    /// Period of the 2D-fix blink, half on (default 1 s: 1 Hz).
    public var fix2DPeriodNanoseconds: Int64 = 1_000_000_000
    /// Period of the stale blink, half on (default 250 ms: 4 Hz).
    public var stalePeriodNanoseconds: Int64 = 250_000_000
    /// The mode LED repeats its blink group with this period (default 2 s).
    public var modeGroupPeriodNanoseconds: Int64 = 2_000_000_000
    /// One mode blink: on for `modeBlinkOnNanoseconds` at the start of each slot (defaults 120 / 250 ms).
    public var modeBlinkOnNanoseconds: Int64 = 120_000_000
    public var modeBlinkSlotNanoseconds: Int64 = 250_000_000
    /// Heartbeat: two beats of `heartbeatBeatNanoseconds` at 0 and `heartbeatSecondBeatNanoseconds` in
    /// each period (defaults 1 s, 80 ms, 240 ms), like Linux's heartbeat LED trigger.
    public var heartbeatPeriodNanoseconds: Int64 = 1_000_000_000
    public var heartbeatBeatNanoseconds: Int64 = 80_000_000
    public var heartbeatSecondBeatNanoseconds: Int64 = 240_000_000

    public init() {}

    /// Most blinks a group shows while keeping a pause of two slots (6 with the defaults); higher mode
    /// numbers show this many (use an RGB LED for longer cycles).
    public var maximumModeBlinks: Int {
        Int(max(0, (modeGroupPeriodNanoseconds - 2 * modeBlinkSlotNanoseconds) / modeBlinkSlotNanoseconds))
    }
}

/// LED patterns as pure functions of the indicator state and the time passed in: no timers, no state,
/// so the same state and time always give the same frame (and a stalled loop shows a frozen heartbeat).
///
/// Fix: off / 1 Hz blink / on / 4 Hz blink. Mode: n short blinks every 2 s from the mode change, or one
/// RGB colour per mode number. Fault: on while any fault. Heartbeat: double beat every second.
/// Blink phases other than the mode group are taken from the monotonic time itself.
public struct LEDPatterns: Sendable {
    /// Blink timing.
    public var timing: LEDPatternTiming
    /// RGB colour per mode number (index 0 … 7); modes beyond the palette show white.
    public var modeColors: InlineArray<8, RGBColor>

    /// Default palette: 0 off, 1 green, 2 blue, 3 cyan, 4 yellow, 5 magenta, 6 red, 7 white.
    public init(timing: LEDPatternTiming = LEDPatternTiming(),
                modeColors: InlineArray<8, RGBColor> = [.off, .green, .blue, .cyan, .yellow, .magenta, .red, .white]) {
        precondition(timing.fix2DPeriodNanoseconds > 0 && timing.stalePeriodNanoseconds > 0
                     && timing.modeGroupPeriodNanoseconds > 0 && timing.modeBlinkSlotNanoseconds > 0
                     && timing.heartbeatPeriodNanoseconds > 0, "LED pattern periods must be positive")
        self.timing = timing
        self.modeColors = modeColors
    }

    /// The frame for `state` at `nowNanoseconds` (monotonic).
    public func frame(for state: LEDIndicatorState, atNanoseconds nowNanoseconds: Int64) -> LEDFrame {
        LEDFrame(fix: fixLit(state.fix, at: nowNanoseconds),
                 mode: modeLit(state.modeNumber, sinceNanoseconds: state.modeChangedAtNanoseconds, at: nowNanoseconds),
                 modeColor: modeColor(state.modeNumber),
                 fault: state.fault,
                 heartbeat: heartbeatLit(at: nowNanoseconds))
    }

    /// Fix LED value.
    public func fixLit(_ fix: FixIndicator, at nowNanoseconds: Int64) -> Bool {
        switch fix {
        case .noFix: return false
        case .fix3D: return true
        case .fix2D: return Self.phase(nowNanoseconds, timing.fix2DPeriodNanoseconds) < timing.fix2DPeriodNanoseconds / 2
        case .stale: return Self.phase(nowNanoseconds, timing.stalePeriodNanoseconds) < timing.stalePeriodNanoseconds / 2
        }
    }

    /// Single-colour mode LED value: `modeNumber` blinks at the start of each group period counted from
    /// `sinceNanoseconds`.
    public func modeLit(_ modeNumber: Int, sinceNanoseconds: Int64, at nowNanoseconds: Int64) -> Bool {
        let blinks = min(max(modeNumber, 0), timing.maximumModeBlinks)
        if blinks == 0 { return false }
        let phase = Self.phase(nowNanoseconds &- sinceNanoseconds, timing.modeGroupPeriodNanoseconds)
        let slot = phase / timing.modeBlinkSlotNanoseconds
        return slot < Int64(blinks) && phase - slot * timing.modeBlinkSlotNanoseconds < timing.modeBlinkOnNanoseconds
    }

    /// RGB mode LED colour.
    public func modeColor(_ modeNumber: Int) -> RGBColor {
        if modeNumber <= 0 { return modeColors[0] }
        return modeNumber < modeColors.count ? modeColors[modeNumber] : .white
    }

    /// Heartbeat LED value.
    public func heartbeatLit(at nowNanoseconds: Int64) -> Bool {
        let phase = Self.phase(nowNanoseconds, timing.heartbeatPeriodNanoseconds)
        let second = timing.heartbeatSecondBeatNanoseconds
        return phase < timing.heartbeatBeatNanoseconds
            || (phase >= second && phase < second + timing.heartbeatBeatNanoseconds)
    }

    /// The first time after `now` at which `frame(for: state, …)` changes in one of the LEDs shown
    /// (`fix`, a single-colour `mode` LED, `heartbeat`; the fault LED and an RGB colour change only
    /// with the state), nil when none of them blinks. Ticking at these times shows every blink edge
    /// at its exact time, as a tick at the full rate would at the next tick (docs/power.md).
    public func nextChangeNanoseconds(for state: LEDIndicatorState, after now: Int64, fix: Bool = true, mode: Bool = true,
                                      heartbeat: Bool = true) -> Int64? {
        var next = Int64.max
        if fix {
            let period: Int64? = switch state.fix {
            case .fix2D: timing.fix2DPeriodNanoseconds
            case .stale: timing.stalePeriodNanoseconds
            case .noFix, .fix3D: nil
            }
            if let period {
                let phase = Self.phase(now, period), half = period / 2
                next = min(next, now - phase + (phase < half ? half : period))
            }
        }
        let blinks = Int64(min(max(state.modeNumber, 0), timing.maximumModeBlinks))
        if mode && blinks > 0 {
            let group = timing.modeGroupPeriodNanoseconds, slot = timing.modeBlinkSlotNanoseconds
            let phase = Self.phase(now &- state.modeChangedAtNanoseconds, group)
            var edge = group                        // the next group's first blink
            let s = phase / slot
            if s < blinks {
                let on = s * slot, off = on + min(timing.modeBlinkOnNanoseconds, slot)
                edge = phase < off ? off : (s + 1 < blinks ? on + slot : group)
            }
            next = min(next, now - phase + edge)
        }
        if heartbeat {
            let period = timing.heartbeatPeriodNanoseconds, beat = timing.heartbeatBeatNanoseconds
            let second = timing.heartbeatSecondBeatNanoseconds
            let phase = Self.phase(now, period)
            var edge = period
            if second + beat > phase { edge = second + beat }   // edges in order: beat, second, second + beat, period
            if second > phase { edge = min(edge, second) }
            if beat > phase { edge = min(edge, beat) }
            next = min(next, now - phase + edge)
        }
        return next == .max ? nil : next
    }

    /// `time` modulo `period`, in 0 ..< period also for negative times.
    @inline(__always)
    static func phase(_ time: Int64, _ period: Int64) -> Int64 {
        let r = time % period
        return r < 0 ? r + period : r
    }
}
