import SystemCalls
import Hardware

/// The GPIO twin: a chip with `lineCount` lines whose inputs tests (or the simulated board's console)
/// press and release at scripted monotonic times, and whose outputs record every level change.
///
/// It follows the kernel's rules so code tested here behaves the same on a board (and against gpio-sim
/// in the HIL VM): an input queues edge events only once requested; the request's bias sets the level of
/// an undriven line without an event; edges are logical (active-low applied); each input queue holds 16
/// events; every requested input has an eventfd that polls readable exactly while events are queued.
/// `kernel` picks the GPIO uAPI it behaves like: v1 has no debounce and drops the newest events while a
/// queue is full; v2 debounces inputs requested with a period (an edge is queued once the line kept its
/// level for the period, stamped at that moment, as the kernel's debounce does; the twin's clock moves
/// with `drive`, `setOutput` and `advance`) and drops the oldest. After `close()` outputs keep their last
/// (inactive) level, as the Raspberry Pi kernel does. Storage is allocated in `init`; the hot path
/// allocates nothing.
public final class SimulatedGPIO: GPIOController {
    /// The kernel GPIO uAPI the twin behaves like.
    public enum KernelAPI: Sendable, Equatable {
        /// uAPI v1 (libgpiod 1.x): no debounce; a full queue drops the newest events.
        case v1
        /// uAPI v2 (libgpiod 2.x): kernel debounce; a full queue drops the oldest events.
        case v2
    }

    /// One recorded output level change.
    public struct OutputChange: Sendable, Equatable {
        /// When the level changed, monotonic nanoseconds (the time passed to `setOutput`).
        public var timeNanoseconds: Int64
        /// Logical value (true = active, LED on).
        public var active: Bool
        /// Electrical level on the pin (true = high).
        public var physicalHigh: Bool

        public init(timeNanoseconds: Int64, active: Bool, physicalHigh: Bool) {
            self.timeNanoseconds = timeNanoseconds
            self.active = active
            self.physicalHigh = physicalHigh
        }
    }

    private struct Requested {
        var offset: UInt32
        var isOutput: Bool
        var activeLow: Bool
        var bias: GPIOBias
        var eventDescriptor: FileDescriptor?
        var askedDebounce = false
        var risingOnly = false
        var debounceNanoseconds: Int64 = 0
        var debounceDeadline: Int64 = -1         // when the pending level is accepted; -1: none pending
        var reportedHigh = false                 // the level the kernel's debouncer last accepted
        var queueStart = 0, queueCount = 0
        var historyStart = 0, historyCount = 0
    }

    /// Lines one twin can hold, as the libgpiod backend.
    public static let lineCapacity = LibgpiodGPIOController.lineCapacity
    /// Events each input queues at most (the kernel's uAPI v1 FIFO size).
    public static let eventQueueCapacity = 16

    public let chipDescription: String
    public let lineCount: Int
    /// The kernel uAPI the twin behaves like.
    public let kernel: KernelAPI
    public var libraryDescription: String? { nil }
    /// Output changes kept per line; older ones are overwritten (counted in `overwrittenHistoryCount`).
    public let historyCapacity: Int
    /// Events dropped because an input queue was full (the kernel drops them the same way).
    public private(set) var droppedEventCount = 0
    /// Output changes overwritten because a line's history was full.
    public private(set) var overwrittenHistoryCount = 0
    /// The latest time passed to any timed call, monotonic nanoseconds.
    public private(set) var nowNanoseconds: Int64 = 0
    /// True after `close()`.
    public private(set) var isClosed = false

    private var physicalHigh: [Bool]
    private var externalDrive: [Int8]            // -1 undriven, 0 driven low, 1 driven high
    private var busyConsumers: [UInt32: String] = [:]
    private var requested: [Requested] = []
    private var lineIndex: [Int]                 // offset → index in `requested`, -1 when free
    private var queue: [GPIOEdgeEvent]
    private var history: [OutputChange]

