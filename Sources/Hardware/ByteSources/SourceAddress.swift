/// Where NMEA comes from, parsed from the spellings users type:
///
/// | spelling | meaning |
/// |---|---|
/// | `/dev/ttyAMA0`, `/dev/ttyUSB0:115200`, `serial:PATH[:BAUD]`, `PATH:BAUD` | serial device, optional baud |
/// | `-` | standard input |
/// | `FILE`, `file:FILE` | recorded log |
/// | `tcp://HOST:PORT` | TCP server sending raw NMEA |
/// | `gpsd://`, `gpsd://HOST`, `gpsd://HOST:PORT` | gpsd (default localhost:2947) |
///
/// IPv6 hosts go in brackets (`tcp://[fe80::1]:10110`). Parsing is pure: it never touches the
/// file system, so `FILE` and `/dev/…` are told apart by spelling only: a tty outside /dev (a
/// socat link, say) needs `serial:PATH`, or it is read as a plain file without termios setup.
public enum SourceAddress: Equatable, Sendable, CustomStringConvertible {
    /// A serial device; `baudRate` nil when the address gives none (the caller picks the default
    /// or runs auto-baud).
    case serial(path: String, baudRate: Int?)
    /// A recorded log file.
    case file(path: String)
    /// Standard input.
    case standardInput
    /// A TCP server streaming raw NMEA.
    case tcp(host: String, port: UInt16)
    /// A gpsd daemon.
    case gpsd(host: String, port: UInt16)

    /// Parses one of the spellings above.
    public init(parsing text: String) throws(SourceAddressError) {
        if text.isEmpty { throw SourceAddressError(.empty, text: text) }
        if text.contains(where: { $0 == "\0" || $0 == "\n" }) { throw SourceAddressError(.badCharacter, text: text) }
        if text == "-" {
            self = .standardInput
            return
        }
        if text.hasPrefix("tcp://") {
            let (host, port) = try Self.hostAndPort(String(text.dropFirst(6)), text: text, defaultPort: nil)
            self = .tcp(host: host, port: port)
            return
        }
        if text.hasPrefix("gpsd://") {
            let rest = String(text.dropFirst(7))
            if rest.isEmpty {
                self = .gpsd(host: "localhost", port: GpsdSource.defaultPort)
                return
            }
            let (host, port) = try Self.hostAndPort(rest, text: text, defaultPort: GpsdSource.defaultPort)
            self = .gpsd(host: host, port: port)
            return
        }
        if let scheme = Self.schemeEnd(text) {
            throw SourceAddressError(.unknownScheme, text: String(text[..<scheme]))
        }
        if text.hasPrefix("file:") {
            let path = String(text.dropFirst(5))
            if path.isEmpty { throw SourceAddressError(.missingPath, text: text) }
            self = .file(path: path)
            return
        }
        if text.hasPrefix("serial:") {
            self = try Self.serial(String(text.dropFirst(7)), text: text)
            return
        }
        if text.hasPrefix("/dev/") {
            self = try Self.serial(text, text: text)
            return
        }
        if let colon = text.lastIndex(of: ":"), !text[text.index(after: colon)...].isEmpty,
           text[text.index(after: colon)...].allSatisfy(\.isASCIIDigitCharacter) {
            self = try Self.serial(text, text: text)
            return
        }
        self = .file(path: text)
    }

    /// The canonical spelling (parses back to the same address).
    public var description: String {
        switch self {
        case .serial(let path, let baud):
            let prefix = path.hasPrefix("/dev/") ? path : "serial:" + path
            return baud.map { prefix + ":" + String($0) } ?? prefix
        case .file(let path): return path.hasPrefix("/dev/") || path == "-" || path.contains(":") ? "file:" + path : path
        case .standardInput: return "-"
        case .tcp(let host, let port): return "tcp://" + TCPEndpoint.subject(host: host, port: port)
        case .gpsd(let host, let port): return "gpsd://" + TCPEndpoint.subject(host: host, port: port)
        }
    }

    /// The index of "://" when `text` starts with a URL scheme (letters, digits, +, -, .).
    private static func schemeEnd(_ text: String) -> String.Index? {
        var index = text.startIndex
        while index < text.endIndex {
            let c = text[index]
            if c == ":" { return text[index...].hasPrefix("://") && index > text.startIndex ? index : nil }
            guard c.isLetter || c.isNumber || c == "+" || c == "-" || c == "." else { return nil }
            index = text.index(after: index)
        }
        return nil
    }

