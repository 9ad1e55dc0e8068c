import SystemCalls
import CSerialPort

/// A serial port opened through libserialport (every libserialport call of puckd lives in the
/// `SerialPort*.swift` files): 8N1, no flow control, non-blocking reads. A copyable handle: the
/// owner (`SerialSource`) closes it.
///
/// libserialport only knows ttys with a `/sys/class/tty/NAME` entry and modem-control lines:
/// `open` reports `.unsupportedDevice` for anything else (pseudo-terminals), and the caller then
/// uses `TermiosPort`.
public struct SerialPort: @unchecked Sendable {
    /// Why libserialport could not take a device that exists (the caller falls back to termios).
    public enum Refusal: Equatable, Sendable {
        /// `sp_get_port_by_name` failed: no `/sys/class/tty/NAME` (pseudo-terminals have none).
        case unknownDevice(Errno?)
        /// `sp_open` failed reading the modem lines (TIOCMGET gives ENOTTY/EINVAL on ptys).
        case modemLinesUnsupported(Errno?)
    }

    /// The result of `open`: a port, a refusal (use termios), or an error to report.
    public enum OpenResult {
        case opened(SerialPort)
        case refused(Refusal)
        case failed(SourceError)
    }

    private let port: OpaquePointer
    /// The open descriptor (from `sp_get_port_handle`), for poll().
    public let fileDescriptor: Int32
    /// The device path.
    public let path: String

    /// Opens `path` at `baudRate`, 8N1, no flow control.
    public static func open(path: String, baudRate: Int) -> OpenResult {
        guard SerialBaudRate.isStandard(baudRate) else {
            return .failed(SourceError(.unsupportedBaudRate, origin: .serial, subject: path,
                                       systemError: .invalidArgument, detail: Int64(baudRate)))
        }
        var found: OpaquePointer?
        guard sp_get_port_by_name(path, &found).rawValue == SP_OK.rawValue, let port = found else {
            return .refused(.unknownDevice(SerialPort.lastError()))
        }
        let opened = sp_open(port, SP_MODE_READ_WRITE)
        if opened.rawValue != SP_OK.rawValue {
            let error = opened.rawValue == SP_ERR_FAIL.rawValue ? SerialPort.lastError() ?? .invalidArgument : .invalidArgument
            sp_free_port(port)
            switch error {
            case .notATerminal, .invalidArgument: return .refused(.modemLinesUnsupported(error))
            default: return .failed(SourceError.classifying(error, origin: .serial, subject: path))
            }
        }
        var fd: Int32 = -1
        let configured = sp_set_baudrate(port, Int32(baudRate)).rawValue == SP_OK.rawValue
            && sp_set_bits(port, 8).rawValue == SP_OK.rawValue
            && sp_set_parity(port, SP_PARITY_NONE).rawValue == SP_OK.rawValue
            && sp_set_stopbits(port, 1).rawValue == SP_OK.rawValue
            && sp_set_flowcontrol(port, SP_FLOWCONTROL_NONE).rawValue == SP_OK.rawValue
            && sp_get_port_handle(port, &fd).rawValue == SP_OK.rawValue
        if !configured {
            let error = SerialPort.lastError()
            sp_close(port)
            sp_free_port(port)
            guard let error, error != .invalidArgument else {
                return .failed(SourceError(.unsupportedBaudRate, origin: .serial, subject: path,
                                           systemError: .invalidArgument, detail: Int64(baudRate)))
            }
            return .failed(SourceError.classifying(error, origin: .serial, subject: path))
        }
        // Never block, whatever VMIN/VTIME say; take the tty exclusively as gpsd does.
        let descriptor = FileDescriptor(known: fd)
        try? descriptor.setNonBlocking(true)
        try? descriptor.takeTerminalExclusively()
        return .opened(SerialPort(port: port, fileDescriptor: fd, path: path))
    }

    /// libserialport's last OS error (`sp_last_error_code`) as a typed errno; nil when it has none.
    static func lastError() -> Errno? {
        let code = sp_last_error_code()
        return code == 0 ? nil : Errno(rawValue: code)
    }

    /// Changes the line speed of the open port (auto-baud) and discards input received at the old speed.
    public func setBaudRate(_ baudRate: Int) throws(SourceError) {
        guard SerialBaudRate.isStandard(baudRate) else {
            throw SourceError(.unsupportedBaudRate, origin: .serial, subject: path, systemError: .invalidArgument, detail: Int64(baudRate))
        }
        let result = sp_set_baudrate(port, Int32(baudRate))
        if result.rawValue != SP_OK.rawValue {
            let error = result.rawValue == SP_ERR_FAIL.rawValue ? SerialPort.lastError() ?? .invalidArgument : .invalidArgument
            if error == .invalidArgument {
                throw SourceError(.unsupportedBaudRate, origin: .serial, subject: path, systemError: error, detail: Int64(baudRate))
            }
            throw SourceError.classifying(error, origin: .serial, subject: path, whileOpen: true)
        }
        _ = sp_flush(port, SP_BUF_INPUT)
    }

    /// Reads what is waiting: `.success(n)` with n > 0 bytes, or 0 when nothing yet;
    /// `.failure(.disconnected)` on hangup. (A result, not a throw: the owning source throws once.)
    ///
    /// libserialport sets VMIN=0, so a read returns 0 both when the line is quiet and after a
    /// hangup; a zero-timeout poll() tells them apart (a hung-up tty reports POLLHUP/POLLERR).
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, SourceError> {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return .success(0) }
        let result = sp_nonblocking_read(port, base, buffer.count)
        if result.rawValue > 0 { return .success(Int(result.rawValue)) }
        if result.rawValue < 0 {
            let error = result.rawValue == SP_ERR_FAIL.rawValue ? SerialPort.lastError() ?? .ioError : .ioError
            if error == .wouldBlock || error == .interrupted { return .success(0) }
            return .failure(SourceError.classifying(error, origin: .serial, subject: path, whileOpen: true))
        }
        switch FileDescriptor(known: fileDescriptor).readinessNow(.readable) {
        case .failure(let error):
            return .failure(SourceError(.disconnected, origin: .serial, subject: path, systemError: error))
        case .success(let events) where !events.isDisjoint(with: [.hangUp, .error, .invalid]):
            return .failure(SourceError(.disconnected, origin: .serial, subject: path))
        case .success:
            break
        }
        return .success(0)
    }

    /// Closes the port and frees libserialport's structure.
    public func close() {
        sp_close(port)
        sp_free_port(port)
    }

    /// libserialport's package version, e.g. "0.1.1" (for `puckd ports`).
    public static var libraryVersion: String { String(cString: sp_get_package_version_string()) }
}
