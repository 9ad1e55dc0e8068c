import Controls
import SystemCalls
import Hardware
import Puckd

/// `puckd gpio …`: GPIO diagnostics on the real chip (libgpiod) for wiring a board: list the chips,
/// watch buttons (raw edges and debounced presses), drive LEDs, read the kernel PPS device.
/// Not part of the device loop: it allocates freely and prints with String.
enum GPIOCommand {
    static let usage: StaticString = """
          puckd gpio chips                    list GPIO chips: path, name, label, lines
          puckd gpio watch [--chip C] [--bias B] [--active-high] [--debounce MS] [--long MS]
                           [--count N] [--seconds S] OFFSET...
                                              print edges and debounced presses of input lines
                                              (C: auto, a label, gpiochipN or a path; B: pull-up,
                                              pull-down, disabled, as-is; OFFSET: BCM number)
          puckd gpio set [--chip C] [--active-low] [--seconds S] OFFSET=0|1...
                                              drive output lines (LED check), then turn them off
          puckd gpio pps [--count N] [DEVICE]
                                              print pulses of the kernel PPS device (/dev/pps0)
        """

    static func run(_ arguments: ArraySlice<String>) -> Int32 {
        var rest = arguments
        guard let sub = rest.popFirst() else { return usageError("missing subcommand") }
        do {
            switch sub {
            case "chips": return try chips(rest)
            case "watch": return try watch(rest)
            case "set": return try set(rest)
            case "pps": return try pps(rest)
            case "-h", "--help", "help":
                StandardStreams.out("\(usage)\n")
                return ExitStatus.ok
            default: return usageError("unknown subcommand '\(sub)'")
            }
        } catch let error as GPIOError {
            StandardStreams.err("puckd gpio: \(error)\n")
            return exitStatus(for: error)
        } catch let error as PPSDeviceError {
            StandardStreams.err("puckd gpio: \(error)\n")
            switch error {
            case .missing: return ExitStatus.unavailable
            case .permissionDenied: return ExitStatus.permission
            case .notAPPSDevice, .cannotCaptureAssert: return ExitStatus.config
            case .failed: return ExitStatus.ioError
            }
        } catch let error as UsageError {
            return usageError(error.message)
        } catch {
            StandardStreams.err("puckd gpio: \(error)\n")
            return ExitStatus.failure
        }
    }

    /// The sysexits status for a GPIO error.
    static func exitStatus(for error: GPIOError) -> Int32 {
        switch error {
        case .noChips, .chipNotFound, .chipMissing, .lineBusy, .characterDeviceMissing: return ExitStatus.unavailable
        case .permissionDenied: return ExitStatus.permission
        case .notAChip, .lineOutOfRange, .lineAlreadyRequested, .tooManyLines, .configurationRejected,
             .wrongDirection: return ExitStatus.config
        case .openFailed, .requestFailed, .ioFailed, .closed: return ExitStatus.ioError
        }
    }

    // MARK: chips

    private static func chips(_ arguments: ArraySlice<String>) throws -> Int32 {
        var options = Options(arguments)
        let directory = try options.value("--dev") ?? "/dev"
        try options.noPositionals()
        let found = LibgpiodGPIOController.scanChips(deviceDirectory: directory)
        if found.isEmpty { throw GPIOError.noChips(directory: directory) }
        StandardStreams.out(chipListing(found, deviceDirectory: directory))
        return ExitStatus.ok
    }

    /// The `gpio chips` listing: one line per chip, then which chip `--chip auto` picks.
    static func chipListing(_ chips: [GPIOChipInfo], deviceDirectory: String = "/dev") -> String {
        var text = LibgpiodGPIOController.libraryDescription + "\n"
        for chip in chips { text += "  \(chip.summary)\n" }
        switch GPIOChipSelector.automatic.select(from: chips, deviceDirectory: deviceDirectory) {
        case .success(let chip): text += "--chip auto picks \(chip.path) (label \(chip.label))\n"
        case .failure: text += "--chip auto finds no Raspberry Pi header chip here: pass --chip LABEL or PATH\n"
        }
        return text
    }

    // MARK: watch

