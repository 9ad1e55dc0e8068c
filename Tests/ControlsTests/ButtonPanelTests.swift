import Glibc
import Hardware
@testable import Simulation
import Testing
@testable import Controls

/// Buttons end to end against the GPIO twin: scripted presses with bounce on the wire, the panel
/// requests the lines, drains the event descriptors and the action map turns presses into actions.
/// The twin behaves like GPIO uAPI v1 (puckd debounces) or v2 (the kernel debounces), as the two
/// libgpiod builds do.
@Suite struct ButtonPanelTests {
    /// Runs the loop's button part over [0, end] with a 60 Hz tick; `script` drives the twin before each
    /// tick with what happened since the previous one (the twin's clock then moves to the tick, as the
    /// kernel's debounce timers run by themselves). Returns the presses in order.
    static func run(_ gpio: SimulatedGPIO, _ panel: inout ButtonPanel, until end: Int64,
                    script: (_ from: Int64, _ to: Int64) -> Void) throws -> [ButtonPress] {
        var presses: [ButtonPress] = []
        var batch = ButtonPressBatch()
        var previous: Int64 = -1
        var now: Int64 = 0
        while now <= end {
            script(previous, now)
            gpio.advance(toNanoseconds: now)
            batch.removeAll()
            try panel.service(gpio, nowNanoseconds: now, into: &batch)
            for i in 0..<batch.count { presses.append(batch[i]) }
            previous = now
            now += 16_666_667
        }
        return presses
    }

    /// Presses with 5 bounce edges inside 10 ms, as a real tact switch does.
    static func bouncyPress(_ gpio: SimulatedGPIO, _ offset: UInt32, from: Int64, to: Int64,
                            window: (Int64, Int64)) {
        func at(_ t: Int64, _ body: () -> Void) { if t > window.0 && t <= window.1 { body() } }
        for k in 0..<5 {
            let t = from + Int64(k) * ms(2)
            at(t) { k % 2 == 0 ? gpio.press(offset, atNanoseconds: t) : gpio.release(offset, atNanoseconds: t) }
        }
        for k in 0..<5 {
            let t = to + Int64(k) * ms(2)
            at(t) { k % 2 == 0 ? gpio.release(offset, atNanoseconds: t) : gpio.press(offset, atNanoseconds: t) }
        }
    }

