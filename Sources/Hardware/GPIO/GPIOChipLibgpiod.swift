import CGPIOD
import SystemCalls

// Every libgpiod call of puckd is in the C shim Sources/CGPIOD (one API over libgpiod v1 and v2, the
// version chosen when puckd is built); this file is the only Swift user of that shim.

/// The kernel GPIO chip through libgpiod (v1 or v2, whichever the build found): inputs with both-edge
/// events, bias and (v2) kernel debounce, outputs with an active level, consumer name `puckd`.
///
/// Edge timestamps are the kernel's (CLOCK_MONOTONIC, nanoseconds). The kernel queues 16 events per
/// input line; while the queue is full uAPI v1 drops the newest events and uAPI v2 the oldest (counted
/// here from v2's sequence numbers), so the loop drains every readable descriptor on each wake-up.
/// Events are read into one buffer made at start-up (libgpiod v2's edge-event buffer). `close()` (also
/// run by `deinit`) drives outputs inactive before releasing them, because the Raspberry Pi kernel keeps
/// an output's level after release.
public final class LibgpiodGPIOController: GPIOController {
    /// Consumer name shown by `gpioinfo` for lines puckd holds.
    public static let consumerName: StaticString = "puckd"
    /// Lines one controller can hold (two buttons, an RGB LED and three single LEDs, PPS, spare).
    public static let lineCapacity = 16

    private struct Line {
        var handle: OpaquePointer
        var offset: UInt32
        var isOutput: Bool
        var eventDescriptor: Int32
        var debounce: GPIODebounceStatus
        var lastSequence: UInt64
    }

    private var chip: OpaquePointer?
    private var lines: [Line] = []
    private let buffer: OpaquePointer
    private let scratch: UnsafeMutablePointer<puckd_gpiod_edge>
    public let chipDescription: String
    public let lineCount: Int
    public var libraryDescription: String? { Self.libraryDescription }
    /// Edge events the kernel dropped because a line's queue was full (seen as gaps in uAPI v2's
    /// sequence numbers; uAPI v1 cannot tell, so 0 there).
    public private(set) var droppedEventCount = 0

    private init(chip: OpaquePointer, buffer: OpaquePointer, description: String) {
        self.chip = chip
        self.buffer = buffer
        self.chipDescription = description
        self.lineCount = Int(puckd_gpiod_chip_line_count(chip))
        lines.reserveCapacity(Self.lineCapacity)
        scratch = .allocate(capacity: GPIOEventBatch.capacity)
    }

    deinit {
        close()
        puckd_gpiod_event_buffer_free(buffer)
        scratch.deallocate()
    }

    // MARK: the library

    /// The libgpiod API this build was compiled against (1 or 2), which is also the GPIO uAPI it speaks.
    public static var apiVersion: Int { Int(puckd_gpiod_api_major()) }
    /// The libgpiod version string at run time (e.g. `1.6.3`, `2.2.1`).
    public static var libraryVersion: String { String(cString: puckd_gpiod_library_version()) }
    /// `libgpiod 2.2.1 (GPIO uAPI v2)`: for the start-up report and `puckd --version`.
    public static var libraryDescription: String { "libgpiod \(libraryVersion) (GPIO uAPI v\(apiVersion))" }

    // MARK: opening

    /// Opens the chip `selector` names. Label and automatic selection walk `deviceDirectory` for
    /// `gpiochip*` devices and compare labels (never a chip number: Pi 5 kernels number the header chip
    /// 0, 4 or 11–15); names and paths are opened directly.
    public static func open(_ selector: GPIOChipSelector,
                            deviceDirectory: String = "/dev") throws(GPIOError) -> LibgpiodGPIOController {
        let path: String
        if let direct = selector.directPath(deviceDirectory: deviceDirectory) {
            path = direct
        } else {
            switch selector.select(from: scanChips(deviceDirectory: deviceDirectory), deviceDirectory: deviceDirectory) {
            case .success(let chip): path = chip.path
            case .failure(let error): throw error
            }
        }
        let chip = try openChip(path)
        guard let buffer = puckd_gpiod_event_buffer_new(GPIOEventBatch.capacity) else {
            let code = Errno.current
            puckd_gpiod_chip_close(chip)
            throw .openFailed(path: path, error: code)
        }
        return LibgpiodGPIOController(chip: chip, buffer: buffer, description: describe(chip, path: path))
    }

