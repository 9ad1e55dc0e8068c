import CGPIOD
import Glibc

// Every libgpiod call of puckd lives in this file. libgpiod v1 (Debian 12 / Raspberry Pi OS bookworm:
// 1.6.3) and v2 (trixie) are incompatible APIs; porting to v2 (or to the raw uAPI v2 ioctls) means
// rewriting this file only.

/// The kernel GPIO chip through libgpiod v1: inputs with both-edge events and bias, outputs with an
/// active level, consumer name `puckd`.
///
/// Edge timestamps are the kernel's (CLOCK_MONOTONIC, nanoseconds). The kernel queues at most 16 events
/// per input line and drops newer ones while the queue is full, so the loop must drain every readable
/// descriptor on each wake-up. `close()` (also run by `deinit`) drives outputs inactive before releasing
/// them, because the Raspberry Pi kernel keeps an output's level after release.
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
    }

    private var chip: OpaquePointer?
    private var lines: [Line] = []
    private let scratch: UnsafeMutablePointer<gpiod_line_event>
    public let chipDescription: String
    public let lineCount: Int

    private init(chip: OpaquePointer, description: String) {
        self.chip = chip
        self.chipDescription = description
        self.lineCount = Int(gpiod_chip_num_lines(chip))
        lines.reserveCapacity(Self.lineCapacity)
        scratch = .allocate(capacity: GPIOEventBatch.capacity)
    }

    deinit {
        close()
        scratch.deallocate()
    }

    // MARK: opening

    /// Opens the chip `selector` names. Label and automatic selection scan `deviceDirectory` for
    /// `gpiochip*` devices; names and paths are opened directly.
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
        return LibgpiodGPIOController(chip: chip, description: describe(chip, path: path))
    }

    /// Every `gpiochip*` device in `deviceDirectory` (symlinks skipped: they alias a listed chip), sorted by
    /// number, with its name, label and line count, or the errno that kept it from opening.
    public static func scanChips(deviceDirectory: String = "/dev") -> [GPIOChipInfo] {
        guard let directory = opendir(deviceDirectory) else { return [] }
        defer { closedir(directory) }
        var found: [(number: Int, info: GPIOChipInfo)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard name.hasPrefix("gpiochip"), let number = Int(name.dropFirst(8)) else { continue }
            let path = deviceDirectory + "/" + name
            var status = stat()
            if lstat(path, &status) != 0 || (status.st_mode & S_IFMT) == S_IFLNK { continue }
            guard let chip = gpiod_chip_open(path) else {
                let code = errno
                found.append((number, GPIOChipInfo(path: path, name: name, label: "", lineCount: 0, openErrno: code)))
                continue
            }
            found.append((number, GPIOChipInfo(path: path, name: String(cString: gpiod_chip_name(chip)),
                                               label: String(cString: gpiod_chip_label(chip)),
                                               lineCount: Int(gpiod_chip_num_lines(chip)))))
            gpiod_chip_close(chip)
        }
        return found.sorted { $0.number < $1.number }.map(\.info)
    }

    /// The libgpiod version string (e.g. `1.6.3`).
    public static var libraryVersion: String { String(cString: gpiod_version_string()) }

    private static func openChip(_ path: String) throws(GPIOError) -> OpaquePointer {
        var status = stat()
        if stat(path, &status) != 0 { throw GPIOChipSelector.openError(path: path, errno: errno) }
        if (status.st_mode & S_IFMT) != S_IFCHR { throw .notAChip(path: path) }
        guard let chip = gpiod_chip_open(path) else {
            let code = errno
            // The path exists, so ENOENT here comes from libgpiod's sysfs check: not a GPIO chip.
            if code == ENOENT || code == ENOTTY || code == ENODEV { throw .notAChip(path: path) }
            throw GPIOChipSelector.openError(path: path, errno: code)
        }
        return chip
    }

    private static func describe(_ chip: OpaquePointer, path: String) -> String {
        "\(path) (\(String(cString: gpiod_chip_name(chip))), label \(String(cString: gpiod_chip_label(chip))), "
            + "\(gpiod_chip_num_lines(chip)) lines)"
    }

    // MARK: requests (start-up)

    public func requestInput(_ configuration: GPIOInputConfiguration) throws(GPIOError) -> GPIOLineHandle {
        let line = try prepareLine(configuration.offset)
        var flags: Int32 = configuration.activeLow ? Int32(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) : 0
        switch configuration.bias {
        case .asIs: break
        case .disabled: flags |= Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE)
        case .pullUp: flags |= Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP)
        case .pullDown: flags |= Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN)
        }
        let rc = Self.consumerName.withUTF8Buffer { consumer in
            consumer.withMemoryRebound(to: CChar.self) {
                gpiod_line_request_both_edges_events_flags(line, $0.baseAddress, flags)
            }
        }
        if rc != 0 { throw requestError(line, offset: configuration.offset, bias: configuration.bias, errno: errno) }
        let fd = gpiod_line_event_get_fd(line)
        // Non-blocking, so a read with nothing queued returns EAGAIN instead of stalling the loop.
        if fd < 0 || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0 {
            let code = errno
            gpiod_line_release(line)
            throw .requestFailed(offset: configuration.offset, errno: code)
        }
        return append(Line(handle: line, offset: configuration.offset, isOutput: false, eventDescriptor: fd))
    }

    public func requestOutput(_ configuration: GPIOOutputConfiguration) throws(GPIOError) -> GPIOLineHandle {
        let line = try prepareLine(configuration.offset)
        let flags: Int32 = configuration.activeLow ? Int32(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) : 0
        let rc = Self.consumerName.withUTF8Buffer { consumer in
            consumer.withMemoryRebound(to: CChar.self) {
                gpiod_line_request_output_flags(line, $0.baseAddress, flags, configuration.initiallyActive ? 1 : 0)
            }
        }
        if rc != 0 { throw requestError(line, offset: configuration.offset, bias: .asIs, errno: errno) }
        return append(Line(handle: line, offset: configuration.offset, isOutput: true, eventDescriptor: -1))
    }

    private func prepareLine(_ offset: UInt32) throws(GPIOError) -> OpaquePointer {
        guard let chip else { throw .closed }
        if lines.contains(where: { $0.offset == offset }) { throw .lineAlreadyRequested(offset: offset) }
        if lines.count >= Self.lineCapacity { throw .tooManyLines(capacity: Self.lineCapacity) }
        if Int(offset) >= lineCount {
            throw .lineOutOfRange(offset: offset, lineCount: lineCount, chip: chipDescription)
        }
        guard let line = gpiod_chip_get_line(chip, offset) else {
            throw .requestFailed(offset: offset, errno: errno)
        }
        return line
    }

    private func requestError(_ line: OpaquePointer, offset: UInt32, bias: GPIOBias, errno code: Int32) -> GPIOError {
        switch code {
        case EBUSY:
            var consumer: String?
            if gpiod_line_update(line) == 0, let name = gpiod_line_consumer(line) {
                let text = String(cString: name)
                consumer = text.isEmpty ? nil : text
            }
            return .lineBusy(offset: offset, consumer: consumer, chip: chipDescription)
        case EINVAL, EOPNOTSUPP:
            return .configurationRejected(offset: offset, bias: bias, errno: code)
        case ENOTTY:
            return .characterDeviceV1Missing(chip: chipDescription)
        case EACCES, EPERM:
            return .permissionDenied(path: chipDescription)
        default:
            return .requestFailed(offset: offset, errno: code)
        }
    }

    private func append(_ line: Line) -> GPIOLineHandle {
        lines.append(line)
        return GPIOLineHandle(index: lines.count - 1, offset: line.offset)
    }

    // MARK: hot path

    public func setOutput(_ handle: GPIOLineHandle, active: Bool, nowNanoseconds: Int64) throws(GPIOError) {
        let line = try entry(handle)
        if !line.isOutput { throw .wrongDirection(offset: line.offset, expectedOutput: true) }
        if gpiod_line_set_value(line.handle, active ? 1 : 0) != 0 {
            throw .ioFailed(operation: "setting the value", offset: line.offset, errno: errno)
        }
    }

    public func eventDescriptor(_ handle: GPIOLineHandle) -> Int32 {
        guard chip != nil, handle.index >= 0, handle.index < lines.count else { return -1 }
        return lines[handle.index].eventDescriptor
    }

    public func readEvents(_ handle: GPIOLineHandle, into batch: inout GPIOEventBatch) throws(GPIOError) -> Int {
        let line = try entry(handle)
        if line.isOutput { throw .wrongDirection(offset: line.offset, expectedOutput: false) }
        let room = GPIOEventBatch.capacity - batch.count
        if room <= 0 { return 0 }
        let n = gpiod_line_event_read_multiple(line.handle, scratch, UInt32(room))
        if n < 0 {
            let code = errno
            if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { return 0 }
            throw .ioFailed(operation: "reading edge events", offset: line.offset, errno: code)
        }
        var i = 0
        while i < Int(n) {
            let event = scratch[i]
            let nanoseconds = Int64(event.ts.tv_sec) &* 1_000_000_000 &+ Int64(event.ts.tv_nsec)
            let edge: GPIOEdge = event.event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE) ? .rising : .falling
            batch.append(GPIOEdgeEvent(timestampNanoseconds: nanoseconds, lineOffset: line.offset, edge: edge))
            i += 1
        }
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
            if lines[i].isOutput { _ = gpiod_line_set_value(lines[i].handle, 0) }
            gpiod_line_release(lines[i].handle)
            i += 1
        }
        lines.removeAll(keepingCapacity: true)
        gpiod_chip_close(chip)
        self.chip = nil
    }
}