    /// The same bouncy presses on both uAPIs: v1 edges are back-dated to the last bounce by puckd's
    /// debouncer; v2 edges arrive already debounced, stamped when the kernel accepted them (30 ms after
    /// the last bounce), and puckd rejects nothing itself.
    @Test(arguments: [SimulatedGPIO.KernelAPI.v1, .v2])
    func activeLowButtonShortAndLongPress(kernel: SimulatedGPIO.KernelAPI) throws {
        let gpio = SimulatedGPIO(kernel: kernel)
        var panel = try ButtonPanel(primary: ButtonLine(offset: 17), controller: gpio)
        #expect(gpio.isPhysicallyHigh(17))                        // pull-up: idle high
        let presses = try Self.run(gpio, &panel, until: ms(4000)) { from, to in
            Self.bouncyPress(gpio, 17, from: ms(100), to: ms(350), window: (from, to))
            Self.bouncyPress(gpio, 17, from: ms(1000), to: ms(2600), window: (from, to))
        }
        let delay = kernel == .v2 ? ms(30) : 0
        #expect(presses == [
            ButtonPress(button: .primary, kind: .short, timeNanoseconds: ms(358) + delay, pressedAtNanoseconds: ms(108) + delay),
            ButtonPress(button: .primary, kind: .long, timeNanoseconds: ms(2008) + delay, pressedAtNanoseconds: ms(1008) + delay),
        ])
        let map = ButtonActionMap()
        #expect(presses.map(map.action(for:)) == [.nextTrackingMode, .toggleOverview])
        #expect(panel.primary.edgeCount == (kernel == .v2 ? 4 : 20))
        #expect(panel.primary.rejectedChangeCount == (kernel == .v2 ? 0 : 8))
        #expect(panel.primary.timing.debounceNanoseconds == (kernel == .v2 ? 0 : ms(30)))
        #expect(panel.primaryDebounce == (kernel == .v2 ? .kernel(periodNanoseconds: ms(30))
            : .unavailable(reason: "the twin models GPIO uAPI v1, which has no kernel debounce")))
        #expect(panel.debounceDescription == (kernel == .v2 ? "kernel debounce 30 ms"
            : "debounce 30 ms in puckd: the twin models GPIO uAPI v1, which has no kernel debounce"))
    }

    @Test func withoutDebounceNothingIsAskedOfTheKernel() throws {
        let gpio = SimulatedGPIO(kernel: .v2)
        let panel = try ButtonPanel(primary: ButtonLine(offset: 17),
                                    timing: ButtonTiming(debounceNanoseconds: 0, longPressNanoseconds: ms(1000)),
                                    controller: gpio)
        #expect(panel.primaryDebounce == .notRequested && panel.debounceDescription == "no debounce")
    }

    @Test(arguments: [SimulatedGPIO.KernelAPI.v1, .v2])
    func activeHighSecondButtonWithPullDown(kernel: SimulatedGPIO.KernelAPI) throws {
        let gpio = SimulatedGPIO(kernel: kernel)
        var panel = try ButtonPanel(primary: ButtonLine(offset: 17),
                                    secondary: ButtonLine(offset: 27, activeLow: false, bias: .pullDown),
                                    controller: gpio)
        #expect(!gpio.isPhysicallyHigh(27))
        let presses = try Self.run(gpio, &panel, until: ms(3000)) { from, to in
            Self.bouncyPress(gpio, 27, from: ms(200), to: ms(1500), window: (from, to))   // long on #2
            Self.bouncyPress(gpio, 17, from: ms(500), to: ms(700), window: (from, to))    // short on #1 meanwhile
        }
        #expect(presses.map(\.button) == [.primary, .secondary])
        #expect(presses.map(\.kind) == [.short, .long])
        #expect(presses.map(ButtonActionMap().action(for:)) == [.nextTrackingMode, .startMagnetometerCalibration])
    }

    /// The wrong polarity in the profile turns press and release around: pressing an active-low button
    /// configured as active-high reports the *release* as the press start. The test pins that the
    /// configured polarity reaches the line request.
    @Test func polarityReachesTheLineRequest() throws {
        let gpio = SimulatedGPIO()
        var panel = try ButtonPanel(primary: ButtonLine(offset: 5, activeLow: false, bias: .pullUp), controller: gpio)
        // Idle high = active for an active-high line: the button is "held" until the wire goes low.
        gpio.drive(5, high: false, atNanoseconds: ms(100))       // user presses (to ground)
        gpio.drive(5, high: nil, atNanoseconds: ms(300))         // user releases: pull-up → high = "press"
        var batch = ButtonPressBatch()
        try panel.service(gpio, nowNanoseconds: ms(2000), into: &batch)
        #expect(batch.count == 1 && batch[0].kind == .long && batch[0].pressedAtNanoseconds == ms(300))
    }

    @Test func descriptorsPollReadableWhileEventsWait() throws {
        let gpio = SimulatedGPIO()
        var panel = try ButtonPanel(primary: ButtonLine(offset: 17), secondary: ButtonLine(offset: 18), controller: gpio)
        var fds = [pollfd(fd: panel.descriptor(of: .primary, on: gpio)?.rawValue ?? -1, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: panel.descriptor(of: .secondary, on: gpio)?.rawValue ?? -1, events: Int16(POLLIN), revents: 0)]
        #expect(poll(&fds, 2, 0) == 0)
        gpio.press(18, atNanoseconds: ms(1))
        #expect(poll(&fds, 2, 0) == 1 && fds[1].revents != 0 && fds[0].revents == 0)
        var batch = ButtonPressBatch()
        try panel.drain(.secondary, from: gpio, into: &batch)
        #expect(poll(&fds, 2, 0) == 0)
        #expect(panel.secondary?.edgeCount == 1 && panel.nextDeadlineNanoseconds == ms(31))
    }

    @Test func aFullKernelQueueIsDrainedInOneCall() throws {
        let gpio = SimulatedGPIO()
        var panel = try ButtonPanel(primary: ButtonLine(offset: 17), controller: gpio)
        for k in 0..<16 { gpio.drive(17, high: k % 2 == 1, atNanoseconds: ms(Double(k))) }   // 8 glitches
        var batch = ButtonPressBatch()
        try panel.drain(.primary, from: gpio, into: &batch)
        #expect(panel.primary.edgeCount == 16 && gpio.pendingEventCount(17) == 0)
        panel.advance(toNanoseconds: ms(100), into: &batch)
        #expect(batch.count == 0)                                 // all shorter than 30 ms
    }

    @Test func busyLineIsReported() {
        let gpio = SimulatedGPIO()
        gpio.occupy(4, consumer: "pps-gpio")
        #expect(throws: GPIOError.lineBusy(offset: 4, consumer: "pps-gpio", chip: gpio.chipDescription)) {
            _ = try ButtonPanel(primary: ButtonLine(offset: 4), controller: gpio)
        }
    }
}