    private static func serial(_ spec: String, text: String) throws(SourceAddressError) -> SourceAddress {
        var path = spec
        var baud: Int?
        // A trailing ":DIGITS" is a baud rate; other colons belong to the path (/dev/serial/by-path/…).
        if let colon = spec.lastIndex(of: ":") {
            let suffix = spec[spec.index(after: colon)...]
            if suffix.allSatisfy(\.isASCIIDigitCharacter) && !suffix.isEmpty {
                guard let rate = Int(suffix), SerialBaudRate.isStandard(rate) else {
                    throw SourceAddressError(.badBaudRate, text: String(suffix))
                }
                baud = rate
                path = String(spec[..<colon])
            }
        }
        if path.isEmpty || path == "/dev/" { throw SourceAddressError(.missingPath, text: text) }
        return .serial(path: path, baudRate: baud)
    }

    private static func hostAndPort(_ rest: String, text: String, defaultPort: UInt16?) throws(SourceAddressError) -> (String, UInt16) {
        if rest.contains("/") || rest.contains("?") || rest.contains("@") {
            throw SourceAddressError(.unexpectedPath, text: text)
        }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw SourceAddressError(.badHost, text: text) }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty {
                throw SourceAddressError(.badHost, text: text)
            }
        } else if let colon = rest.firstIndex(of: ":") {
            if rest[rest.index(after: colon)...].contains(":") {
                throw SourceAddressError(.badHost, text: text)  // a bare IPv6 literal needs brackets
            }
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = Substring(rest)
        }
        if host.isEmpty || host.contains(where: { $0 == " " || $0 == "\t" }) {
            throw SourceAddressError(.badHost, text: text)
        }
        guard let portText else {
            guard let defaultPort else { throw SourceAddressError(.missingPort, text: text) }
            return (String(host), defaultPort)
        }
        guard !portText.isEmpty, portText.allSatisfy(\.isASCIIDigitCharacter),
              let port = Int(portText), port >= 1, port <= 65535 else {
            throw SourceAddressError(.badPort, text: String(portText))
        }
        return (String(host), UInt16(port))
    }
}

/// Why a source address could not be parsed; `message` says how to write it instead.
public struct SourceAddressError: Error, Equatable, Sendable {
    /// The mistakes `SourceAddress(parsing:)` recognizes.
    public enum Kind: Equatable, Sendable {
        case empty, badCharacter, unknownScheme, missingPath, badBaudRate, missingPort, badPort, badHost, unexpectedPath
    }

    /// What is wrong.
    public var kind: Kind
    /// The offending text (the whole address, or the part at fault).
    public var text: String

    /// Creates an error.
    public init(_ kind: Kind, text: String) {
        self.kind = kind
        self.text = text
    }

    /// One sentence: what is wrong and how to write the address.
    public var message: String {
        let forms = "/dev/ttyAMA0[:BAUD], FILE, -, tcp://HOST:PORT or gpsd://HOST[:PORT]"
        switch kind {
        case .empty:
            return "no GPS source given: give one of " + forms + "."
        case .badCharacter:
            return "the source address contains a NUL or newline: give one of " + forms + "."
        case .unknownScheme:
            return "'" + text + "://' is not a source puckd can read: give one of " + forms + "."
        case .missingPath:
            return "'" + text + "' names no path: give the device or file after the prefix, e.g. serial:/dev/ttyUSB0 or file:drive.nmea."
        case .badBaudRate:
            return "'" + text + "' is not a baud rate puckd can set: use one of 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800 or 921600."
        case .missingPort:
            return "'" + text + "' has no port: write tcp://HOST:PORT, e.g. tcp://192.168.1.20:10110."
        case .badPort:
            return "'" + text + "' is not a TCP port: use a number from 1 to 65535."
        case .badHost:
            return "'" + text + "' has no usable host: write HOST:PORT, with IPv6 addresses in brackets ([fe80::1]:10110)."
        case .unexpectedPath:
            return "'" + text + "' has a path, user or query puckd does not use: write only HOST[:PORT] after the scheme."
        }
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { self >= "0" && self <= "9" }
}
