/// The pull resistor of an input line, as the kernel's bias request flags.
///
/// `asIs` leaves whatever the firmware or device tree configured (the only choice on kernels before 5.5,
/// which reject bias flags).
public enum GPIOBias: UInt8, Sendable, Equatable, CaseIterable {
    /// Keep the current configuration (no bias flag in the request).
    case asIs = 0
    /// Neither pull-up nor pull-down (an external resistor sets the idle level).
    case disabled = 1
    /// Internal pull-up: an open button reads high; the usual wiring is a button to ground (active-low).
    case pullUp = 2
    /// Internal pull-down: an open button reads low; a button to 3.3 V (active-high).
    case pullDown = 3

    /// The spelling used in configuration files and on the command line.
    public var name: StaticString {
        switch self {
        case .asIs: return "as-is"
        case .disabled: return "disabled"
        case .pullUp: return "pull-up"
        case .pullDown: return "pull-down"
        }
    }

    /// Parses `as-is`, `disabled`, `pull-up` or `pull-down` (start-up configuration; nil when unknown).
    public init?(name: String) {
        switch name {
        case "as-is", "asis", "none": self = .asIs
        case "disabled", "disable", "off": self = .disabled
        case "pull-up", "pullup", "up": self = .pullUp
        case "pull-down", "pulldown", "down": self = .pullDown
        default: return nil
        }
    }
}

/// The direction of a logical level change on an input line.
///
/// Edges are *logical*: the active-low inversion is already applied (by the kernel for real lines, by
/// the twin for simulated ones), so `.rising` always means "became active" (button pressed).
public enum GPIOEdge: UInt8, Sendable, Equatable {
    /// Inactive → active.
    case rising = 1
    /// Active → inactive.
    case falling = 2

    /// The logical level after this edge: true = active.
    @inline(__always)
    public var isActiveAfter: Bool { self == .rising }
}

/// One edge event of an input line, as the kernel reports it.
///
/// `timestampNanoseconds` is the kernel's estimate of when the edge happened, taken in the interrupt
/// handler on CLOCK_MONOTONIC (uAPI v1 since Linux 5.7), so it compares directly with the loop's
/// monotonic clock and is not delayed by scheduling.
public struct GPIOEdgeEvent: Sendable, Equatable {
    /// Kernel timestamp of the edge, monotonic nanoseconds.
    public var timestampNanoseconds: Int64
    /// Line offset on its chip (the BCM GPIO number on Raspberry Pi header chips).
    public var lineOffset: UInt32
    /// Logical direction of the change.
    public var edge: GPIOEdge

    public init(timestampNanoseconds: Int64, lineOffset: UInt32, edge: GPIOEdge) {
        self.timestampNanoseconds = timestampNanoseconds
        self.lineOffset = lineOffset
        self.edge = edge
    }
}

/// A caller-owned, fixed-capacity buffer that `GPIOController.readEvents` fills (no allocation).
///
/// The capacity, 16, equals the kernel's event queue of a one-line request (uAPI v1 and v2), so one read
/// drains a full queue.
public struct GPIOEventBatch: Sendable {
    /// Events the buffer holds at most.
    public static let capacity = 16
    private var storage: InlineArray<16, GPIOEdgeEvent>
    /// Number of valid events (0 ... `capacity`).
    public private(set) var count: Int = 0

    public init() {
        storage = InlineArray(repeating: GPIOEdgeEvent(timestampNanoseconds: 0, lineOffset: 0, edge: .rising))
    }

    /// The event at `index` (0 ..< count).
    public subscript(index: Int) -> GPIOEdgeEvent {
        precondition(index >= 0 && index < count, "GPIOEventBatch index out of range")
        return storage[index]
    }

    /// Forgets the content.
    public mutating func removeAll() { count = 0 }

    /// Appends an event; returns false (and drops it) when the batch is full.
    @discardableResult
    public mutating func append(_ event: GPIOEdgeEvent) -> Bool {
        if count >= Self.capacity { return false }
        storage[count] = event
        count += 1
        return true
    }

    /// True when no more events fit.
    public var isFull: Bool { count >= Self.capacity }
}

/// Identifies a line a controller has requested: returned by `requestInput`/`requestOutput`, passed
/// back to `setOutput`, `eventDescriptor` and `readEvents`. Only meaningful for the controller that made it.
public struct GPIOLineHandle: Sendable, Equatable, Hashable {
    /// Index in the controller's fixed line table.
    public let index: Int
    /// Line offset on the chip (BCM number on Raspberry Pi header chips).
    public let offset: UInt32

    public init(index: Int, offset: UInt32) {
        self.index = index
        self.offset = offset
    }
}

/// What to request for an input line: edge events (both, or rising only), a pull resistor, the active level and the
/// debounce period the kernel should apply.
public struct GPIOInputConfiguration: Sendable, Equatable {
    /// Line offset on the chip (BCM number on Raspberry Pi header chips).
    public var offset: UInt32
    /// Pull resistor.
    public var bias: GPIOBias
    /// True when the line reads low while active (button to ground with pull-up).
    public var activeLow: Bool
    /// Debounce period to ask the kernel for, nanoseconds (0: none). GPIO uAPI v2 debounces in the chip's
    /// hardware or in the kernel; where that is unavailable the controller says so
    /// (`GPIOController.debounceStatus`) and the caller debounces in software.
    public var debounceNanoseconds: Int64
    /// True: only rising (inactive → active) edges are reported, as for a chip's interrupt line, so the
    /// line's return to idle wakes nobody; false: both edges (buttons, PPS).
    public var risingEdgesOnly: Bool

    public init(offset: UInt32, bias: GPIOBias = .pullUp, activeLow: Bool = true, debounceNanoseconds: Int64 = 0,
                risingEdgesOnly: Bool = false) {
        self.offset = offset
        self.bias = bias
        self.activeLow = activeLow
        self.debounceNanoseconds = debounceNanoseconds
        self.risingEdgesOnly = risingEdgesOnly
    }
}

/// Whether the kernel debounces an input line, as its request came out.
///
/// With kernel debounce an edge is reported only after the line kept its new level for the period, and
/// its timestamp is when the kernel accepted it (the period after the last bounce), not the first edge;
/// glitches shorter than the period never arrive.
public enum GPIODebounceStatus: Sendable, Equatable {
    /// No debounce was asked for (period 0), or the line is an output.
    case notRequested
    /// The kernel debounces the line with this period, nanoseconds.
    case kernel(periodNanoseconds: Int64)
    /// Debounce was asked for but the kernel does not apply it; `reason` says why. The caller debounces.
    case unavailable(reason: String)

    /// The period the kernel applies, nanoseconds (0 when it does not debounce).
    public var kernelPeriodNanoseconds: Int64 {
        if case .kernel(let period) = self { return period }
        return 0
    }
}

/// What to request for an output line: the active level and the logical value at request time.
public struct GPIOOutputConfiguration: Sendable, Equatable {
    /// Line offset on the chip (BCM number on Raspberry Pi header chips).
    public var offset: UInt32
    /// True when the line is driven low while active (LED from 3.3 V to the pin).
    public var activeLow: Bool
    /// Logical value driven when the request is made (false = LED off).
    public var initiallyActive: Bool

    public init(offset: UInt32, activeLow: Bool = false, initiallyActive: Bool = false) {
        self.offset = offset
        self.activeLow = activeLow
        self.initiallyActive = initiallyActive
    }
}