    /// Every `gpiochip*` device in `deviceDirectory` (symlinks skipped: they alias a listed chip), sorted by
    /// number, with its name, label and line count, or the error that kept it from opening.
    public static func scanChips(deviceDirectory: String = "/dev") -> [GPIOChipInfo] {
        guard let names = try? FileSystem.entries(ofDirectory: deviceDirectory) else { return [] }
        var found: [(number: Int, info: GPIOChipInfo)] = []
        for name in names {
            guard name.hasPrefix("gpiochip"), let number = Int(name.dropFirst(8)) else { continue }
            let path = deviceDirectory + "/" + name
            guard let status = try? FileSystem.status(path, followingLinks: false), !status.isSymbolicLink else { continue }
            guard let chip = puckd_gpiod_chip_open(path) else {
                let code = Errno.current
                found.append((number, GPIOChipInfo(path: path, name: name, label: "", lineCount: 0, openError: code)))
                continue
            }
            found.append((number, GPIOChipInfo(path: path, name: String(cString: puckd_gpiod_chip_name(chip)),
                                               label: String(cString: puckd_gpiod_chip_label(chip)),
                                               lineCount: Int(puckd_gpiod_chip_line_count(chip)))))
            puckd_gpiod_chip_close(chip)
        }
        return found.sorted { $0.number < $1.number }.map(\.info)
    }

    private static func openChip(_ path: String) throws(GPIOError) -> OpaquePointer {
        let status: FileSystem.Status
        do throws(Errno) { status = try FileSystem.status(path) } catch {
            throw GPIOChipSelector.openError(path: path, error: error)
        }
        if !status.isCharacterDevice { throw .notAChip(path: path) }
        guard let chip = puckd_gpiod_chip_open(path) else {
            let code = Errno.current
            // The path exists, so ENOENT here comes from libgpiod's sysfs check: not a GPIO chip.
            if code == .noSuchFileOrDirectory || code == .notATerminal || code == .noSuchDevice { throw .notAChip(path: path) }
            throw GPIOChipSelector.openError(path: path, error: code)
        }
        return chip
    }

    private static func describe(_ chip: OpaquePointer, path: String) -> String {
        "\(path) (\(String(cString: puckd_gpiod_chip_name(chip))), label \(String(cString: puckd_gpiod_chip_label(chip))), "
            + "\(puckd_gpiod_chip_line_count(chip)) lines)"
    }

    // MARK: requests (start-up)

