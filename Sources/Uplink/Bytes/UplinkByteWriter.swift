import Console

/// Writes bytes into a caller-owned buffer, front to back, without allocating: the one output cursor of
/// every uplink encoder (MQTT packets, HTTP requests, JSON payloads). Writing past the end sets
/// `overflowed` and drops the byte, so an encoder never writes outside its buffer. Numbers and times are
/// written by Console's `TextByteSink` formatter, the same one as the console and the exports.
public struct UplinkByteWriter: TextByteSink {
    public let buffer: UnsafeMutableRawBufferPointer
    /// Bytes written so far.
    public private(set) var count: Int = 0
    /// True once a write did not fit: the output is incomplete and must not be sent.
    public private(set) var overflowed = false

    public init(_ buffer: UnsafeMutableRawBufferPointer) { self.buffer = buffer }

    public var remaining: Int { buffer.count - count }

    @inline(__always)
    public mutating func byte(_ value: UInt8) {
        guard count < buffer.count else { overflowed = true; return }
        buffer[count] = value
        count += 1
    }

    public mutating func bytes(_ source: UnsafeRawBufferPointer) {
        guard source.count <= remaining else { overflowed = true; return }
        if source.count > 0 { (buffer.baseAddress! + count).copyMemory(from: source.baseAddress!, byteCount: source.count) }
        count += source.count
    }

    /// ASCII text of a `StaticString` (literal) — no String is built.
    public mutating func text(_ literal: StaticString) {
        bytes(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    public mutating func uint16BigEndian(_ value: UInt16) {
        byte(UInt8(truncatingIfNeeded: value >> 8))
        byte(UInt8(truncatingIfNeeded: value))
    }

    /// Writes a byte at an earlier position (a length filled in after the body).
    public mutating func patch(_ value: UInt8, at index: Int) {
        precondition(index < count)
        buffer[index] = value
    }

    /// `TextByteSink`'s byte: `byte(_:)`.
    @inline(__always)
    public mutating func append(_ value: UInt8) { byte(value) }

    /// `TextByteSink`'s bytes: `bytes(_:)` (all or nothing: an incomplete output is never sent).
    public mutating func append(_ source: UnsafeRawBufferPointer) { bytes(source) }
}
