import SystemCalls

/// NMEA from a serial device: libserialport when it knows the device (real UARTs, USB serial),
/// POSIX termios otherwise (pseudo-terminals, ttys without a sysfs entry), chosen on every open and
/// described by `backendChoice` for the log. Reopens with backoff after an unplug.
///
/// The baud rate stays whatever `setBaudRate(_:)` last set (auto-baud logic lives elsewhere and
/// only calls that), across reconnects too.
public struct SerialSource: ByteSource, BaudRateControl, ~Copyable {
    /// The device path as given (symlinks such as /dev/serial0 or /dev/gps0 allowed).
    public let path: String
    /// The line speed in bits per second used now and at the next open.
    public private(set) var baudRate: Int
    /// Which implementation the last open used and why (nil before the first successful open).
    public private(set) var backendChoice: SerialBackendChoice?
    private let forceTermios: Bool
    private var handle: Handle = .closed
    private var lifecycle: SourceLifecycle

    private enum Handle {
        case closed
        case libserialport(SerialPort)
        case termios(TermiosPort)
    }

    /// A source for `path` at `baudRate` (opened on the first `read`). `forceTermios` skips
    /// libserialport (for tests and for drivers libserialport mishandles).
    public init(path: String, baudRate: Int = SerialBaudRate.defaultRate,
                policy: ReconnectPolicy = ReconnectPolicy(), forceTermios: Bool = false) {
        self.path = path
        self.baudRate = baudRate
        self.forceTermios = forceTermios
        self.lifecycle = SourceLifecycle(policy: policy)
    }

    deinit { Self.close(handle) }

    public var status: SourceStatus { lifecycle.status }
    public var counters: SourceCounters { lifecycle.counters }

    public var pollRequest: PollRequest {
        switch handle {
        case .libserialport(let port): return .input(FileDescriptor(rawValue: port.fileDescriptor))
        case .termios(let port): return .input(FileDescriptor(rawValue: port.fileDescriptor))
        case .closed:
            let deadline = lifecycle.retryDeadlineNanoseconds
            return deadline == .max ? .never : .wake(atNanoseconds: deadline)
        }
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer, nowNanoseconds now: Int64) throws(SourceError) -> Int {
        if case .closed = handle {
            guard lifecycle.attemptDue(nowNanoseconds: now) else { return 0 }
            try open(nowNanoseconds: now)
        }
        let result: Result<Int, SourceError>
        switch handle {
        case .libserialport(let port): result = port.read(into: buffer)
        case .termios(let port): result = port.read(into: buffer)
        case .closed: return 0
        }
        switch result {
        case .success(let n):
            if n > 0 { lifecycle.delivered(n, nowNanoseconds: now) }
            return n
        case .failure(var error):
            closeHandle()
            error.subject = path  // the name the user gave (a /dev/gps0 link), not its target
            throw lifecycle.fail(error, nowNanoseconds: now)
        }
    }

    public var isWritable: Bool { true }

    /// Writes commands to the receiver (see `ByteSource.write`); EBADF while the port is closed.
    public mutating func write(_ bytes: UnsafeRawBufferPointer, nowNanoseconds: Int64) -> IOOutcome {
        switch handle {
        case .libserialport(let port): return port.write(bytes)
        case .termios(let port): return port.write(bytes)
        case .closed: return .failed(.badFileDescriptor)
        }
    }

    /// Sets the line speed now (when open; unread input is flushed) and for every later open. An
    /// unsupported rate throws `.unsupportedBaudRate` and leaves the current rate in place.
    public mutating func setBaudRate(_ rate: Int, nowNanoseconds: Int64) throws(SourceError) {
        try setBaudRate(rate)
    }

    /// `setBaudRate(_:nowNanoseconds:)` for callers without a clock at hand (the serial port needs none).
    public mutating func setBaudRate(_ rate: Int) throws(SourceError) {
        guard SerialBaudRate.isStandard(rate) else {
            throw SourceError(.unsupportedBaudRate, origin: .serial, subject: path, systemError: .invalidArgument, detail: Int64(rate))
        }
        switch handle {
        case .libserialport(let port): try port.setBaudRate(rate)
        case .termios(let port): try port.setBaudRate(rate)
        case .closed: break
        }
        baudRate = rate
    }

