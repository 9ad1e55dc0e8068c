import Hardware

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

/// The device's buttons on a GPIO controller: requests the lines (both edges, bias, active level),
/// drains their edge events and turns them into presses with one `ButtonDebouncer` per button.
///
/// Loop use: put `descriptor(of:on:)` into the poll set; when one is readable call `drain(_:from:into:)`;
/// on every wake-up call `advance(toNanoseconds:into:)` so pending decisions (debounce, long press) are
/// made from the time passed in. Allocation-free after `init`.
public struct ButtonPanel: Sendable {
    /// The primary button's state machine.
    public private(set) var primary: ButtonDebouncer
    /// The secondary button's state machine, when configured.
    public private(set) var secondary: ButtonDebouncer?
    private let primaryLine: GPIOLineHandle
    private let secondaryLine: GPIOLineHandle?
    private var events = GPIOEventBatch()

    /// Requests the button lines on `controller` (start-up).
    public init(primary: ButtonLine, secondary: ButtonLine? = nil, timing: ButtonTiming = ButtonTiming(),
                controller: any GPIOController) throws(GPIOError) {
        primaryLine = try controller.requestInput(
            GPIOInputConfiguration(offset: primary.offset, bias: primary.bias, activeLow: primary.activeLow))
        self.primary = ButtonDebouncer(button: .primary, timing: timing)
        if let secondary {
            secondaryLine = try controller.requestInput(
                GPIOInputConfiguration(offset: secondary.offset, bias: secondary.bias, activeLow: secondary.activeLow))
            self.secondary = ButtonDebouncer(button: .secondary, timing: timing)
        } else {
            secondaryLine = nil
            self.secondary = nil
        }
    }

    /// The descriptor to poll for `button`'s edges on `controller`, or -1 when the button is not configured.
    public func descriptor(of button: ButtonID, on controller: any GPIOController) -> Int32 {
        guard let line = line(of: button) else { return -1 }
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