    /// A chip named like a gpio-sim bank; all lines start low and undriven (gpio-sim's default pull-down).
    public init(label: String = "puckd-sim", lineCount: Int = 54, historyCapacity: Int = 4096, kernel: KernelAPI = .v1) {
        precondition(lineCount > 0 && historyCapacity > 0, "SimulatedGPIO needs lines and history")
        self.chipDescription = "simulated chip (label \(label), \(lineCount) lines)"
        self.kernel = kernel
        self.lineCount = lineCount
        self.historyCapacity = historyCapacity
        physicalHigh = Array(repeating: false, count: lineCount)
        externalDrive = Array(repeating: -1, count: lineCount)
        lineIndex = Array(repeating: -1, count: lineCount)
        requested.reserveCapacity(Self.lineCapacity)
        queue = Array(repeating: GPIOEdgeEvent(timestampNanoseconds: 0, lineOffset: 0, edge: .rising),
                      count: Self.lineCapacity * Self.eventQueueCapacity)
        history = Array(repeating: OutputChange(timeNanoseconds: 0, active: false, physicalHigh: false),
                        count: Self.lineCapacity * historyCapacity)
    }

    deinit { close() }

    // MARK: GPIOController

    public func requestInput(_ configuration: GPIOInputConfiguration) throws(GPIOError) -> GPIOLineHandle {
        try checkRequest(configuration.offset)
        let fd: FileDescriptor
        do throws(Errno) { fd = try FileDescriptor.eventCounter() } catch {
            throw .requestFailed(offset: configuration.offset, error: error)
        }
        let offset = Int(configuration.offset)
        if externalDrive[offset] < 0 {                      // the bias sets an undriven line, silently
            if configuration.bias == .pullUp { physicalHigh[offset] = true }
            if configuration.bias == .pullDown { physicalHigh[offset] = false }
        }
        var line = Requested(offset: configuration.offset, isOutput: false, activeLow: configuration.activeLow,
                             bias: configuration.bias, eventDescriptor: fd)
        line.askedDebounce = configuration.debounceNanoseconds > 0
        line.risingOnly = configuration.risingEdgesOnly
        if kernel == .v2 { line.debounceNanoseconds = max(0, configuration.debounceNanoseconds) }
        line.reportedHigh = physicalHigh[offset]
        return add(line)
    }

    public func debounceStatus(_ line: GPIOLineHandle) -> GPIODebounceStatus {
        guard !isClosed, line.index >= 0, line.index < requested.count, !requested[line.index].isOutput else {
            return .notRequested
        }
        if requested[line.index].debounceNanoseconds > 0 {
            return .kernel(periodNanoseconds: requested[line.index].debounceNanoseconds)
        }
        return requested[line.index].askedDebounce ? .unavailable(reason: "the twin models GPIO uAPI v1, which has no kernel debounce")
            : .notRequested
    }

    public func requestOutput(_ configuration: GPIOOutputConfiguration) throws(GPIOError) -> GPIOLineHandle {
        try checkRequest(configuration.offset)
        let handle = add(Requested(offset: configuration.offset, isOutput: true, activeLow: configuration.activeLow,
                                   bias: .asIs, eventDescriptor: nil))
        record(handle.index, active: configuration.initiallyActive, at: nowNanoseconds, force: true)
        return handle
    }

    public func setOutput(_ line: GPIOLineHandle, active: Bool, nowNanoseconds time: Int64) throws(GPIOError) {
        let index = try entry(line)
        if !requested[index].isOutput { throw .wrongDirection(offset: line.offset, expectedOutput: true) }
        advanceClock(time)
        record(index, active: active, at: time, force: false)
    }

    public func eventDescriptor(_ line: GPIOLineHandle) -> FileDescriptor? {
        guard !isClosed, line.index >= 0, line.index < requested.count else { return nil }
        return requested[line.index].eventDescriptor
    }

    public func readEvents(_ line: GPIOLineHandle, into batch: inout GPIOEventBatch) throws(GPIOError) -> Int {
        let index = try entry(line)
        if requested[index].isOutput { throw .wrongDirection(offset: line.offset, expectedOutput: false) }
        var moved = 0
        while requested[index].queueCount > 0 && !batch.isFull {
            let slot = index * Self.eventQueueCapacity + requested[index].queueStart
            batch.append(queue[slot])
            requested[index].queueStart = (requested[index].queueStart + 1) % Self.eventQueueCapacity
            requested[index].queueCount -= 1
            moved += 1
        }
        if requested[index].queueCount == 0 {              // not readable any more
            requested[index].eventDescriptor?.drainEventCounter()
        }
        return moved
    }

