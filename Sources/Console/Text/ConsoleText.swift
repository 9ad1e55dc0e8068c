/// A short byte string with fixed inline capacity (`ConsoleText.capacity` bytes): purpose keys, config
/// keys and values, fault reasons, source descriptions and the words of a command line travel in it
/// instead of `String`, so parsing and rendering never touch the heap.
///
/// Appending past the capacity keeps the first `capacity` bytes and sets `isTruncated` (renderers
/// then show `…`). The bytes are arbitrary: JSON output escapes them and replaces invalid UTF-8.
public struct ConsoleText: Sendable, Equatable {
    /// Maximum number of bytes held.
    public static let capacity = 120

    private var storage: InlineArray<120, UInt8> = .init(repeating: 0)
    /// Number of bytes held (0...capacity).
    public private(set) var count: Int = 0
    /// True when bytes were cut off because the text did not fit.
    public private(set) var isTruncated = false

    /// An empty text.
    public init() {}

    /// The bytes of `text` (cut at `capacity`).
    public init(_ text: StaticString) {
        append(text)
    }

    /// The bytes of `bytes` (cut at `capacity`).
    public init(bytes: UnsafeRawBufferPointer) {
        append(bytes)
    }

    /// The UTF-8 bytes of `string` (cut at `capacity`). Allocation-free for native strings; meant for
    /// start-up and for the device's replies, not for every tick.
    public init(string: String) {
        var s = string
        s.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// True when the text is empty.
    public var isEmpty: Bool { count == 0 }

    /// Empties the text and overwrites every byte it held (used for a password once it was checked).
    public mutating func wipe() {
        var i = 0
        while i < Self.capacity { storage[i] = 0; i += 1 }
        count = 0
        isTruncated = false
    }

    /// The byte at `index` (0 ..< count).
    public subscript(index: Int) -> UInt8 {
        precondition(index >= 0 && index < count, "ConsoleText index out of range")
        return storage[index]
    }

    /// Appends one byte (dropped, and `isTruncated` set, when full).
    public mutating func append(_ byte: UInt8) {
        if count < Self.capacity {
            storage[count] = byte
            count += 1
        } else {
            isTruncated = true
        }
    }

    /// Appends raw bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        var i = 0
        while i < bytes.count { append(bytes[i]); i += 1 }
    }

    /// Appends the bytes of a static string.
    public mutating func append(_ text: StaticString) {
        precondition(text.hasPointerRepresentation, "ConsoleText needs a UTF-8 StaticString")
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Empties the text.
    public mutating func removeAll() {
        count = 0
        isTruncated = false
    }

    /// Calls `body` with the bytes held.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        let n = count
        return storage.span.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
    }

    /// True when the text holds exactly the bytes of `other`.
    public func equals(_ other: StaticString) -> Bool {
        guard other.utf8CodeUnitCount == count else { return false }
        var i = 0
        while i < count {
            if storage[i] != other.utf8Start[i] { return false }
            i += 1
        }
        return true
    }

    /// True when the text equals `other` ignoring ASCII case.
    public func equalsIgnoringCase(_ other: StaticString) -> Bool {
        guard other.utf8CodeUnitCount == count else { return false }
        var i = 0
        while i < count {
            if ConsoleASCII.lowercase(storage[i]) != ConsoleASCII.lowercase(other.utf8Start[i]) { return false }
            i += 1
        }
        return true
    }

    /// The text as a String (allocates: for the device's calls into APIs that take a String, and tests).
    public var string: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    public static func == (a: ConsoleText, b: ConsoleText) -> Bool {
        guard a.count == b.count, a.isTruncated == b.isTruncated else { return false }
        var i = 0
        while i < a.count {
            if a.storage[i] != b.storage[i] { return false }
            i += 1
        }
        return true
    }
}

extension OutputBuffer {
    /// Appends `text` for a terminal (JSON uses `JSONWriter.text`): control bytes (C0 and DEL, which
    /// could move the cursor or end a line) become `?`; `…` marks a truncated text.
    public mutating func append(text: borrowing ConsoleText) {
        text.withBytes { bytes in
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                append(b < 0x20 || b == 0x7F ? UInt8(ascii: "?") : b)
                i += 1
            }
        }
        if text.isTruncated { append("\u{2026}") }
    }
}

/// ASCII helpers shared by the line editor, the parser and the suggestion search.
public enum ConsoleASCII {
    /// `byte` in lower case when it is an ASCII upper-case letter.
    @inline(__always)
    public static func lowercase(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// True for printable ASCII (space through `~`).
    @inline(__always)
    public static func isPrintable(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F }

    /// True for ASCII digits.
    @inline(__always)
    public static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// True for ASCII letters.
    @inline(__always)
    public static func isLetter(_ byte: UInt8) -> Bool {
        let l = byte | 0x20
        return l >= 0x61 && l <= 0x7A
    }
}