    public func requestInput(_ configuration: GPIOInputConfiguration) throws(GPIOError) -> GPIOLineHandle {
        let chip = try prepare(configuration.offset)
        let bias: Int32
        switch configuration.bias {
        case .asIs: bias = Int32(PUCKD_GPIOD_BIAS_AS_IS)
        case .disabled: bias = Int32(PUCKD_GPIOD_BIAS_DISABLED)
        case .pullUp: bias = Int32(PUCKD_GPIOD_BIAS_PULL_UP)
        case .pullDown: bias = Int32(PUCKD_GPIOD_BIAS_PULL_DOWN)
        }
        let wanted = configuration.debounceNanoseconds
        var config = puckd_gpiod_line_config(offset: configuration.offset, output: 0,
                                             active_low: configuration.activeLow ? 1 : 0, bias: bias, initial_value: 0,
                                             debounce_us: Self.apiVersion >= 2 ? Self.microseconds(wanted) : 0,
                                             rising_only: configuration.risingEdgesOnly ? 1 : 0)
        var debounce = GPIODebounceStatus.notRequested
        if wanted > 0 && Self.apiVersion < 2 {
            debounce = .unavailable(reason: "GPIO uAPI v1 (libgpiod \(Self.libraryVersion)) has no kernel debounce")
        }
        var line = request(&config)
        var code = Errno.current
        if line == nil && config.debounce_us != 0 && code != .busy && code != .permissionDenied && code != .notPermitted {
            // The kernel or the chip's driver refused the debounce: request without it, debounce in puckd.
            debounce = .unavailable(reason: "the kernel refused it on this line, \(code.description)")
            config.debounce_us = 0
            line = request(&config)
            code = Errno.current
        }
        guard let line else {
            throw requestError(chip, offset: configuration.offset, bias: configuration.bias, error: code)
        }
        if config.debounce_us != 0 {
            debounce = Self.debounceStatus(kernelMicroseconds: puckd_gpiod_line_debounce_us(chip, configuration.offset))
        }
        return append(Line(handle: line, offset: configuration.offset, isOutput: false,
                           eventDescriptor: puckd_gpiod_line_fd(line), debounce: debounce, lastSequence: 0))
    }

    public func requestOutput(_ configuration: GPIOOutputConfiguration) throws(GPIOError) -> GPIOLineHandle {
        let chip = try prepare(configuration.offset)
        var config = puckd_gpiod_line_config(offset: configuration.offset, output: 1,
                                             active_low: configuration.activeLow ? 1 : 0,
                                             bias: Int32(PUCKD_GPIOD_BIAS_AS_IS),
                                             initial_value: configuration.initiallyActive ? 1 : 0, debounce_us: 0, rising_only: 0)
        guard let line = request(&config) else {
            throw requestError(chip, offset: configuration.offset, bias: .asIs, error: Errno.current)
        }
        return append(Line(handle: line, offset: configuration.offset, isOutput: true, eventDescriptor: -1,
                           debounce: .notRequested, lastSequence: 0))
    }

    private func request(_ config: inout puckd_gpiod_line_config) -> OpaquePointer? {
        guard let chip else { return nil }
        return Self.consumerName.withUTF8Buffer { consumer in
            consumer.withMemoryRebound(to: CChar.self) { puckd_gpiod_request(chip, &config, $0.baseAddress) }
        }
    }

    private func prepare(_ offset: UInt32) throws(GPIOError) -> OpaquePointer {
        guard let chip else { throw .closed }
        if lines.contains(where: { $0.offset == offset }) { throw .lineAlreadyRequested(offset: offset) }
        if lines.count >= Self.lineCapacity { throw .tooManyLines(capacity: Self.lineCapacity) }
        if Int(offset) >= lineCount {
            throw .lineOutOfRange(offset: offset, lineCount: lineCount, chip: chipDescription)
        }
        return chip
    }

    /// Nanoseconds as whole microseconds, rounded up (a period is never shortened).
    static func microseconds(_ nanoseconds: Int64) -> UInt32 {
        nanoseconds <= 0 ? 0 : UInt32(clamping: (nanoseconds - 1) / 1000 + 1)
    }

    /// What the kernel reported for a line requested with debounce (microseconds, -1 when unreadable).
    public static func debounceStatus(kernelMicroseconds: Int64) -> GPIODebounceStatus {
        if kernelMicroseconds > 0 {
            let (nanoseconds, overflow) = kernelMicroseconds.multipliedReportingOverflow(by: 1000)
            return .kernel(periodNanoseconds: overflow ? .max : nanoseconds)
        }
        if kernelMicroseconds < 0 { return .unavailable(reason: "the kernel's debounce could not be read back") }
        return .unavailable(reason: "the kernel accepted but does not apply it on this line")
    }