    public func close() {
        if isClosed { return }
        var i = 0
        while i < requested.count {
            if requested[i].isOutput { record(i, active: false, at: nowNanoseconds, force: false) }
            try? requested[i].eventDescriptor?.close()
            lineIndex[Int(requested[i].offset)] = -1
            i += 1
        }
        isClosed = true
    }

    // MARK: the outside world (tests, simulated board)

    /// Drives input `offset` from outside: `true` high, `false` low, `nil` undriven (the bias of the
    /// request, if any, then sets the level). Queues an edge event at `timeNanoseconds` when the line is
    /// a requested input and its level changes. Ignored for requested outputs (the output wins).
    public func drive(_ offset: UInt32, high: Bool?, atNanoseconds timeNanoseconds: Int64) {
        let line = Int(offset)
        precondition(line >= 0 && line < lineCount, "SimulatedGPIO: no line \(offset)")
        advanceClock(timeNanoseconds)
        externalDrive[line] = high.map { $0 ? 1 : 0 } ?? -1
        let index = lineIndex[line]
        if index >= 0 && requested[index].isOutput { return }
        var level = physicalHigh[line]
        if let high { level = high } else if index >= 0 {
            if requested[index].bias == .pullUp { level = true }
            if requested[index].bias == .pullDown { level = false }
        }
        if level == physicalHigh[line] { return }
        physicalHigh[line] = level
        if index >= 0 && !isClosed {
            if requested[index].debounceNanoseconds > 0 {   // every edge restarts the kernel's debounce timer
                requested[index].debounceDeadline = timeNanoseconds &+ requested[index].debounceNanoseconds
                return
            }
            let active = level != requested[index].activeLow
            enqueue(index, GPIOEdgeEvent(timestampNanoseconds: timeNanoseconds, lineOffset: offset,
                                         edge: active ? .rising : .falling))
        }
    }

    /// Moves the twin's clock to `timeNanoseconds` (monotonic): debounced inputs (uAPI v2) whose level held
    /// for their period until then queue their edge, stamped when the period ended.
    public func advance(toNanoseconds timeNanoseconds: Int64) { advanceClock(timeNanoseconds) }

    /// Presses a button on `offset`: drives the line to its active level (low for an active-low request;
    /// an unrequested line is taken as active-low, the usual wiring to ground).
    public func press(_ offset: UInt32, atNanoseconds timeNanoseconds: Int64) {
        let index = lineIndex[Int(offset)]
        let activeLow = index >= 0 ? requested[index].activeLow : true
        drive(offset, high: !activeLow, atNanoseconds: timeNanoseconds)
    }

    /// Releases a button on `offset`: the line floats and its pull resistor returns it to idle.
    public func release(_ offset: UInt32, atNanoseconds timeNanoseconds: Int64) {
        drive(offset, high: nil, atNanoseconds: timeNanoseconds)
    }

    /// Marks `offset` as held by another consumer (e.g. "pps-gpio"), so requesting it fails as on a board.
    public func occupy(_ offset: UInt32, consumer: String) { busyConsumers[offset] = consumer }

    /// The electrical level of a line (true = high).
    public func isPhysicallyHigh(_ offset: UInt32) -> Bool { physicalHigh[Int(offset)] }

    /// Events queued on input `offset` and not read yet.
    public func pendingEventCount(_ offset: UInt32) -> Int {
        let index = lineIndex[Int(offset)]
        return index >= 0 ? requested[index].queueCount : 0
    }

    /// True while `offset` is requested.
    public func isRequested(_ offset: UInt32) -> Bool { lineIndex[Int(offset)] >= 0 }