    private mutating func open(nowNanoseconds now: Int64) throws(SourceError) {
        do throws(SourceError) {
            let choice = try Self.openDevice(path: path, baudRate: baudRate, forceTermios: forceTermios)
            handle = choice.handle
            backendChoice = choice.choice
            lifecycle.opened(nowNanoseconds: now)
        } catch {
            throw lifecycle.fail(error, nowNanoseconds: now)
        }
    }

    private static func openDevice(path: String, baudRate: Int, forceTermios: Bool)
        throws(SourceError) -> (handle: Handle, choice: SerialBackendChoice) {
        // Errors that no backend can fix are reported as they are, before choosing one.
        let info: FileSystem.Status
        do throws(Errno) { info = try FileSystem.status(path) } catch {
            throw SourceError.classifying(error, origin: .serial, subject: path)
        }
        if !info.isCharacterDevice {
            let code: Errno = info.isDirectory ? .isADirectory : .notATerminal
            throw SourceError(info.isDirectory ? .isADirectory : .notATerminal, origin: .serial, subject: path,
                              systemError: code)
        }
        let device = resolvedPath(path)
        if forceTermios {
            let port = try TermiosPort.open(path: device, baudRate: baudRate)
            return (.termios(port), SerialBackendChoice(path: path, device: device, backend: .termios, reason: .requested))
        }
        switch SerialPort.open(path: device, baudRate: baudRate) {
        case .opened(let port):
            return (.libserialport(port), SerialBackendChoice(path: path, device: device, backend: .libserialport, reason: .supported))
        case .failed(let error):
            throw SourceError(error.kind, origin: .serial, subject: path, systemError: error.systemError, detail: error.detail)
        case .refused(let refusal):
            do throws(SourceError) {
                let port = try TermiosPort.open(path: device, baudRate: baudRate)
                return (.termios(port), SerialBackendChoice(path: path, device: device, backend: .termios, reason: .refused(refusal)))
            } catch {
                throw SourceError(error.kind, origin: .serial, subject: path, systemError: error.systemError, detail: error.detail)
            }
        }
    }

    /// The target of a symlink chain (/dev/serial0 → /dev/ttyAMA0): libserialport looks the
    /// device up in /sys/class/tty by its own name.
    private static func resolvedPath(_ path: String) -> String {
        FileSystem.resolvedPath(path) ?? path
    }

    private mutating func closeHandle() {
        Self.close(handle)
        handle = .closed
    }

    private static func close(_ handle: Handle) {
        switch handle {
        case .libserialport(let port): port.close()
        case .termios(let port): port.close()
        case .closed: break
        }
    }
}

/// Which serial implementation an open used, and why, so the start-up log can say it (libserialport, or
/// termios when libserialport refuses the device or termios is asked for).
public struct SerialBackendChoice: Equatable, Sendable {
    /// The two implementations.
    public enum Backend: Equatable, Sendable {
        case libserialport
        case termios
    }

    /// Why that implementation.
    public enum Reason: Equatable, Sendable {
        /// libserialport knows the device.
        case supported
        /// The caller asked for termios.
        case requested
        /// libserialport refused the device.
        case refused(SerialPort.Refusal)
    }

    /// The path as given.
    public var path: String
    /// The device after resolving symlinks.
    public var device: String
    /// The implementation used.
    public var backend: Backend
    /// Why.
    public var reason: Reason

    /// One line for the log, e.g. "serial /dev/pts/3: POSIX termios, because libserialport does
    /// not know the device (no /sys/class/tty/3: a pseudo-terminal?)".
    public var message: String {
        var text = "serial " + path
        if device != path { text += " (" + device + ")" }
        switch reason {
        case .supported:
            text += ": libserialport"
        case .requested:
            text += ": POSIX termios, as requested"
        case .refused(.unknownDevice(let code)):
            let name = device.split(separator: "/").last.map(String.init) ?? device
            text += ": POSIX termios, because libserialport does not know the device (no /sys/class/tty/"
                + name + errnoSuffix(code) + ": a pseudo-terminal or a tty without a driver entry)"
        case .refused(.modemLinesUnsupported(let code)):
            text += ": POSIX termios, because libserialport could not read its modem lines (TIOCMGET"
                + errnoSuffix(code) + ": a pseudo-terminal or a driver without modem control)"
        }
        return text
    }

    private func errnoSuffix(_ error: Errno?) -> String {
        guard let error else { return "" }
        return ", " + error.name
    }
}
