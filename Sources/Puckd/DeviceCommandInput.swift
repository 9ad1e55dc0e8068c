import Glibc

/// A command typed on the device's standard input (a minimal reader until the console module's
/// parser takes over: issue 6).
public enum DeviceCommand: Sendable, Equatable {
    /// `press [2] [long]`: press the simulated button (primary, or the second one).
    case press(secondary: Bool, long: Bool)
    /// `status`: print a status line now.
    case status
    /// `leds`: the LED lines and, on the simulated board, their recent history.
    case leds
    /// `help`.
    case help
    /// An empty line.
    case empty
    /// Anything else.
    case unknown
}

/// Reads commands line by line from a descriptor (standard input) inside the device loop: one
/// `read(2)` per readable wake-up into a fixed buffer, no allocation. At end of input it stops asking
/// to be polled and the device keeps running; lines longer than the buffer are discarded whole.
public struct DeviceCommandInput: ~Copyable {
    /// The descriptor, -1 after end of input.
    public private(set) var fileDescriptor: Int32
    /// True after end of input (or a read error).
    public var closed: Bool { fileDescriptor < 0 }
    private let line: UnsafeMutableRawBufferPointer
    private var length = 0
    private var discarding = false
    private let chunk: UnsafeMutableRawBufferPointer

    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        line = .allocate(byteCount: 256, alignment: 1)
        chunk = .allocate(byteCount: 256, alignment: 1)
    }

    deinit {
        line.deallocate()
        chunk.deallocate()
    }

    /// Reads what is available and calls `handle` for each complete line's command.
    public mutating func read(_ handle: (DeviceCommand) -> Void) {
        guard fileDescriptor >= 0 else { return }
        let n = Glibc.read(fileDescriptor, chunk.baseAddress, chunk.count)
        if n < 0 {
            if errno == EINTR || errno == EAGAIN { return }
            fileDescriptor = -1
            return
        }
        if n == 0 {
            if length > 0 && !discarding { handle(Self.parse(UnsafeRawBufferPointer(rebasing: line[0..<length]))) }
            length = 0
            fileDescriptor = -1
            return
        }
        var i = 0
        while i < n {
            let byte = chunk[i]
            i += 1
            if byte == UInt8(ascii: "\n") {
                if !discarding { handle(Self.parse(UnsafeRawBufferPointer(rebasing: line[0..<length]))) }
                length = 0
                discarding = false
            } else if length < line.count {
                line[length] = byte
                length += 1
            } else {
                discarding = true
            }
        }
    }

    /// Parses one line (words separated by spaces; a trailing CR is ignored).
    public static func parse(_ text: UnsafeRawBufferPointer) -> DeviceCommand {
        var words = InlineArray<4, (Int, Int)>(repeating: (0, 0))
        var count = 0
        var i = 0
        while i < text.count && count < 4 {
            while i < text.count && (text[i] == 32 || text[i] == 9 || text[i] == 13) { i += 1 }
            let start = i
            while i < text.count && !(text[i] == 32 || text[i] == 9 || text[i] == 13) { i += 1 }
            if i > start { words[count] = (start, i); count += 1 }
        }
        while i < text.count && (text[i] == 32 || text[i] == 9 || text[i] == 13) { i += 1 }
        if count == 0 { return .empty }
        if i < text.count { return .unknown }
        func word(_ k: Int, is literal: StaticString) -> Bool {
            let (start, end) = words[k]
            guard end - start == literal.utf8CodeUnitCount else { return false }
            return literal.withUTF8Buffer { expected in
                var j = 0
                while j < expected.count { if text[start + j] != expected[j] { return false }; j += 1 }
                return true
            }
        }
        if word(0, is: "status") && count == 1 { return .status }
        if word(0, is: "leds") && count == 1 { return .leds }
        if (word(0, is: "help") || word(0, is: "?")) && count == 1 { return .help }
        if word(0, is: "press") {
            var secondary = false, long = false
            var k = 1
            while k < count {
                if word(k, is: "long") && !long { long = true } else if word(k, is: "2") && !secondary { secondary = true } else {
                    return .unknown
                }
                k += 1
            }
            return .press(secondary: secondary, long: long)
        }
        return .unknown
    }

    /// The help text.
    public static let help: StaticString = """
        commands: press [2] [long]  press the (second) simulated button, short or long
                  status            print a status line now
                  leds              LED lines and their recent changes (simulated board)
                  help              this text

        """
}
