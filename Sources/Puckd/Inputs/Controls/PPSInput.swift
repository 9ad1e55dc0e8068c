import Console
import Configuration
import Controls
import Hardware
import SystemCalls

/// The PPS input as a loop component: a GPIO line's rising edges or the kernel PPS device, paired
/// with whole-second fixes (`PPSPairing`). Missing or unusable, it is reported once and the device
/// runs without it. It keeps its own reference to the device's GPIO controller (a class the router
/// shares with the controls), so the router services it through `LoopComponent` alone.
struct PPSInput: LoopComponent {
    /// Edges read by one service call.
    typealias Events = Int

    private let gpio: (any GPIOController)?
    private(set) var line: GPIOLineHandle?
    private(set) var device: PPSDevice?
    private var lastSequence: UInt32 = 0
    private(set) var pairing = PPSPairing()
    private var events = GPIOEventBatch()
    /// Why the configured PPS input could not be opened, or nil.
    private(set) var problem: String?
    /// Its descriptor slot in the poll set (the GPIO line's event descriptor).
    let slot: Int
    private(set) var edges: UInt64 = 0
    private(set) var gpioErrors: UInt64 = 0
    /// The `pps` source row's description, made at start-up.
    private(set) var descriptionText = ConsoleText()

    /// Opens `[pps] line` on `gpio`, or `[pps] device` (start-up; allocates).
    init(_ settings: PPSSettings, gpio: (any GPIOController)?, slot: Int) {
        self.slot = slot
        self.gpio = gpio
        defer {
            descriptionText = if let device { ConsoleText(string: device.path) }
                else if let line { ConsoleText(string: "line " + String(line.offset)) } else { ConsoleText("none") }
        }
        let usesDevice = !settings.device.isEmpty && settings.device != "none"
        if let gpio, let offset = settings.line, !usesDevice {
            do throws(GPIOError) {
                line = try gpio.requestInput(GPIOInputConfiguration(offset: UInt32(offset), bias: .asIs, activeLow: false))
            } catch {
                problem = "PPS line \(offset): " + error.description
            }
        }
        guard usesDevice else { return }
        do throws(PPSDeviceError) {
            let opened = try PPSDevice(path: settings.device)
            device = opened
            lastSequence = (try? opened.fetch())?.assertSequence ?? 0
        } catch {
            problem = "PPS device: " + error.description
        }
    }

    /// The line's event descriptor, for the poll set.
    func fillPollSlots(_ poll: inout PollSet) {
        var descriptor: FileDescriptor?
        if let gpio, let line { descriptor = gpio.eventDescriptor(line) }
        poll.set(slot, descriptor: descriptor, events: .readable)
    }

    /// Reads the line's edges when its slot is ready; returns how many it read. (The kernel PPS
    /// device is read at each whole-second fix instead: `publish`.)
    mutating func service(nowNanoseconds now: Int64, ready: PollReadiness) -> Int {
        guard ready.isReady(slot), let gpio, let line else { return 0 }
        var read = 0
        while true {
            events.removeAll()
            let n: Int
            do throws(GPIOError) { n = try gpio.readEvents(line, into: &events) } catch {
                gpioErrors &+= 1
                return read
            }
            var i = 0
            while i < events.count {
                edges &+= 1
                pairing.edge(events[i])
                i += 1
            }
            read += events.count
            if n < GPIOEventBatch.capacity { return read }
        }
    }

    /// A fix at a whole UTC second (`utc`, ns) arrived at `now`: pair it with the last pulse. Returns
    /// the pairing (for the router: the gpsd server's PPS/TOFF, chrony's pulse samples), its pulse
    /// time on the clock `pulseClockIsMonotonic` names.
    mutating func publish(wholeSecondUTCNanoseconds utc: Int64, nowNanoseconds now: Int64) -> PPSPairedPulse? {
        if line != nil {
            return pairing.fix(utcNanoseconds: utc, receivedAtNanoseconds: now)
        } else if let device {
            // The kernel stamps PPS on CLOCK_REALTIME: pair on that clock (read only for whole seconds).
            if let reading = try? device.fetch(), reading.assertSequence != lastSequence {
                lastSequence = reading.assertSequence
                edges &+= 1
                pairing.pulse(atNanoseconds: reading.assertRealtimeNanoseconds)
            }
            return pairing.fix(utcNanoseconds: utc, receivedAtNanoseconds: Int64(truncatingIfNeeded: SystemClock.realtimeNanoseconds()))
        }
        return nil
    }

    /// The clock of the pulse times: GPIO edge events are stamped on CLOCK_MONOTONIC (the loop's
    /// clock), the kernel PPS device on CLOCK_REALTIME.
    var pulseClockIsMonotonic: Bool { device == nil }

    /// The start-up report's line.
    var reportLine: String {
        if let device { return "pps: " + device.path + " (kernel PPS, paired with whole-second fixes)" }
        if let line { return "pps: line \(line.offset) (rising edges paired with whole-second fixes)" }
        return problem != nil ? "pps: not opened (see degraded)" : "pps: none"
    }

    /// The `pps` source row (its description made at start-up).
    func fillSnapshot(_ d: inout ConsoleDeviceState, nowNanoseconds now: Int64) {
        d.sources.set(ConsoleSource(name: "pps", description: descriptionText,
                                    state: problem != nil ? "unavailable" : (device != nil || line != nil ? "open" : "none"),
                                    isHealthy: problem == nil))
    }

    /// The PPS rows of the `stats` table.
    func appendStats(to t: inout ConsoleCounterTable) {
        t.append("pps.edges", Int64(truncatingIfNeeded: edges))
        t.append("pps.paired", Int64(pairing.statistics.pairedCount))
        t.append("pps.unpairedPulses", Int64(pairing.statistics.unpairedPulseCount))
        t.append("pps.missedPulses", Int64(pairing.statistics.missedPulseCount))
        t.append("pps.irregularPulses", Int64(pairing.statistics.irregularPulseCount))
    }
}
