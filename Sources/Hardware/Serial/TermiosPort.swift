import SystemCalls

/// A serial device opened with plain POSIX calls: `open(O_RDWR|O_NOCTTY|O_NONBLOCK)`, `cfmakeraw`,
/// 8N1, no flow control, `cfsetspeed`, `tcsetattr`. Works for every tty including pseudo-terminals,
/// which libserialport refuses. A copyable handle: the owner (`SerialSource`) closes it.
///
/// Reads are non-blocking (VMIN=1, VTIME=0 with O_NONBLOCK): EAGAIN means "no data yet", while a
/// 0-byte read or EIO means the other end went away (USB unplug, pty master closed).
public struct TermiosPort: Sendable {
    /// The open descriptor (for poll()).
    public let fileDescriptor: Int32
    /// The device path it was opened with.
    public let path: String

    /// Built once (an OptionSet array literal allocates at each use in a debug build; reopens run on the loop).
    private static let openOptions: FileDescriptor.OpenOptions = [.noControllingTerminal, .nonBlocking, .closeOnExec]

    /// Opens and configures `path` at `baudRate` (bits per second). Takes the tty exclusively
    /// (TIOCEXCL), as gpsd does, so a second reader gets EBUSY instead of half the bytes.
    public static func open(path: String, baudRate: Int) throws(SourceError) -> TermiosPort {
        guard SerialBaudRate.isStandard(baudRate) else {
            throw SourceError(.unsupportedBaudRate, origin: .serial, subject: path,
                              systemError: .invalidArgument, detail: Int64(baudRate))
        }
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileDescriptor.open(path, .readWrite, options: Self.openOptions)
        } catch {
            throw SourceError.classifying(error, origin: .serial, subject: path)
        }
        var settings: TerminalSettings
        do throws(Errno) { settings = try fd.terminalSettings() } catch {
            fd.closeDroppingError()
            throw SourceError.classifying(error, origin: .serial, subject: path)
        }
        settings.makeRaw()
        settings.useEightDataBitsNoParityOneStopBit()
        // With O_NONBLOCK, "no data" is then EAGAIN, not a 0-byte read.
        settings.setReadMinimum(bytes: 1, timeoutDeciseconds: 0)
        let port = TermiosPort(fileDescriptor: fd.rawValue, path: path)
        do throws(Errno) {
            try settings.setSpeed(bitsPerSecond: baudRate)
            try fd.setTerminalSettings(settings)
        } catch {
            fd.closeDroppingError()
            if error == .invalidArgument {
                throw SourceError(.unsupportedBaudRate, origin: .serial, subject: path, systemError: error,
                                  detail: Int64(baudRate))
            }
            throw SourceError.classifying(error, origin: .serial, subject: path)
        }
        try? fd.takeTerminalExclusively()
        return port
    }

    /// Changes the line speed of the open port (auto-baud) and discards input received at the old
    /// speed (tcflush TCIFLUSH).
    public func setBaudRate(_ baudRate: Int) throws(SourceError) {
        guard SerialBaudRate.isStandard(baudRate) else {
            throw SourceError(.unsupportedBaudRate, origin: .serial, subject: path,
                              systemError: .invalidArgument, detail: Int64(baudRate))
        }
        let fd = FileDescriptor(known: fileDescriptor)
        var settings: TerminalSettings
        do throws(Errno) { settings = try fd.terminalSettings() } catch {
            throw SourceError.classifying(error, origin: .serial, subject: path, whileOpen: true)
        }
        do throws(Errno) {
            try settings.setSpeed(bitsPerSecond: baudRate)
            try fd.setTerminalSettings(settings)
        } catch {
            if error == .invalidArgument {
                throw SourceError(.unsupportedBaudRate, origin: .serial, subject: path, systemError: error,
                                  detail: Int64(baudRate))
            }
            throw SourceError.classifying(error, origin: .serial, subject: path, whileOpen: true)
        }
        try? fd.discardTerminalInput()
    }

    /// The line speed the driver reports (bits per second), nil when it cannot be read.
    public func currentBaudRate() -> Int? {
        (try? FileDescriptor(known: fileDescriptor).terminalSettings())?.inputBitsPerSecond
    }

    /// Reads what is waiting: `.success(n)` with n > 0 bytes, or 0 when nothing yet;
    /// `.failure(.disconnected)` on hangup. (A result, not a throw: the owning source throws once.)
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, SourceError> {
        switch FileDescriptor(known: fileDescriptor).readOutcome(into: buffer) {
        case .processed(let n) where n > 0: return .success(n)
        case .processed:
            if buffer.count == 0 { return .success(0) }
            return .failure(SourceError(.disconnected, origin: .serial, subject: path))
        case .wouldBlock:
            return .success(0)
        case .failed(let error):
            return .failure(SourceError.classifying(error, origin: .serial, subject: path, whileOpen: true))
        }
    }

    /// Closes the descriptor.
    public func close() { FileDescriptor(rawValue: fileDescriptor)?.closeDroppingError() }
}
