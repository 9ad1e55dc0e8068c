import Configuration
import Console
import Controls
import Hardware
import SystemCalls

/// Buttons, LEDs and the mode cycle as a loop component: the debounced button panel (its two line
/// slots in the poll set), the LED outputs and their patterns, the cycle a press steps through, and
/// their counters. A GPIO failure drops that group (said once) and the device runs without it. It keeps
/// its own references to the device's GPIO controller and log output (classes the router shares).
struct ControlsLink: LoopComponent {
    /// Presses recognised by one service call (read them from `presses`).
    typealias Events = Int

    private let gpio: (any GPIOController)?
    private let output: DeviceOutput
    var buttons: ButtonPanel?
    var leds: LEDOutputs?
    let ledPatterns = LEDPatterns()
    var modeCycle: ButtonModeCycle<ModeCycleEntry>
    /// The presses of the last service (fixed capacity), for the router to act on.
    private(set) var presses = ButtonPressBatch()
    /// When the mode (or viewport) last changed: the mode LED restarts its blink group.
    var modeChangedAtNanoseconds: Int64
    /// The poll slots of the primary and secondary button lines.
    let slots: PollSlots
    private(set) var shortPresses: UInt64 = 0
    private(set) var longPresses: UInt64 = 0
    private(set) var ledWrites: UInt64 = 0
    private(set) var gpioErrors: UInt64 = 0

    /// Requests the button and LED lines on `gpio` (start-up; allocates). Problems go to `degradations`.
    init(_ c: GPIOSettings, gpio: (any GPIOController)?, output: DeviceOutput, slots: PollSlots, nowNanoseconds now: Int64,
         degradations: inout [String]) {
        self.slots = slots
        self.gpio = gpio
        self.output = output
        modeChangedAtNanoseconds = now
        modeCycle = (try? ButtonModeCycle(c.modeCycle)) ?? (try! ButtonModeCycle([ModeCycleEntry.mode(.none)]))
        guard let gpio else { return }
        if let offset = c.button {
            do throws(GPIOError) {
                let bias = c.buttonBias
                buttons = try ButtonPanel(
                    primary: ButtonLine(offset: UInt32(offset), activeLow: c.buttonActiveLow, bias: bias),
                    secondary: c.button2.map { ButtonLine(offset: UInt32($0), activeLow: c.buttonActiveLow, bias: bias) },
                    timing: c.timing, controller: gpio)
            } catch {
                degradations.append("no buttons: " + error.description)
            }
        }
        let lines = c.ledLines
        if lines.fix != nil || lines.mode != nil || lines.fault != nil || lines.heartbeat != nil || lines.modeRed != nil {
            do throws(GPIOError) {
                leds = try LEDOutputs(configuration: lines, controller: gpio)
            } catch {
                degradations.append("no LEDs: " + error.description)
            }
        }
    }

    /// The button lines' event descriptors.
    func fillPollSlots(_ poll: inout PollSet) {
        var primary: FileDescriptor?, secondary: FileDescriptor?
        if let gpio, let buttons {
            primary = buttons.descriptor(of: .primary, on: gpio)
            secondary = buttons.descriptor(of: .secondary, on: gpio)
        }
        poll.set(slots[0], descriptor: primary, events: .readable)
        poll.set(slots[1], descriptor: secondary, events: .readable)
    }

    /// The next debounce or long-press decision of a button (docs/power.md §2.1); nil when none is pending.
    var deadlineNanoseconds: Int64? { buttons?.nextDeadlineNanoseconds }

    /// Reads the ready button lines and the debounce decisions due at `now`; the presses recognised are
    /// in `presses` (counted here, acted on by the router). Returns how many.
    mutating func service(nowNanoseconds now: Int64, ready: PollReadiness) -> Int {
        presses.removeAll()
        guard let gpio, buttons != nil else { return 0 }
        do throws(GPIOError) {
            if ready.isReady(slots[0]) { try buttons?.drain(.primary, from: gpio, into: &presses) }
            if ready.isReady(slots[1]) { try buttons?.drain(.secondary, from: gpio, into: &presses) }
        } catch {
            gpioErrors &+= 1
            buttons = nil
            output.text("gpio: reading the buttons failed (" + error.description + "); running without buttons", priority: .error)
            return 0
        }
        buttons?.advance(toNanoseconds: now, into: &presses)
        var i = 0
        while i < presses.count {
            if presses[i].kind == .short { shortPresses &+= 1 } else { longPresses &+= 1 }
            i += 1
        }
        return presses.count
    }

    /// Shows `state` on the LEDs (each scheduled tick).
    mutating func showLEDs(_ state: LEDIndicatorState, nowNanoseconds now: Int64) {
        guard let gpio, leds != nil else { return }
        let frame = ledPatterns.frame(for: state, atNanoseconds: now)
        do throws(GPIOError) {
            let written = try leds?.show(frame, on: gpio, nowNanoseconds: now) ?? 0
            ledWrites &+= UInt64(written)
        } catch {
            gpioErrors &+= 1
            leds = nil
            output.text("gpio: writing the LEDs failed (" + error.description + "); running without LEDs", priority: .error)
        }
    }

    /// LEDs off at shutdown.
    mutating func allOff(nowNanoseconds now: Int64) {
        guard let gpio, leds != nil else { return }
        do throws(GPIOError) { try leds?.allOff(on: gpio, nowNanoseconds: now) } catch {
            output.text("gpio: turning the LEDs off failed: " + error.description, priority: .error)
        }
    }

    /// The button and LED rows of the `stats` table. `gpio.errors` comes after them from the router:
    /// it adds the PPS line's errors (`PPSInput.gpioErrors`) on the same controller.
    func appendStats(to t: inout ConsoleCounterTable) {
        let primary = buttons?.primary, secondary = buttons?.secondary
        t.append("gpio.buttonEdges", Int64((primary?.edgeCount ?? 0) + (secondary?.edgeCount ?? 0)))
        t.append("gpio.bouncesRejected", Int64((primary?.rejectedChangeCount ?? 0) + (secondary?.rejectedChangeCount ?? 0)))
        t.append("gpio.edgesDroppedByKernel", Int64(gpio?.droppedEventCount ?? 0))
        t.append("gpio.shortPresses", Int64(truncatingIfNeeded: shortPresses))
        t.append("gpio.longPresses", Int64(truncatingIfNeeded: longPresses))
        t.append("gpio.pressesDropped", Int64(presses.droppedCount))
        t.append("gpio.ledWrites", Int64(truncatingIfNeeded: ledWrites))
    }
}