    private static func watch(_ arguments: ArraySlice<String>) throws -> Int32 {
        var options = Options(arguments)
        let selector = GPIOChipSelector(parsing: try options.value("--chip") ?? "auto")
        let biasName = try options.value("--bias") ?? "pull-up"
        guard let bias = GPIOBias(name: biasName) else { throw UsageError("unknown bias '\(biasName)'") }
        let activeLow = !options.flag("--active-high")
        let debounce = try options.integer("--debounce") ?? 30
        let long = try options.integer("--long") ?? 1000
        let count = try options.integer("--count")
        let seconds = try options.integer("--seconds")
        let offsets = try options.positionals().map { text -> UInt32 in
            guard let offset = UInt32(text) else { throw UsageError("'\(text)' is not a line offset") }
            return offset
        }
        if offsets.isEmpty { throw UsageError("give at least one line OFFSET") }
        let timing: ButtonTiming
        do {
            timing = try ButtonTiming.validated(debounceNanoseconds: Int64(debounce) * 1_000_000,
                                                longPressNanoseconds: Int64(long) * 1_000_000)
        } catch { throw UsageError(error.description) }

        let controller = try LibgpiodGPIOController.open(selector)
        defer { controller.close() }
        var lines: [GPIOLineHandle] = []
        var debouncers: [ButtonDebouncer] = []
        var status = GPIODebounceStatus.notRequested
        for offset in offsets {
            let line = try controller.requestInput(GPIOInputConfiguration(offset: offset, bias: bias, activeLow: activeLow,
                                                                          debounceNanoseconds: timing.debounceNanoseconds))
            lines.append(line)
            status = controller.debounceStatus(line)
            debouncers.append(ButtonDebouncer(timing: ButtonPanel.softwareTiming(timing, status)))
        }
        let debounceText: String
        switch status {
        case .kernel: debounceText = "kernel debounce \(debounce) ms: edges below are the kernel's debounced ones"
        case .unavailable(let reason): debounceText = "debounce \(debounce) ms in puckd: \(reason)"
        case .notRequested: debounceText = "no debounce"
        }
        StandardStreams.out("watching \(controller.chipDescription) lines \(offsets.map(String.init).joined(separator: " ")) "
            + "(\(bias.name), active-\(activeLow ? "low" : "high"), \(debounceText)); Ctrl-C stops\n")

        let signals = try? FileDescriptor.terminationSignals()
        defer { try? signals?.close() }
        var fds = [PollEntry(signals, events: .readable)]
        for line in lines { fds.append(PollEntry(controller.eventDescriptor(line), events: .readable)) }
        let end = seconds.map { monotonicNanoseconds() + Int64($0) * 1_000_000_000 }
        var edges = 0
        var batch = GPIOEventBatch()
        while count.map({ edges < $0 }) ?? true {
            var deadline = end
            for d in debouncers { if let due = d.nextDeadlineNanoseconds { deadline = min(deadline ?? due, due) } }
            let timeout = deadline.map { Int32(clamping: max(0, ($0 - monotonicNanoseconds()) / 1_000_000 + 1)) } ?? -1
            do throws(Errno) {
                _ = try fds.withUnsafeMutableBufferPointer { entries throws(Errno) in
                    try FileDescriptor.poll(entries, timeoutMilliseconds: timeout)
                }
            } catch {
                throw GPIOError.ioFailed(operation: "poll", offset: offsets[0], error: error)
            }
            if !fds[0].returnedEvents.isEmpty { break }
            for (i, line) in lines.enumerated() where !fds[i + 1].returnedEvents.isEmpty {
                repeat {
                    batch.removeAll()
                    _ = try controller.readEvents(line, into: &batch)
                    for k in 0..<batch.count {
                        let event = batch[k]
                        edges += 1
                        StandardStreams.out("\(seconds9(event.timestampNanoseconds))  line \(event.lineOffset)  "
                            + "\(event.edge == .rising ? "rising (active)" : "falling (inactive)")\n")
                        if let press = debouncers[i].handleEdge(active: event.edge.isActiveAfter,
                                                                timestampNanoseconds: event.timestampNanoseconds) {
                            printPress(press, line: offsets[i])
                        }
                    }
                } while batch.isFull
            }
            let now = monotonicNanoseconds()
            for i in debouncers.indices {
                if let press = debouncers[i].advance(toNanoseconds: now) { printPress(press, line: offsets[i]) }
            }
            if let end, now >= end { break }
        }
        return ExitStatus.ok
    }

    private static func printPress(_ press: ButtonPress, line: UInt32) {
        let held = press.kind == .short ? " (held \(seconds9(press.timeNanoseconds - press.pressedAtNanoseconds)) s)" : ""
        StandardStreams.out("\(seconds9(press.timeNanoseconds))  line \(line)  \(press.kind == .short ? "short" : "long") press\(held)\n")
    }

    // MARK: set

    private static func set(_ arguments: ArraySlice<String>) throws -> Int32 {
        var options = Options(arguments)
        let selector = GPIOChipSelector(parsing: try options.value("--chip") ?? "auto")
        let activeLow = options.flag("--active-low")
        let seconds = try options.integer("--seconds")
        let settings = try options.positionals().map { text -> (UInt32, Bool) in
            let parts = text.split(separator: "=")
            guard parts.count == 2, let offset = UInt32(parts[0]), parts[1] == "0" || parts[1] == "1" else {
                throw UsageError("'\(text)' is not OFFSET=0 or OFFSET=1")
            }
            return (offset, parts[1] == "1")
        }
        if settings.isEmpty { throw UsageError("give at least one OFFSET=0|1") }
        let controller = try LibgpiodGPIOController.open(selector)
        defer { controller.close() }
        for (offset, active) in settings {
            _ = try controller.requestOutput(GPIOOutputConfiguration(offset: offset, activeLow: activeLow, initiallyActive: active))
        }
        StandardStreams.out("driving \(settings.map { "\($0.0)=\($0.1 ? 1 : 0)" }.joined(separator: " ")) on "
            + "\(controller.chipDescription) (active-\(activeLow ? "low" : "high"))"
            + (seconds.map { " for \($0) s" } ?? "; Ctrl-C turns them off") + "\n")
        let signals = try? FileDescriptor.terminationSignals()
        defer { try? signals?.close() }
        var fds = [PollEntry(signals, events: .readable)]
        let timeout = seconds.map { Int32(clamping: $0 * 1000) } ?? -1
        _ = try? fds.withUnsafeMutableBufferPointer { entries throws(Errno) in
            try FileDescriptor.poll(entries, timeoutMilliseconds: timeout)
        }
        StandardStreams.out("turning the lines off\n")
        return ExitStatus.ok
    }

