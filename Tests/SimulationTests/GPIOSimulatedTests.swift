import Glibc
@testable import Simulation
import Testing
import TestSupport
@testable import Hardware

/// The GPIO twin follows the kernel's rules (docs: events only after the request, uAPI v1 and v2 queues,
/// v2 debounce), so code tested against it behaves the same on gpio-sim and on boards.
@Suite struct GPIOSimulatedTests {
    static func readable(_ fd: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) == 1 && p.revents & Int16(POLLIN) != 0
    }

    @Test func activeLowButtonWithPullUp() throws {
        let gpio = SimulatedGPIO()
        let button = try gpio.requestInput(GPIOInputConfiguration(offset: 17, bias: .pullUp, activeLow: true))
        #expect(gpio.isPhysicallyHigh(17))                       // the pull-up sets the idle level …
        #expect(gpio.pendingEventCount(17) == 0)                 // … without an event
        let fd = try #require(gpio.eventDescriptor(button)).rawValue
        #expect(fd >= 0 && !Self.readable(fd))

        gpio.press(17, atNanoseconds: 5_000_000)
        #expect(!gpio.isPhysicallyHigh(17))
        #expect(Self.readable(fd))
        gpio.release(17, atNanoseconds: 9_000_000)
        #expect(gpio.isPhysicallyHigh(17))

        var batch = GPIOEventBatch()
        #expect(try gpio.readEvents(button, into: &batch) == 2)
        #expect(batch[0] == GPIOEdgeEvent(timestampNanoseconds: 5_000_000, lineOffset: 17, edge: .rising))
        #expect(batch[1] == GPIOEdgeEvent(timestampNanoseconds: 9_000_000, lineOffset: 17, edge: .falling))
        #expect(!Self.readable(fd))
        #expect(try gpio.readEvents(button, into: &batch) == 0)
    }

    @Test func activeHighButtonWithPullDown() throws {
        let gpio = SimulatedGPIO()
        let button = try gpio.requestInput(GPIOInputConfiguration(offset: 27, bias: .pullDown, activeLow: false))
        #expect(!gpio.isPhysicallyHigh(27))
        gpio.press(27, atNanoseconds: 1)
        #expect(gpio.isPhysicallyHigh(27))
        // Driving the pin low on an active-high line is a release (logical falling edge).
        gpio.drive(27, high: false, atNanoseconds: 2)
        var batch = GPIOEventBatch()
        _ = try gpio.readEvents(button, into: &batch)
        #expect(batch.count == 2 && batch[0].edge == .rising && batch[1].edge == .falling)
    }

    @Test func noEventsBeforeTheRequest() throws {
        let gpio = SimulatedGPIO()
        gpio.drive(17, high: false, atNanoseconds: 1)            // pressed before puckd started
        let button = try gpio.requestInput(GPIOInputConfiguration(offset: 17))
        #expect(gpio.pendingEventCount(17) == 0)
        #expect(!gpio.isPhysicallyHigh(17))                      // driven lines ignore the bias
        gpio.release(17, atNanoseconds: 2)
        var batch = GPIOEventBatch()
        #expect(try gpio.readEvents(button, into: &batch) == 1 && batch[0].edge == .falling)
    }

    @Test func queueHoldsSixteenAndDropsNewer() throws {
        let gpio = SimulatedGPIO()
        let button = try gpio.requestInput(GPIOInputConfiguration(offset: 5))
        for i in 0..<20 { gpio.drive(5, high: i % 2 == 1, atNanoseconds: Int64(i)) }
        #expect(gpio.pendingEventCount(5) == 16 && gpio.droppedEventCount == 4)
        var batch = GPIOEventBatch()
        #expect(try gpio.readEvents(button, into: &batch) == 16)
        #expect(batch[15].timestampNanoseconds == 15)            // the oldest ones were kept
        #expect(try gpio.readEvents(button, into: &batch) == 0)  // full batch: nothing more fits
    }

    @Test func outputsRecordPhysicalAndLogicalHistory() throws {
        let gpio = SimulatedGPIO()
        let led = try gpio.requestOutput(GPIOOutputConfiguration(offset: 22, activeLow: true, initiallyActive: false))
        #expect(gpio.isPhysicallyHigh(22))                       // active-low LED off = pin high
        try gpio.setOutput(led, active: true, nowNanoseconds: 100)
        try gpio.setOutput(led, active: true, nowNanoseconds: 150)   // no change: not recorded
        try gpio.setOutput(led, active: false, nowNanoseconds: 200)
        let history = gpio.outputHistory(22)
        #expect(history == [
            .init(timeNanoseconds: 0, active: false, physicalHigh: true),
            .init(timeNanoseconds: 100, active: true, physicalHigh: false),
            .init(timeNanoseconds: 200, active: false, physicalHigh: true),
        ])
        #expect(gpio.outputWasActive(22, atNanoseconds: 199) == true)
        #expect(gpio.outputWasActive(22, atNanoseconds: 200) == false)
        #expect(gpio.eventDescriptor(led) == nil)
        var batch = GPIOEventBatch()
        #expect(throws: GPIOError.wrongDirection(offset: 22, expectedOutput: false)) {
            _ = try gpio.readEvents(led, into: &batch)
        }
    }

    @Test func historyRingOverwritesOldest() throws {
        let gpio = SimulatedGPIO(historyCapacity: 4)
        let led = try gpio.requestOutput(GPIOOutputConfiguration(offset: 3))
        for t in 1...5 { try gpio.setOutput(led, active: t % 2 == 1, nowNanoseconds: Int64(t)) }
        #expect(gpio.outputHistory(3).map(\.timeNanoseconds) == [2, 3, 4, 5])
        #expect(gpio.overwrittenHistoryCount == 2)
    }

    @Test func closeTurnsOutputsOffAndReleases() throws {
        let gpio = SimulatedGPIO()
        let led = try gpio.requestOutput(GPIOOutputConfiguration(offset: 22, activeLow: false, initiallyActive: true))
        let button = try gpio.requestInput(GPIOInputConfiguration(offset: 17))
        try gpio.setOutput(led, active: true, nowNanoseconds: 1_000)
        gpio.close()
        #expect(gpio.outputHistory(22).last == .init(timeNanoseconds: 1_000, active: false, physicalHigh: false))
        #expect(!gpio.isRequested(17) && !gpio.isRequested(22))
        #expect(gpio.eventDescriptor(button) == nil)
        #expect(throws: GPIOError.closed) { try gpio.setOutput(led, active: true, nowNanoseconds: 2_000) }
        #expect(throws: GPIOError.closed) { _ = try gpio.requestInput(GPIOInputConfiguration(offset: 4)) }
        gpio.close()                                             // idempotent
    }

    @Test func requestErrorsMatchTheKernelBackend() throws {
        let gpio = SimulatedGPIO(lineCount: 54)
        #expect(throws: GPIOError.lineOutOfRange(offset: 54, lineCount: 54, chip: gpio.chipDescription)) {
            _ = try gpio.requestInput(GPIOInputConfiguration(offset: 54))
        }
        gpio.occupy(4, consumer: "pps-gpio")
        do {
            _ = try gpio.requestInput(GPIOInputConfiguration(offset: 4))
            Issue.record("requested a busy line")
        } catch {
            #expect(error == .lineBusy(offset: 4, consumer: "pps-gpio", chip: gpio.chipDescription))
            #expect(error.description.contains("\"pps-gpio\"") && error.description.contains("dtoverlay"))
        }
        _ = try gpio.requestOutput(GPIOOutputConfiguration(offset: 5))
        #expect(throws: GPIOError.lineAlreadyRequested(offset: 5)) {
            _ = try gpio.requestInput(GPIOInputConfiguration(offset: 5))
        }
        for offset in 10..<25 { _ = try gpio.requestOutput(GPIOOutputConfiguration(offset: UInt32(offset))) }
        #expect(throws: GPIOError.tooManyLines(capacity: 16)) {
            _ = try gpio.requestOutput(GPIOOutputConfiguration(offset: 30))
        }
    }

    /// Reading events and setting outputs allocate nothing once the lines are requested.
    @Test func hotPathAllocatesNothing() throws {
        let gpio = SimulatedGPIO()
        let button = try gpio.requestInput(GPIOInputConfiguration(offset: 17))
        let led = try gpio.requestOutput(GPIOOutputConfiguration(offset: 22))
        var batch = GPIOEventBatch()
        func cycle(_ t: Int64) throws {
            gpio.press(17, atNanoseconds: t)
            gpio.release(17, atNanoseconds: t + 1)
            batch.removeAll()
            _ = try gpio.readEvents(button, into: &batch)
            try gpio.setOutput(led, active: batch.count == 2, nowNanoseconds: t)
            try gpio.setOutput(led, active: false, nowNanoseconds: t + 1)
        }
        try cycle(0)
        var t: Int64 = 10
        let count = try allocationCount {
            for _ in 0..<3_000 { try cycle(t); t += 10 }
        }
        #expect(count == 0)
        // 1 initial value + 2 changes per cycle; the ring keeps the newest 4096.
        #expect(gpio.outputHistory(22).count == 4096 && gpio.overwrittenHistoryCount == 6_003 - 4_096)
    }

    // MARK: uAPI v2: kernel debounce, drop-oldest queue

    /// As gpiolib-cdev's debounce: every edge restarts the period; when it ends with the line at a level
    /// other than the last accepted one, one event is queued, stamped at the end of the period.
    @Test func v2DebouncesLikeTheKernel() throws {
        let gpio = SimulatedGPIO(kernel: .v2)
        let button = try gpio.requestInput(GPIOInputConfiguration(offset: 17, debounceNanoseconds: 30_000_000))
        #expect(gpio.debounceStatus(button) == .kernel(periodNanoseconds: 30_000_000))
        for k in 0..<5 {                                          // press with bounce: 100, 102, … 108 ms
            let t = Int64(100 + 2 * k) * 1_000_000
            k % 2 == 0 ? gpio.press(17, atNanoseconds: t) : gpio.release(17, atNanoseconds: t)
        }
        gpio.advance(toNanoseconds: 137_999_999)
        #expect(gpio.pendingEventCount(17) == 0)                  // still within 30 ms of the last bounce
        gpio.advance(toNanoseconds: 138_000_000)
        var batch = GPIOEventBatch()
        #expect(try gpio.readEvents(button, into: &batch) == 1)
        #expect(batch[0] == GPIOEdgeEvent(timestampNanoseconds: 138_000_000, lineOffset: 17, edge: .rising))
        // A 5 ms glitch (release and press again) never reaches the reader.
        gpio.release(17, atNanoseconds: 500_000_000)
        gpio.press(17, atNanoseconds: 505_000_000)
        gpio.advance(toNanoseconds: 600_000_000)
        #expect(gpio.pendingEventCount(17) == 0)
        // The edge that ends a period arrives once the clock moves past it, also through drive().
        gpio.release(17, atNanoseconds: 700_000_000)
        gpio.drive(3, high: true, atNanoseconds: 731_000_000)
        batch.removeAll()
        #expect(try gpio.readEvents(button, into: &batch) == 1 && batch[0].edge == .falling
            && batch[0].timestampNanoseconds == 730_000_000)
    }

    @Test func debounceStatusPerKernel() throws {
        let v1 = SimulatedGPIO(kernel: .v1)
        let asked = try v1.requestInput(GPIOInputConfiguration(offset: 17, debounceNanoseconds: 30_000_000))
        let plain = try v1.requestInput(GPIOInputConfiguration(offset: 18))
        let led = try v1.requestOutput(GPIOOutputConfiguration(offset: 22))
        #expect(v1.debounceStatus(asked) == .unavailable(reason: "the twin models GPIO uAPI v1, which has no kernel debounce"))
        #expect(v1.debounceStatus(plain) == .notRequested && v1.debounceStatus(led) == .notRequested)
        // v1 passes bounce straight through: every edge is queued at its own time.
        v1.press(17, atNanoseconds: 1)
        v1.release(17, atNanoseconds: 2)
        #expect(v1.pendingEventCount(17) == 2)
        let v2 = SimulatedGPIO(kernel: .v2)
        let undebounced = try v2.requestInput(GPIOInputConfiguration(offset: 18))
        #expect(v2.debounceStatus(undebounced) == .notRequested)
        v2.press(18, atNanoseconds: 1)
        #expect(v2.pendingEventCount(18) == 1)                    // no period: at once, as without debounce
        #expect(v1.libraryDescription == nil)
    }

    @Test func v2QueueDropsTheOldest() throws {
        let gpio = SimulatedGPIO(kernel: .v2)
        let button = try gpio.requestInput(GPIOInputConfiguration(offset: 5))
        for i in 0..<20 { gpio.drive(5, high: i % 2 == 1, atNanoseconds: Int64(i)) }
        #expect(gpio.pendingEventCount(5) == 16 && gpio.droppedEventCount == 4)
        var batch = GPIOEventBatch()
        #expect(try gpio.readEvents(button, into: &batch) == 16)
        #expect(batch[0].timestampNanoseconds == 4 && batch[15].timestampNanoseconds == 19)   // the newest kept
    }

    /// The kernel-debounce model allocates nothing per edge or clock step either.
    @Test func v2HotPathAllocatesNothing() throws {
        let gpio = SimulatedGPIO(kernel: .v2)
        let button = try gpio.requestInput(GPIOInputConfiguration(offset: 17, debounceNanoseconds: 1_000))
        var batch = GPIOEventBatch()
        func cycle(_ t: Int64) throws {
            gpio.press(17, atNanoseconds: t)
            gpio.release(17, atNanoseconds: t + 3_000)
            gpio.advance(toNanoseconds: t + 6_000)
            batch.removeAll()
            _ = try gpio.readEvents(button, into: &batch)
        }
        try cycle(0)
        var t: Int64 = 10_000
        let count = try allocationCount {
            for _ in 0..<3_000 { try cycle(t); t += 10_000 }
        }
        #expect(count == 0 && batch.count == 2)
    }
}
