/// Which physical button a press came from.
public enum ButtonID: UInt8, Sendable, Equatable {
    /// The main button (cycles tracking modes by default).
    case primary = 0
    /// The optional second button.
    case secondary = 1
}

/// How long a button was held.
public enum ButtonPressKind: UInt8, Sendable, Equatable {
    /// Released before the long-press threshold.
    case short = 0
    /// Held for the long-press threshold or longer (reported at the threshold, while still held).
    case long = 1
}

/// A recognised button press. Times are monotonic nanoseconds derived from the kernel's edge
/// timestamps, never from when the loop happened to notice.
public struct ButtonPress: Sendable, Equatable {
    /// The button.
    public var button: ButtonID
    /// Short or long.
    public var kind: ButtonPressKind
    /// When the press became what it is: the release edge for a short press, press edge + threshold for a
    /// long press. Monotonic nanoseconds.
    public var timeNanoseconds: Int64
    /// The debounced press edge, monotonic nanoseconds.
    public var pressedAtNanoseconds: Int64

    public init(button: ButtonID, kind: ButtonPressKind, timeNanoseconds: Int64, pressedAtNanoseconds: Int64) {
        self.button = button
        self.kind = kind
        self.timeNanoseconds = timeNanoseconds
        self.pressedAtNanoseconds = pressedAtNanoseconds
    }
}

/// Debounce and long-press timing of a button, in nanoseconds.
public struct ButtonTiming: Sendable, Equatable {
    /// A level change counts only after the line stayed at the new level this long (default 30 ms).
    public var debounceNanoseconds: Int64
    /// Hold time that makes a press long (default 1 s); nil disables long presses (every press is short).
    public var longPressNanoseconds: Int64?

    /// Valid times (a programming error traps; settings from a profile go through `validated`).
    public init(debounceNanoseconds: Int64 = 30_000_000, longPressNanoseconds: Int64? = 1_000_000_000) {
        precondition(Self.isValid(debounceNanoseconds, longPressNanoseconds), "invalid ButtonTiming")
        self.debounceNanoseconds = debounceNanoseconds
        self.longPressNanoseconds = longPressNanoseconds
    }

    /// Times from a board profile or the command line, checked: the debounce time is 0 … 1 s and the
    /// long-press time longer than it.
    public static func validated(debounceNanoseconds: Int64,
                                 longPressNanoseconds: Int64?) throws(ButtonConfigurationError) -> ButtonTiming {
        guard isValid(debounceNanoseconds, longPressNanoseconds) else {
            throw .invalidTiming(debounceNanoseconds: debounceNanoseconds, longPressNanoseconds: longPressNanoseconds)
        }
        return ButtonTiming(debounceNanoseconds: debounceNanoseconds, longPressNanoseconds: longPressNanoseconds)
    }

    private static func isValid(_ debounce: Int64, _ long: Int64?) -> Bool {
        debounce >= 0 && debounce <= 1_000_000_000 && (long.map { $0 > debounce } ?? true)
    }
}

/// One button's debouncer and short/long press recogniser: a pure state machine fed with logical edges
/// (kernel timestamps) and the loop's monotonic time.
///
/// Debounce by stability: a new level is accepted only when no other edge follows within
/// `debounceNanoseconds`; it is then back-dated to its edge. So contact bounce (many edges within a few
/// milliseconds) and glitches shorter than the debounce time are ignored, and press durations are measured
/// edge to edge. The decision is known `debounceNanoseconds` after the last edge, at the next `advance`.
///
/// Long press: fired once at press + threshold *while still held* (the user feels it happen), stamped
/// with that time; the release then reports nothing. A press released earlier is reported short on
/// release. A press lasting exactly the threshold is long. The outcome depends only on the edges, not on
/// how they were batched into wake-ups or how often `advance` ran, as long as calls come in time order;
/// an edge older than an already processed time is taken at that time.
public struct ButtonDebouncer: Sendable {
    /// The button this debouncer reports for.
    public let button: ButtonID
    /// Debounce and long-press times.
    public let timing: ButtonTiming

    /// Debounced state: true while the button is (accepted as) held.
    public private(set) var isPressed = false
    /// Edges seen since start.
    public private(set) var edgeCount = 0
    /// Level changes rejected as bounce or glitch (undone within the debounce time).
    public private(set) var rejectedChangeCount = 0

    private var rawActive = false
    private var lastEdgeNanoseconds: Int64 = 0
    private var pressStartNanoseconds: Int64 = 0
    private var longFired = false
    private var processedNanoseconds: Int64 = .min

    public init(button: ButtonID = .primary, timing: ButtonTiming = ButtonTiming()) {
        self.button = button
        self.timing = timing
    }

    /// Feeds one logical edge: `active` is the level after it (true = pressed), `timestampNanoseconds` the
    /// kernel's monotonic time of the edge. Returns a press decided before this edge, if any.
    public mutating func handleEdge(active: Bool, timestampNanoseconds: Int64) -> ButtonPress? {
        let time = max(timestampNanoseconds, processedNanoseconds)
        let press = advance(toNanoseconds: time)
        if rawActive != isPressed && active == isPressed { rejectedChangeCount += 1 }
        rawActive = active
        lastEdgeNanoseconds = time          // every edge restarts the stability window
        edgeCount += 1
        return press
    }

    /// Moves the debouncer's clock to `nowNanoseconds` (monotonic) and returns the press decided by then,
    /// if any (at most one per call).
    public mutating func advance(toNanoseconds nowNanoseconds: Int64) -> ButtonPress? {
        if nowNanoseconds < processedNanoseconds { return nil }
        processedNanoseconds = nowNanoseconds
        var press: ButtonPress?
        if rawActive != isPressed && lastEdgeNanoseconds &+ timing.debounceNanoseconds <= nowNanoseconds {
            isPressed = rawActive
            if isPressed {
                pressStartNanoseconds = lastEdgeNanoseconds
                longFired = false
            } else if !longFired {
                press = ButtonPress(button: button, kind: .short, timeNanoseconds: lastEdgeNanoseconds,
                                    pressedAtNanoseconds: pressStartNanoseconds)
            }
        }
        // A long press needs the held state to be certain at the threshold: no pending release.
        if isPressed && rawActive && !longFired, let long = timing.longPressNanoseconds,
           pressStartNanoseconds &+ long <= nowNanoseconds {
            longFired = true
            press = ButtonPress(button: button, kind: .long, timeNanoseconds: pressStartNanoseconds &+ long,
                                pressedAtNanoseconds: pressStartNanoseconds)
        }
        return press
    }

    /// The next time at which `advance` can decide something (monotonic nanoseconds), or nil when nothing
    /// is pending. The loop may use it as a poll timeout instead of relying on its tick.
    public var nextDeadlineNanoseconds: Int64? {
        if rawActive != isPressed { return lastEdgeNanoseconds &+ timing.debounceNanoseconds }
        if isPressed && !longFired, let long = timing.longPressNanoseconds { return pressStartNanoseconds &+ long }
        return nil
    }
}