    /// The recorded changes of output `offset`, oldest first (allocates: for tests and diagnostics). The
    /// first entry is the request's initial value. Kept after `close()`.
    public func outputHistory(_ offset: UInt32) -> [OutputChange] {
        guard let index = requested.firstIndex(where: { $0.offset == offset && $0.isOutput }) else { return [] }
        var changes: [OutputChange] = []
        var k = 0
        while k < requested[index].historyCount {
            changes.append(history[index * historyCapacity + (requested[index].historyStart + k) % historyCapacity])
            k += 1
        }
        return changes
    }

    /// The logical value output `offset` had at `timeNanoseconds` according to the history (nil before the
    /// first recorded change or when the line is no output).
    public func outputWasActive(_ offset: UInt32, atNanoseconds timeNanoseconds: Int64) -> Bool? {
        outputHistory(offset).last(where: { $0.timeNanoseconds <= timeNanoseconds })?.active
    }

    // MARK: internals

    private func checkRequest(_ offset: UInt32) throws(GPIOError) {
        if isClosed { throw .closed }
        if Int(offset) >= lineCount { throw .lineOutOfRange(offset: offset, lineCount: lineCount, chip: chipDescription) }
        if lineIndex[Int(offset)] >= 0 { throw .lineAlreadyRequested(offset: offset) }
        if let consumer = busyConsumers[offset] { throw .lineBusy(offset: offset, consumer: consumer, chip: chipDescription) }
        if requested.count >= Self.lineCapacity { throw .tooManyLines(capacity: Self.lineCapacity) }
    }

    private func add(_ line: Requested) -> GPIOLineHandle {
        requested.append(line)
        lineIndex[Int(line.offset)] = requested.count - 1
        return GPIOLineHandle(index: requested.count - 1, offset: line.offset)
    }

    private func entry(_ line: GPIOLineHandle) throws(GPIOError) -> Int {
        if isClosed { throw .closed }
        precondition(line.index >= 0 && line.index < requested.count && requested[line.index].offset == line.offset,
                     "GPIOLineHandle does not belong to this controller")
        return line.index
    }

    private func advanceClock(_ time: Int64) {
        if time > nowNanoseconds { nowNanoseconds = time }
        if isClosed { return }
        var i = 0
        while i < requested.count {
            let deadline = requested[i].debounceDeadline
            if deadline >= 0 && deadline <= time {
                requested[i].debounceDeadline = -1
                let high = physicalHigh[Int(requested[i].offset)]
                if high != requested[i].reportedHigh {
                    requested[i].reportedHigh = high
                    enqueue(i, GPIOEdgeEvent(timestampNanoseconds: deadline, lineOffset: requested[i].offset,
                                             edge: high != requested[i].activeLow ? .rising : .falling))
                }
            }
            i += 1
        }
    }

    private func enqueue(_ index: Int, _ event: GPIOEdgeEvent) {
        if requested[index].risingOnly && event.edge != .rising { return }   // not asked for: the kernel reports none
        if requested[index].queueCount >= Self.eventQueueCapacity {
            droppedEventCount += 1
            if kernel == .v1 { return }                       // v1 drops the newest, v2 the oldest
            requested[index].queueStart = (requested[index].queueStart + 1) % Self.eventQueueCapacity
            requested[index].queueCount -= 1
        }
        let slot = (requested[index].queueStart + requested[index].queueCount) % Self.eventQueueCapacity
        queue[index * Self.eventQueueCapacity + slot] = event
        requested[index].queueCount += 1
        if requested[index].queueCount == 1 {              // becomes readable
            requested[index].eventDescriptor?.signalEventCounter()
        }
    }

    private func record(_ index: Int, active: Bool, at time: Int64, force: Bool) {
        let offset = Int(requested[index].offset)
        let high = active != requested[index].activeLow
        if !force && high == physicalHigh[offset] && requested[index].historyCount > 0 { return }
        physicalHigh[offset] = high
        let change = OutputChange(timeNanoseconds: time, active: active, physicalHigh: high)
        var line = requested[index]
        if line.historyCount < historyCapacity {
            history[index * historyCapacity + (line.historyStart + line.historyCount) % historyCapacity] = change
            line.historyCount += 1
        } else {
            history[index * historyCapacity + line.historyStart] = change
            line.historyStart = (line.historyStart + 1) % historyCapacity
            overwrittenHistoryCount += 1
        }
        requested[index] = line
    }
}