    private func requestError(_ chip: OpaquePointer, offset: UInt32, bias: GPIOBias, error code: Errno) -> GPIOError {
        switch code {
        case .busy:
            var name = [CChar](repeating: 0, count: 64)
            var consumer: String?
            if puckd_gpiod_line_consumer(chip, offset, &name, name.count) == 0 {
                let text = name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                consumer = text.isEmpty ? nil : text
            }
            return .lineBusy(offset: offset, consumer: consumer, chip: chipDescription)
        case .invalidArgument, .notSupported:
            return .configurationRejected(offset: offset, bias: bias, error: code)
        case .notATerminal:
            return .characterDeviceMissing(chip: chipDescription, uapiVersion: Self.apiVersion)
        case .permissionDenied, .notPermitted:
            return .permissionDenied(path: chipDescription)
        default:
            return .requestFailed(offset: offset, error: code)
        }
    }

    private func append(_ line: Line) -> GPIOLineHandle {
        lines.append(line)
        return GPIOLineHandle(index: lines.count - 1, offset: line.offset)
    }

    public func debounceStatus(_ handle: GPIOLineHandle) -> GPIODebounceStatus {
        guard chip != nil, handle.index >= 0, handle.index < lines.count else { return .notRequested }
        return lines[handle.index].debounce
    }

    // MARK: hot path

    public func setOutput(_ handle: GPIOLineHandle, active: Bool, nowNanoseconds: Int64) throws(GPIOError) {
        let line = try entry(handle)
        if !line.isOutput { throw .wrongDirection(offset: line.offset, expectedOutput: true) }
        if puckd_gpiod_line_set(line.handle, active ? 1 : 0) != 0 {
            throw .ioFailed(operation: "setting the value", offset: line.offset, error: .current)
        }
    }

    public func eventDescriptor(_ handle: GPIOLineHandle) -> FileDescriptor? {
        guard chip != nil, handle.index >= 0, handle.index < lines.count else { return nil }
        return FileDescriptor(rawValue: lines[handle.index].eventDescriptor)
    }

    public func readEvents(_ handle: GPIOLineHandle, into batch: inout GPIOEventBatch) throws(GPIOError) -> Int {
        let line = try entry(handle)
        if line.isOutput { throw .wrongDirection(offset: line.offset, expectedOutput: false) }
        let room = GPIOEventBatch.capacity - batch.count
        if room <= 0 { return 0 }
        let n = puckd_gpiod_read_events(line.handle, buffer, scratch, room)
        if n < 0 { throw .ioFailed(operation: "reading edge events", offset: line.offset, error: .current) }
        var sequence = line.lastSequence
        var i = 0
        while i < Int(n) {
            let event = scratch[i]
            // uAPI v2 numbers each line's events from 1: a jump means the kernel dropped the ones between.
            if event.line_seqno != 0 && event.line_seqno > sequence &+ 1 {
                droppedEventCount &+= Int(truncatingIfNeeded: event.line_seqno &- sequence &- 1)
            }
            if event.line_seqno != 0 { sequence = event.line_seqno }
            batch.append(GPIOEdgeEvent(timestampNanoseconds: event.timestamp_ns, lineOffset: line.offset,
                                       edge: event.rising != 0 ? .rising : .falling))
            i += 1
        }
        lines[handle.index].lastSequence = sequence
        return Int(n)
    }

    private func entry(_ handle: GPIOLineHandle) throws(GPIOError) -> Line {
        if chip == nil { throw .closed }
        precondition(handle.index >= 0 && handle.index < lines.count && lines[handle.index].offset == handle.offset,
                     "GPIOLineHandle does not belong to this controller")
        return lines[handle.index]
    }

    // MARK: shutdown

    public func close() {
        guard let chip else { return }
        var i = 0
        while i < lines.count {
            if lines[i].isOutput { _ = puckd_gpiod_line_set(lines[i].handle, 0) }
            puckd_gpiod_release(lines[i].handle)
            i += 1
        }
        lines.removeAll(keepingCapacity: true)
        puckd_gpiod_chip_close(chip)
        self.chip = nil
    }
}
