import SystemCalls
import Glibc

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

    /// Opens and configures `path` at `baudRate` (bits per second). Takes the tty exclusively
    /// (TIOCEXCL), as gpsd does, so a second reader gets EBUSY instead of half the bytes.
    public static func open(path: String, baudRate: Int) throws(SourceError) -> TermiosPort {
        guard let speed = SerialBaudRate.termiosSpeed(baudRate) else {
            throw SourceError(.unsupportedBaudRate, origin: .serial, subject: path, systemErrno: EINVAL, detail: Int64(baudRate))
        }
        let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 { throw SourceError.fromErrno(errno, origin: .serial, subject: path) }
        var settings = termios()
        if tcgetattr(fd, &settings) != 0 {
            let code = errno
            FileDescriptor(rawValue: fd)?.closeDroppingError()
            throw SourceError.fromErrno(code, origin: .serial, subject: path)
        }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL) | tcflag_t(CREAD)
        settings.c_cflag &= ~(tcflag_t(CSTOPB) | tcflag_t(PARENB) | tcflag_t(CRTSCTS))
        settings.c_cflag = (settings.c_cflag & ~tcflag_t(CSIZE)) | tcflag_t(CS8)
        settings.c_iflag &= ~(tcflag_t(IXON) | tcflag_t(IXOFF) | tcflag_t(IXANY) | tcflag_t(INPCK))
        // By the platform's own VMIN/VTIME indices (c_cc imports as a tuple; Sources/CLinux/uapi_layout.c
        // checks the slots): with O_NONBLOCK, "no data" is then EAGAIN, not a 0-byte read.
        withUnsafeMutableBytes(of: &settings.c_cc) { slots in
            slots[Int(VMIN)] = 1
            slots[Int(VTIME)] = 0
        }
        let port = TermiosPort(fileDescriptor: fd, path: path)
        if cfsetspeed(&settings, speed) != 0 || tcsetattr(fd, TCSANOW, &settings) != 0 {
            let code = errno
            FileDescriptor(rawValue: fd)?.closeDroppingError()
            if code == EINVAL {
                throw SourceError(.unsupportedBaudRate, origin: .serial, subject: path, systemErrno: code, detail: Int64(baudRate))
            }
            throw SourceError.fromErrno(code, origin: .serial, subject: path)
        }
        _ = ioctl(fd, UInt(TIOCEXCL))
        return port
    }

    /// Changes the line speed of the open port (auto-baud) and discards input received at the old
    /// speed (tcflush TCIFLUSH).
    public func setBaudRate(_ baudRate: Int) throws(SourceError) {
        guard let speed = SerialBaudRate.termiosSpeed(baudRate) else {
            throw SourceError(.unsupportedBaudRate, origin: .serial, subject: path, systemErrno: EINVAL, detail: Int64(baudRate))
        }
        var settings = termios()
        if tcgetattr(fileDescriptor, &settings) != 0 {
            throw SourceError.fromErrno(errno, origin: .serial, subject: path, whileOpen: true)
        }
        if cfsetspeed(&settings, speed) != 0 || tcsetattr(fileDescriptor, TCSANOW, &settings) != 0 {
            let code = errno
            if code == EINVAL {
                throw SourceError(.unsupportedBaudRate, origin: .serial, subject: path, systemErrno: code, detail: Int64(baudRate))
            }
            throw SourceError.fromErrno(code, origin: .serial, subject: path, whileOpen: true)
        }
        _ = tcflush(fileDescriptor, TCIFLUSH)
    }

    /// The line speed the driver reports (bits per second), nil when it cannot be read.
    public func currentBaudRate() -> Int? {
        var settings = termios()
        guard tcgetattr(fileDescriptor, &settings) == 0 else { return nil }
        return SerialBaudRate.bitsPerSecond(termiosSpeed: cfgetispeed(&settings))
    }

    /// Reads what is waiting: `.success(n)` with n > 0 bytes, or 0 when nothing yet;
    /// `.failure(.disconnected)` on hangup. (A result, not a throw: the owning source throws once.)
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, SourceError> {
        let n = FileDescriptor(known: fileDescriptor).readCountingErrno(into: buffer)
        if n > 0 { return .success(n) }
        if n == 0 {
            if buffer.count == 0 { return .success(0) }
            return .failure(SourceError(.disconnected, origin: .serial, subject: path))
        }
        let code = Int32(-n)
        if code == EAGAIN || code == EWOULDBLOCK { return .success(0) }
        return .failure(SourceError.fromErrno(code, origin: .serial, subject: path, whileOpen: true))
    }

    /// Closes the descriptor.
    public func close() { FileDescriptor(rawValue: fileDescriptor)?.closeDroppingError() }
}
