import NMEA

/// Drives a `TrackingCore` from a recorded log as fast as possible: inputs stamped with their log
/// time are applied in order and the core is ticked at `ticksPerSecond` (60) of log time in between.
///
/// Usage (one call per input, one per tick):
/// ```
/// driver.deliver(fix, logTimeNanoseconds: t)
/// while let tickTime = driver.nextTick() { render(driver.core.puck, driver.core.camera) }
/// …
/// driver.finish(drainSeconds: 4)
/// while let tickTime = driver.nextTick() { render(…) }
/// ```
///
/// **Time jumps.** Core time = log time + an offset, so gaps keep their real length for the stale
/// timer and animations. But at most `maximumTicksPerGap` ticks (default **300** = 5 s at 60 Hz)
/// run between two inputs: across a longer gap (receiver outage, concatenated logs) the remaining
/// ticks are skipped (`skippedTicks`, `forwardJumps`) and the tick grid restarts at the next input.
/// Log time going backwards (another log appended, clock reset) never moves core time back: the
/// offset is raised so the input lands at the previous input's core time (`backwardJumps`) and no
/// tick runs for it. Neither case can cause a tick storm or a stall.
///
/// **Bounded time.** Core time advances by at most `maximumForwardJumpNanoseconds` (two days, longer
/// than any timer of the core) per input and never beyond `latestCoreNanoseconds` after the start
/// (inputs past it are counted in `clampedInputs` and applied there), so no log, however many times
/// its clock jumps, can overflow the core's nanoseconds.
public struct ReplayDriver: Sendable {
    /// The core being driven (read its `puck`, `camera`, `events` after each tick).
    public var core: TrackingCore
    /// Ticks per second of log time.
    public let ticksPerSecond: Int64
    /// Most ticks run between two inputs (the cap across a time jump).
    public let maximumTicksPerGap: Int

    /// Ticks run so far.
    public private(set) var tickCount: UInt64 = 0
    /// Ticks skipped across forward jumps.
    public private(set) var skippedTicks: UInt64 = 0
    /// Gaps longer than the cap.
    public private(set) var forwardJumps: UInt64 = 0
    /// Inputs whose log time went backwards.
    public private(set) var backwardJumps: UInt64 = 0
    /// Forward jumps longer than `maximumForwardJumpNanoseconds`, shortened to it.
    public private(set) var shortenedJumps: UInt64 = 0
    /// Inputs that arrived after core time reached `latestCoreNanoseconds` (applied at that time).
    public private(set) var clampedInputs: UInt64 = 0

    /// Longest step of core time between two inputs: two days, longer than the core's longest timer
    /// (the stale timeout is at most a day), so a longer jump behaves the same, nanoseconds.
    public static let maximumForwardJumpNanoseconds: Int64 = 172_800_000_000_000
    /// How far core time may run from the start: 2^62 ns (146 years), nanoseconds.
    public static let latestCoreNanoseconds: Int64 = 1 << 62

    private enum Pending: Sendable {
        case none
        case fix(Fix)
        case heading(HeadingSample)
        case end
    }

    private let startNanoseconds: Int64
    /// The latest core time, `startNanoseconds + latestCoreNanoseconds` (saturated).
    private let endNanoseconds: Int64
    private var lastLogTime: Int64? = nil
    private var lastInputCoreTime: Int64
    private var gridOrigin: Int64
    private var gridIndex: Int64 = 0
    private var pending: Pending = .none
    private var pendingCoreTime: Int64 = 0
    private var ticksLeftInGap = 0

    /// A driver for `core`, whose core clock starts at `startNanoseconds`.
    public init(core: TrackingCore, ticksPerSecond: Int = 60, maximumTicksPerGap: Int = 300,
                startNanoseconds: Int64 = 0) {
        self.core = core
        self.ticksPerSecond = Int64(max(1, ticksPerSecond))
        self.maximumTicksPerGap = max(1, maximumTicksPerGap)
        self.startNanoseconds = startNanoseconds
        let (end, overflow) = startNanoseconds.addingReportingOverflow(Self.latestCoreNanoseconds)
        endNanoseconds = overflow ? Int64.max : end
        lastInputCoreTime = startNanoseconds
        gridOrigin = startNanoseconds
    }

    /// Core time of the next tick, nanoseconds.
    public var nextTickNanoseconds: Int64 { gridOrigin + gridIndex * 1_000_000_000 / ticksPerSecond }

