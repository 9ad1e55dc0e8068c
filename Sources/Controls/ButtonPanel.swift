import GPIO
import SystemCalls   // the FileDescriptor type of a line's events; no call

/// Where a button is wired: the line offset (BCM number), its active level and its pull resistor.
/// Default wiring: a push button from the pin to ground with the internal pull-up (active-low).
public struct ButtonLine: Sendable, Equatable {
    /// Line offset on the GPIO chip (BCM number on Raspberry Pi header chips).
    public var offset: UInt32
    /// True when pressing pulls the line low.
    public var activeLow: Bool
    /// Pull resistor to request.
    public var bias: GPIOBias

    public init(offset: UInt32, activeLow: Bool = true, bias: GPIOBias = .pullUp) {
        self.offset = offset
        self.activeLow = activeLow
        self.bias = bias
    }
}

/// A fixed-capacity list of presses the panel recognised during one wake-up (no allocation).
public struct ButtonPressBatch: Sendable {
    /// Presses a batch holds; more are dropped and counted (16 edges per line per read cannot make more).
    public static let capacity = 32
    private var storage: InlineArray<32, ButtonPress>
    /// Number of presses held.
    public private(set) var count = 0
    /// Presses dropped because the batch was full.
    public private(set) var droppedCount = 0

    public init() {
        storage = InlineArray(repeating: ButtonPress(button: .primary, kind: .short, timeNanoseconds: 0,
                                                     pressedAtNanoseconds: 0))
    }

    /// The press at `index` (0 ..< count), oldest first per button.
    public subscript(index: Int) -> ButtonPress {
        precondition(index >= 0 && index < count, "ButtonPressBatch index out of range")
        return storage[index]
    }

    /// Forgets the content (keeps `droppedCount`).
    public mutating func removeAll() { count = 0 }

    /// Appends a press, or counts it as dropped when full.
    public mutating func append(_ press: ButtonPress) {
        if count < Self.capacity {
            storage[count] = press
            count += 1
        } else {
            droppedCount += 1
        }
    }
}

/// The device's buttons on a GPIO controller: requests the lines (both edges, bias, active level, and
/// the debounce time as kernel debounce), drains their edge events and turns them into presses with one
/// `ButtonDebouncer` per button. Where the kernel debounces a line (GPIO uAPI v2) its debouncer only
/// recognises short and long presses; elsewhere it also debounces, with the same time.
///
/// Loop use: put `descriptor(of:on:)` into the poll set; when one is readable call `drain(_:from:into:)`;
/// on every wake-up call `advance(toNanoseconds:into:)` so pending decisions (debounce, long press) are
/// made from the time passed in. Allocation-free after `init`.
public struct ButtonPanel: Sendable {
    /// The primary button's state machine.
    public private(set) var primary: ButtonDebouncer
    /// The secondary button's state machine, when configured.
    public private(set) var secondary: ButtonDebouncer?
    /// Who debounces the primary button: the kernel, or (`.unavailable`, `.notRequested`) its debouncer.
    public let primaryDebounce: GPIODebounceStatus
    /// The same for the secondary button (`.notRequested` when there is none).
    public let secondaryDebounce: GPIODebounceStatus
    /// The debounce time asked for, nanoseconds.
    public let debounceNanoseconds: Int64
    private let primaryLine: GPIOLineHandle
    private let secondaryLine: GPIOLineHandle?
    private var events = GPIOEventBatch()

    /// Requests the button lines on `controller` (start-up).
    public init(primary: ButtonLine, secondary: ButtonLine? = nil, timing: ButtonTiming = ButtonTiming(),
                controller: any GPIOController) throws(GPIOError) {
        debounceNanoseconds = timing.debounceNanoseconds
        primaryLine = try Self.request(primary, timing: timing, controller: controller)
        primaryDebounce = controller.debounceStatus(primaryLine)
        self.primary = ButtonDebouncer(button: .primary, timing: Self.softwareTiming(timing, primaryDebounce))
        if let secondary {
            let line = try Self.request(secondary, timing: timing, controller: controller)
            secondaryLine = line
            secondaryDebounce = controller.debounceStatus(line)
            self.secondary = ButtonDebouncer(button: .secondary, timing: Self.softwareTiming(timing, secondaryDebounce))
        } else {
            secondaryLine = nil
            secondaryDebounce = .notRequested
            self.secondary = nil
        }
    }

