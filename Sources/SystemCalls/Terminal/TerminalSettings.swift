import Glibc

/// A terminal's termios settings as a value (tcgetattr/tcsetattr): raw mode, 8N1 without flow
/// control, echo, the read minimum and the line speed in bits per second. Allocation-free.
public struct TerminalSettings: Sendable {
    var raw: termios

    init(raw: termios) { self.raw = raw }

    /// cfmakeraw(3): no line editing, echo, signals or byte translation.
    public mutating func makeRaw() { cfmakeraw(&raw) }

    /// 8 data bits, no parity, one stop bit, receiver on, modem lines ignored, no hardware
    /// (RTS/CTS) or software (XON/XOFF) flow control, no parity check: a GPS receiver's UART.
    public mutating func useEightDataBitsNoParityOneStopBit() {
        raw.c_cflag |= tcflag_t(CLOCAL) | tcflag_t(CREAD)
        raw.c_cflag &= ~(tcflag_t(CSTOPB) | tcflag_t(PARENB) | tcflag_t(CRTSCTS))
        raw.c_cflag = (raw.c_cflag & ~tcflag_t(CSIZE)) | tcflag_t(CS8)
        raw.c_iflag &= ~(tcflag_t(IXON) | tcflag_t(IXOFF) | tcflag_t(IXANY) | tcflag_t(INPCK))
    }

    /// VMIN and VTIME: a read returns after `minimumBytes` or `timeoutDeciseconds` (tenths of a
    /// second); with O_NONBLOCK and VMIN=1, VTIME=0 "no data" is EAGAIN, not a 0-byte read.
    /// By the platform's own indices (c_cc imports as a tuple; Sources/CLinux/uapi_layout.c checks them).
    public mutating func setReadMinimum(bytes minimumBytes: UInt8, timeoutDeciseconds: UInt8) {
        withUnsafeMutableBytes(of: &raw.c_cc) { slots in
            slots[Int(VMIN)] = minimumBytes
            slots[Int(VTIME)] = timeoutDeciseconds
        }
    }

    /// Whether typed characters are echoed (ECHO), e.g. off while a password is typed.
    public var echoes: Bool {
        get { raw.c_lflag & tcflag_t(ECHO) != 0 }
        set { raw.c_lflag = newValue ? raw.c_lflag | tcflag_t(ECHO) : raw.c_lflag & ~tcflag_t(ECHO) }
    }

    /// cfsetspeed(3) for both directions: EINVAL (thrown) for a rate that is not a standard one.
    public mutating func setSpeed(bitsPerSecond: Int) throws(Errno) {
        guard let speed = TerminalSpeed.constant(bitsPerSecond: bitsPerSecond) else { throw Errno.invalidArgument }
        _ = try Errno.check(minusOne: cfsetspeed(&raw, speed))
    }

    /// The input line speed in bits per second (cfgetispeed), nil for a non-standard constant.
    public var inputBitsPerSecond: Int? { withUnsafePointer(to: raw) { TerminalSpeed.bitsPerSecond(constant: cfgetispeed($0)) } }

    /// The output line speed in bits per second (cfgetospeed), nil for a non-standard constant.
    public var outputBitsPerSecond: Int? { withUnsafePointer(to: raw) { TerminalSpeed.bitsPerSecond(constant: cfgetospeed($0)) } }
}

/// When `setTerminalSettings` takes effect (tcsetattr's optional actions).
public enum TerminalChange: Sendable {
    /// At once (TCSANOW).
    case now
    /// After the output was sent, discarding unread input (TCSAFLUSH): for a password prompt.
    case afterOutputDiscardingInput

    var action: CInt {
        switch self {
        case .now: return TCSANOW
        case .afterOutputDiscardingInput: return TCSAFLUSH
        }
    }
}

extension FileDescriptor {
    /// tcgetattr(3): the terminal's settings (ENOTTY thrown for a descriptor that is no terminal).
    public func terminalSettings() throws(Errno) -> TerminalSettings {
        var settings = termios()
        _ = try retryingInterrupts { tcgetattr(rawValue, &settings) }
        return TerminalSettings(raw: settings)
    }

    /// tcsetattr(3).
    public func setTerminalSettings(_ settings: TerminalSettings, when change: TerminalChange = .now) throws(Errno) {
        var raw = settings.raw
        _ = try retryingInterrupts { tcsetattr(rawValue, change.action, &raw) }
    }

    /// tcflush(3) TCIFLUSH: drops what was received and not read yet (bytes at an old line speed).
    public func discardTerminalInput() throws(Errno) {
        _ = try retryingInterrupts { tcflush(rawValue, TCIFLUSH) }
    }

    /// TIOCEXCL: later opens of the terminal fail with EBUSY (one reader, as gpsd takes its ports).
    public func takeTerminalExclusively() throws(Errno) {
        try control(UInt(TIOCEXCL))
    }
}