    /// Core time the latest input was applied at (or will be, while pending), nanoseconds.
    public var inputNanoseconds: Int64 { lastInputCoreTime }

    /// Schedules a fix recorded at `logTimeNanoseconds`; run `nextTick()` until it returns nil.
    public mutating func deliver(_ fix: Fix, logTimeNanoseconds: Int64) {
        schedule(.fix(fix), logTime: logTimeNanoseconds)
    }

    /// Schedules a heading sample recorded at `logTimeNanoseconds` (its own time is replaced).
    public mutating func deliver(_ heading: HeadingSample, logTimeNanoseconds: Int64) {
        schedule(.heading(heading), logTime: logTimeNanoseconds)
    }

    /// Schedules the end of the replay `drainSeconds` (0…3600; NaN counts as 0) after the last input
    /// (lets animations finish).
    public mutating func finish(drainSeconds: Double) {
        flushPending()
        let seconds = drainSeconds.isNaN ? 0 : min(max(0, drainSeconds), 3600)
        let drain = Int64((seconds * 1e9).rounded())                      // ≤ 3.6e12: fits
        pendingCoreTime = min(lastInputCoreTime, endNanoseconds - drain) + drain
        pending = .end
        ticksLeftInGap = Int.max
    }

    /// Runs the next tick before the pending input and returns its core time; when no tick is due
    /// before it, applies the input (or ends the replay) and returns nil.
    public mutating func nextTick() -> Int64? {
        if case .none = pending { return nil }
        let t = nextTickNanoseconds
        let isEnd: Bool
        if case .end = pending { isEnd = true } else { isEnd = false }
        if t < pendingCoreTime || (isEnd && t <= pendingCoreTime) {
            if ticksLeftInGap > 0 {
                ticksLeftInGap -= 1
                core.tick(atNanoseconds: t)
                tickCount &+= 1
                gridIndex += 1
                // Every second the origin moves on by exactly one second (the same tick times), so
                // gridIndex · 1e9 never grows with the length of the log.
                if gridIndex == ticksPerSecond {
                    gridOrigin += 1_000_000_000
                    gridIndex = 0
                }
                return t
            }
            // Cap reached: skip the rest of the gap and restart the grid at the input.
            let interval = 1_000_000_000 / Double(ticksPerSecond)
            skippedTicks &+= UInt64(max(0, (Double(pendingCoreTime - t) / interval).rounded(.up)))
            forwardJumps &+= 1
            gridOrigin = pendingCoreTime
            gridIndex = 0
        }
        applyPending()
        return nil
    }

    // MARK: private

    /// The core time of an input at `logTime`: the previous input's core time plus the log's step
    /// forward (capped at two days; none when the log went back), never past `endNanoseconds`.
    private mutating func schedule(_ input: Pending, logTime: Int64) {
        flushPending()
        var coreTime = lastInputCoreTime
        if let last = lastLogTime {
            if logTime < last {
                backwardJumps &+= 1
            } else {
                // logTime ≥ last: the difference overflows only when it exceeds Int64.max.
                let (step, overflow) = logTime.subtractingReportingOverflow(last)
                var forward = step
                if overflow || step > Self.maximumForwardJumpNanoseconds {
                    shortenedJumps &+= 1
                    forward = Self.maximumForwardJumpNanoseconds
                }
                if forward > endNanoseconds - lastInputCoreTime {          // both ≤ endNanoseconds
                    clampedInputs &+= 1
                    forward = endNanoseconds - lastInputCoreTime
                }
                coreTime = lastInputCoreTime + forward
            }
        }
        lastLogTime = logTime
        pending = input
        pendingCoreTime = coreTime
        lastInputCoreTime = coreTime
        ticksLeftInGap = maximumTicksPerGap
    }

    /// Applies a pending input without running the ticks before it (an input delivered before the
    /// previous one was drained keeps its order).
    private mutating func flushPending() {
        if case .none = pending { return }
        if case .end = pending { pending = .none; return }
        while nextTick() != nil {}
    }

    private mutating func applyPending() {
        switch pending {
        case .fix(let fix): core.updateLocation(fix, atNanoseconds: pendingCoreTime)
        case .heading(var sample):
            sample.timeNanoseconds = pendingCoreTime
            core.updateHeading(sample)
        case .none, .end: break
        }
        pending = .none
    }
}