    private static func request(_ button: ButtonLine, timing: ButtonTiming,
                                controller: any GPIOController) throws(GPIOError) -> GPIOLineHandle {
        try controller.requestInput(GPIOInputConfiguration(offset: button.offset, bias: button.bias,
                                                           activeLow: button.activeLow,
                                                           debounceNanoseconds: timing.debounceNanoseconds))
    }

    /// The debouncer's timing: no second debounce on top of the kernel's.
    public static func softwareTiming(_ timing: ButtonTiming, _ debounce: GPIODebounceStatus) -> ButtonTiming {
        guard debounce.kernelPeriodNanoseconds > 0 else { return timing }
        return ButtonTiming(debounceNanoseconds: 0, longPressNanoseconds: timing.longPressNanoseconds)
    }

    /// For the start-up report: `kernel debounce 30 ms`, `debounce 30 ms in puckd: why not the kernel`,
    /// or `no debounce`.
    public var debounceDescription: String {
        let milliseconds = Double(debounceNanoseconds) / 1_000_000
        let ms = milliseconds == milliseconds.rounded() ? String(Int64(milliseconds)) : String(milliseconds)
        switch primaryDebounce {
        case .kernel(let period):
            let kernelMs = Double(period) / 1_000_000
            return "kernel debounce " + (kernelMs == milliseconds ? ms : String(kernelMs)) + " ms"
        case .unavailable(let reason):
            return "debounce " + ms + " ms in puckd: " + reason
        case .notRequested:
            return debounceNanoseconds > 0 ? "debounce " + ms + " ms in puckd" : "no debounce"
        }
    }

    /// The descriptor to poll for `button`'s edges on `controller`, or nil when the button is not configured.
    public func descriptor(of button: ButtonID, on controller: any GPIOController) -> FileDescriptor? {
        guard let line = line(of: button) else { return nil }
        return controller.eventDescriptor(line)
    }

    /// The controller line of `button`, when configured.
    public func line(of button: ButtonID) -> GPIOLineHandle? {
        button == .primary ? primaryLine : secondaryLine
    }

    /// Reads every pending edge of `button`'s line and feeds it to its debouncer; presses decided on the
    /// way go to `presses`.
    public mutating func drain(_ button: ButtonID, from controller: any GPIOController,
                               into presses: inout ButtonPressBatch) throws(GPIOError) {
        guard let line = line(of: button) else { return }
        while true {
            events.removeAll()
            let n = try controller.readEvents(line, into: &events)
            var i = 0
            while i < events.count {
                let event = events[i]
                let press: ButtonPress?
                if button == .primary {
                    press = primary.handleEdge(active: event.edge.isActiveAfter,
                                               timestampNanoseconds: event.timestampNanoseconds)
                } else {
                    press = secondary?.handleEdge(active: event.edge.isActiveAfter,
                                                  timestampNanoseconds: event.timestampNanoseconds)
                }
                if let press { presses.append(press) }
                i += 1
            }
            if n < GPIOEventBatch.capacity { return }
        }
    }

    /// Makes the decisions due by `nowNanoseconds` (monotonic) on both buttons.
    public mutating func advance(toNanoseconds nowNanoseconds: Int64, into presses: inout ButtonPressBatch) {
        if let press = primary.advance(toNanoseconds: nowNanoseconds) { presses.append(press) }
        if let press = secondary?.advance(toNanoseconds: nowNanoseconds) { presses.append(press) }
    }

    /// Drains both lines and advances to `nowNanoseconds`: the whole job for a loop that does not track
    /// which descriptor was readable (an idle line costs one non-blocking read).
    public mutating func service(_ controller: any GPIOController, nowNanoseconds: Int64,
                                 into presses: inout ButtonPressBatch) throws(GPIOError) {
        try drain(.primary, from: controller, into: &presses)
        try drain(.secondary, from: controller, into: &presses)
        advance(toNanoseconds: nowNanoseconds, into: &presses)
    }

    /// The earliest time a pending decision falls due, monotonic nanoseconds (nil: nothing pending).
    public var nextDeadlineNanoseconds: Int64? {
        let a = primary.nextDeadlineNanoseconds, b = secondary?.nextDeadlineNanoseconds
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }
}
