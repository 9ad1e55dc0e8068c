import SystemCalls

/// Where a byte source gets its bytes from; selects the wording of error messages.
public enum SourceOrigin: UInt8, Sendable, Equatable {
    /// A serial device (UART, USB serial, pseudo-terminal).
    case serial
    /// A recorded log file.
    case file
    /// The process's standard input (`-`).
    case standardInput
    /// A TCP server streaming raw NMEA (`tcp://host:port`).
    case tcp
    /// A gpsd daemon (`gpsd://host[:port]`).
    case gpsd
    /// A simulated twin in tests.
    case simulated
}

/// What went wrong with a byte source: a kind, the device or `host:port` it concerns, and the errno
/// when one exists. `message` is one sentence saying what is wrong and how to fix it.
///
/// Trivially small to throw (typed throws, no boxing); `writeMessage(to:)` renders the message
/// without heap allocation so the device loop can log it from its hot path.
public struct SourceError: Error, Equatable, Sendable {
    /// The failure classes a source can report. Counters keep one slot per kind.
    public enum Kind: Int, CaseIterable, Sendable, Equatable {
        /// The device or file does not exist (ENOENT, ENOTDIR, ENODEV, ENXIO, or EIO from a tty
        /// without hardware, at open).
        case notFound
        /// The process may not open it (EACCES, EPERM).
        case permissionDenied
        /// Another process holds the device exclusively (EBUSY).
        case busy
        /// A serial source was pointed at something that is not a terminal (ENOTTY).
        case notATerminal
        /// The device refused the requested baud rate (EINVAL from the driver).
        case unsupportedBaudRate
        /// The device went away mid-stream: hangup, EIO, ENXIO (USB unplug, pty master closed).
        case disconnected
        /// Nothing listens on the TCP port (ECONNREFUSED).
        case connectionRefused
        /// The peer reset or broke the TCP connection (ECONNRESET, EPIPE, ETIMEDOUT).
        case connectionReset
        /// The peer closed the TCP connection in order (end of stream).
        case connectionClosed
        /// No route to the host or network (ENETUNREACH, EHOSTUNREACH, ENETDOWN).
        case unreachable
        /// The host name could not be resolved.
        case hostNotFound
        /// A TCP connect got no answer within the connect timeout (`detail` = milliseconds).
        case connectTimedOut
        /// An open connection delivered no byte for the silence timeout (`detail` = milliseconds).
        case silent
        /// A file path names a directory.
        case isADirectory
        /// Any other system error; `systemError` says which.
        case ioError

        /// Number of kinds (size of the per-kind counter array).
        public static let count = 15
    }

    /// The failure class.
    public var kind: Kind
    /// The kind of source that failed.
    public var origin: SourceOrigin
    /// The device path, file path or `host:port` concerned.
    public var subject: String
    /// The errno behind the failure; nil when there is none (hangup, orderly close, timeout).
    public var systemError: Errno?
    /// Kind-specific number: the baud rate for `unsupportedBaudRate`, milliseconds for the timeouts,
    /// the getaddrinfo code for `hostNotFound`; 0 otherwise.
    public var detail: Int64

    /// Creates an error value; sources build these, tests compare them.
    public init(_ kind: Kind, origin: SourceOrigin, subject: String, systemError: Errno? = nil, detail: Int64 = 0) {
        self.kind = kind
        self.origin = origin
        self.subject = subject
        self.systemError = systemError
        self.detail = detail
    }

    /// True when retrying cannot help (a configuration mistake or a finite source): the source
    /// then stops in `.failed` instead of waiting to reconnect.
    public var isPermanent: Bool {
        switch origin {
        case .file, .standardInput, .simulated:
            return true
        case .serial, .tcp, .gpsd:
            switch kind {
            case .notATerminal, .unsupportedBaudRate, .isADirectory: return true
            default: return false
            }
        }
    }

    /// The message as a String (allocates; for start-up and command-line use).
    public var message: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(200)
        writeMessage { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Classifies an errno from open(2)/read(2)/connect(2) for a source of `origin`.
    /// `whileOpen` marks errors that happen on an established stream (EIO there means unplugged).
    public static func classifying(_ error: Errno, origin: SourceOrigin, subject: String,
                                   whileOpen: Bool = false) -> SourceError {
        let kind: Kind
        switch error {
        case .noSuchFileOrDirectory, .notADirectory, .noSuchDevice:
            kind = whileOpen ? .disconnected : .notFound
        case .noSuchDeviceOrAddress:
            // open(2) of a tty whose hardware is absent; read(2) after unplug.
            kind = whileOpen ? .disconnected : .notFound
        case .ioError:
            // A tty whose UART is absent fails open(2) with EIO; an open one reads EIO when unplugged.
            kind = origin == .serial ? (whileOpen ? .disconnected : .notFound) : .ioError
        case .permissionDenied, .notPermitted: kind = .permissionDenied
        case .busy: kind = .busy
        case .notATerminal: kind = .notATerminal
        case .isADirectory: kind = .isADirectory
        case .connectionRefused: kind = .connectionRefused
        case .connectionReset, .brokenPipe, .connectionAborted: kind = .connectionReset
        case .timedOut: kind = whileOpen ? .connectionReset : .connectTimedOut
        case .networkUnreachable, .hostUnreachable, .networkDown, .hostDown, .addressNotAvailable: kind = .unreachable
        default: kind = .ioError
        }
        return SourceError(kind, origin: origin, subject: subject, systemError: error)
    }
}
