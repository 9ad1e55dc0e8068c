/// A running `watch CMD HZ`: which view, how often, and when the next frame is due (monotonic
/// nanoseconds, from the device's `tick` times).
public struct WatchSchedule: Sendable, Equatable {
    /// The view redrawn.
    public var view: ConsoleView
    /// Frames per second asked for (0.1...60).
    public var hertz: Double
    /// Time between frames, nanoseconds.
    public var intervalNanoseconds: Int64
    /// When the next frame is due; nil = at the next tick (a new watch draws at once).
    public var nextDueNanoseconds: Int64?
    /// Frames drawn so far (skipped ones not counted).
    public var frames: Int64 = 0
    /// A streaming view (`nmea`): the next line to print; nil until the first frame.
    public var nextLine: UInt64?

    /// How often a streaming view prints what came since.
    public static let streamIntervalNanoseconds: Int64 = 50_000_000

    /// True for views whose new lines are printed as they come instead of redrawn.
    public var streams: Bool {
        if case .nmea = view { return true }
        return false
    }

    public init(view: ConsoleView, hertz: Double) {
        self.view = view
        self.hertz = hertz
        // The parser limits HZ (CommandParser.Limits.watchHertz); any other rate is clamped here, so
        // the interval is finite and within 1 ns … 1e9 s (NaN draws once a second).
        let rate = hertz.isNaN ? 1 : min(max(hertz, 1e-9), 1e9)
        intervalNanoseconds = max(1, Int64((1e9 / rate).rounded()))
    }

    /// True when a frame is due at `now`.
    public func isDue(at now: Int64) -> Bool {
        guard let due = nextDueNanoseconds else { return true }
        return now >= due
    }

    /// Schedules the frame after the one drawn at `now`: one interval after the previous due time,
    /// or after `now` when the device fell behind by a whole interval (no burst of catch-up frames).
    public mutating func advance(from now: Int64) {
        if streams {
            // New lines go out 20 times a second whatever HZ says: as they arrive, in few writes.
            nextDueNanoseconds = now &+ Self.streamIntervalNanoseconds
            return
        }
        let base = nextDueNanoseconds ?? now
        var next = base &+ intervalNanoseconds
        if next <= now { next = now &+ intervalNanoseconds }
        nextDueNanoseconds = next
    }
}