    // MARK: pps

    private static func pps(_ arguments: ArraySlice<String>) throws -> Int32 {
        var options = Options(arguments)
        let count = try options.integer("--count")
        let positionals = try options.positionals()
        if positionals.count > 1 { throw UsageError("give at most one DEVICE") }
        let device = try PPSDevice(path: positionals.first ?? "/dev/pps0")
        StandardStreams.out("reading \(device.path) (capabilities 0x\(String(device.capabilities, radix: 16))); "
            + "times are CLOCK_REALTIME; Ctrl-C stops\n")
        let signals = try? FileDescriptor.terminationSignals()
        defer { try? signals?.close() }
        var last = try device.fetch()
        var pulses = 0
        var fds = [PollEntry(signals, events: .readable), PollEntry(device.descriptor, events: .readable)]
        while count.map({ pulses < $0 }) ?? true {
            // Kernels before 6.1 report the PPS device always readable: then poll the signal alone, 20 ms.
            do throws(Errno) {
                _ = try fds.withUnsafeMutableBufferPointer { entries throws(Errno) in
                    try FileDescriptor.poll(entries, timeoutMilliseconds: 1_100)
                }
            } catch {
                throw PPSDeviceError.failed(path: device.path, operation: "poll", error: error)
            }
            if !fds[0].returnedEvents.isEmpty { break }
            let reading = try device.fetch()
            if reading.assertSequence == last.assertSequence {
                if !fds[1].returnedEvents.isEmpty {
                    _ = try? fds.withUnsafeMutableBufferPointer { entries throws(Errno) in
                        try FileDescriptor.poll(UnsafeMutableBufferPointer(rebasing: entries[0..<1]), timeoutMilliseconds: 20)
                    }
                }
                continue
            }
            pulses += 1
            let interval = last.assertRealtimeNanoseconds == 0 ? ""
                : "  interval \(seconds9(reading.assertRealtimeNanoseconds - last.assertRealtimeNanoseconds)) s"
            StandardStreams.out("assert #\(reading.assertSequence) at \(seconds9(reading.assertRealtimeNanoseconds))\(interval)\n")
            last = reading
        }
        return ExitStatus.ok
    }

    // MARK: helpers

    private static func usageError(_ message: String) -> Int32 {
        StandardStreams.err("puckd gpio: \(message)\nusage:\n\(usage)\n")
        return ExitStatus.usage
    }

    static func monotonicNanoseconds() -> Int64 { Int64(SystemClock.monotonicNanoseconds()) }

    /// `12.345678901`: nanoseconds as seconds with nine decimals.
    static func seconds9(_ nanoseconds: Int64) -> String {
        let sign = nanoseconds < 0 ? "-" : ""
        let magnitude = nanoseconds.magnitude
        let fraction = String(magnitude % 1_000_000_000)
        return sign + String(magnitude / 1_000_000_000) + "." + String(repeating: "0", count: 9 - fraction.count) + fraction
    }

    struct UsageError: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// A tiny option parser: `--name value`, `--flag`, positionals; unknown options are errors.
    struct Options {
        private var items: [String]
        init(_ arguments: ArraySlice<String>) { items = Array(arguments) }

        mutating func value(_ name: String) throws -> String? {
            guard let i = items.firstIndex(of: name) else { return nil }
            guard i + 1 < items.count else { throw UsageError("\(name) needs a value") }
            let value = items[i + 1]
            items.removeSubrange(i...(i + 1))
            return value
        }

        mutating func integer(_ name: String) throws -> Int? {
            guard let text = try value(name) else { return nil }
            // ≤ 1e9: milliseconds and seconds become nanoseconds without overflow (bounded by this check).
            guard let number = Int(text), number >= 0, number <= 1_000_000_000 else {
                throw UsageError("\(name) needs a whole number 0…1000000000, not '\(text)'")
            }
            return number
        }

        mutating func flag(_ name: String) -> Bool {
            guard let i = items.firstIndex(of: name) else { return false }
            items.remove(at: i)
            return true
        }

        func positionals() throws -> [String] {
            if let unknown = items.first(where: { $0.hasPrefix("--") }) { throw UsageError("unknown option \(unknown)") }
            return items
        }

        func noPositionals() throws {
            if let extra = try positionals().first { throw UsageError("unexpected argument '\(extra)'") }
        }
    }
}
