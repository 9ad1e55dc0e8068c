/// A fixed-capacity byte buffer for text output (console replies, JSON lines, replay lines) that never
/// allocates after `init`: numbers and times are formatted by `TextByteSink`'s one formatter, text comes
/// from `StaticString` or byte spans.
///
/// Bytes that do not fit are dropped and counted in `droppedBytes`; callers check `overflowed` and
/// say so instead of printing a silently truncated line.
public struct OutputBuffer: ~Copyable, TextByteSink {
    private let storage: UnsafeMutableRawBufferPointer
    /// Number of valid bytes at the start of the buffer.
    public private(set) var count: Int = 0
    /// Bytes dropped because the buffer was full, since the last `removeAll()`.
    public private(set) var droppedBytes: Int = 0

    /// A buffer holding up to `capacity` bytes (allocated once, here).
    public init(capacity: Int) {
        precondition(capacity > 0, "OutputBuffer capacity must be positive")
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
    }

    deinit { storage.deallocate() }

    /// Maximum number of bytes the buffer holds.
    public var capacity: Int { storage.count }
    /// True when some bytes were dropped since the last `removeAll()`.
    public var overflowed: Bool { droppedBytes > 0 }
    /// True when nothing has been written.
    public var isEmpty: Bool { count == 0 }

    /// Forgets the content (keeps the storage).
    public mutating func removeAll() {
        count = 0
        droppedBytes = 0
    }

    /// Drops the last `n` bytes (or all of them when fewer are held).
    public mutating func removeLast(_ n: Int) { count = max(0, count - n) }

    /// Cuts the content back to the first `length` bytes (used to undo a partly written item).
    public mutating func truncate(to length: Int) { if length < count { count = max(0, length) } }

    /// Removes the first `n` bytes, moving the rest to the front (used after a partial write to a fd).
    public mutating func removeFirst(_ n: Int) {
        let n = min(max(n, 0), count)
        if n == 0 { return }
        let rest = count - n
        // copyMemory is memmove: the regions overlap.
        if rest > 0, let base = storage.baseAddress { UnsafeMutableRawPointer(base).copyMemory(from: base + n, byteCount: rest) }
        count = rest
    }

    /// The byte at `index` (0 ..< count).
    public subscript(index: Int) -> UInt8 {
        precondition(index >= 0 && index < count, "OutputBuffer index out of range")
        return storage[index]
    }

    /// Calls `body` with the bytes written so far.
    public func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
    }

    /// The content as a String (allocates: for tests and start-up messages, not the hot path).
    public var string: String {
        withBytes { String(decoding: $0, as: UTF8.self) }
    }

    // MARK: raw bytes

    /// Appends one byte.
    @inline(__always)
    public mutating func append(_ byte: UInt8) {
        if count < storage.count {
            storage[count] = byte
            count += 1
        } else {
            droppedBytes += 1
        }
    }

    /// Appends `byte` `n` times.
    public mutating func append(repeating byte: UInt8, count n: Int) {
        var i = 0
        while i < n { append(byte); i += 1 }
    }

    /// Appends raw bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let room = storage.count - count
        let n = min(room, bytes.count)
        if n > 0, let dst = storage.baseAddress, let src = bytes.baseAddress {
            (dst + count).copyMemory(from: src, byteCount: n)
            count += n
        }
        droppedBytes += bytes.count - n
    }

    /// Appends raw bytes from a span.
    public mutating func append(_ bytes: Span<UInt8>) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends the UTF-8 bytes of a string (allocation-free for native strings, which
    /// `withUTF8` reads in place; used for start-up text, not needed in the hot path).
    public mutating func append(string: String) {
        var s = string
        s.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends the bytes of another buffer.
    public mutating func append(contentsOf other: borrowing OutputBuffer) {
        other.withBytes { append($0) }
    }

    /// Appends `value` as two upper-case hexadecimal digits.
    public mutating func append(hex2 value: UInt8) {
        let digits: StaticString = "0123456789ABCDEF"
        append(digits.utf8Start[Int(value >> 4)])
        append(digits.utf8Start[Int(value & 0x0F)])
    }
}
