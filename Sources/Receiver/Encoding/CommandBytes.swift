/// One command for the receiver, as the bytes to write: a UBX frame or an NMEA-style sentence
/// (`$PMTK220,100*2F\r\n`), built in place in a fixed inline buffer. Nothing is allocated; bytes that do
/// not fit are dropped and `overflowed` says so (the encoders never build a command that large).
public struct CommandBytes: Sendable, Equatable {
    /// The largest command puckd sends, bytes (a CFG-VALSET with every managed key is 136).
    public static let capacity = 192

    private var storage = InlineArray<192, UInt8>(repeating: 0)
    /// Bytes held.
    public private(set) var count = 0
    /// True when an append did not fit.
    public private(set) var overflowed = false

    /// An empty command.
    public init() {}

    /// Forgets the content.
    public mutating func removeAll() {
        count = 0
        overflowed = false
    }

    /// The byte at `index` (0 ..< count).
    public subscript(index: Int) -> UInt8 {
        get { storage[index] }
        set { storage[index] = newValue }
    }

    /// Appends one byte.
    public mutating func append(_ byte: UInt8) {
        guard count < Self.capacity else { overflowed = true; return }
        storage[count] = byte
        count += 1
    }

    /// Appends a 16-bit value, least significant byte first (UBX byte order).
    public mutating func appendLittleEndian(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
    }

    /// Appends a 32-bit value, least significant byte first (UBX byte order).
    public mutating func appendLittleEndian(_ value: UInt32) {
        var v = value
        for _ in 0..<4 {
            append(UInt8(truncatingIfNeeded: v))
            v >>= 8
        }
    }

    /// Appends ASCII text.
    public mutating func append(_ text: StaticString) {
        let p = text.utf8Start
        for i in 0..<text.utf8CodeUnitCount { append(p[i]) }
    }

    /// Appends a non-negative integer in decimal.
    public mutating func append(decimal value: Int) {
        var digits = InlineArray<20, UInt8>(repeating: 0)
        var v = max(0, value)
        var n = 0
        repeat {
            digits[n] = UInt8(ascii: "0") &+ UInt8(v % 10)
            v /= 10
            n += 1
        } while v > 0
        while n > 0 {
            n -= 1
            append(digits[n])
        }
    }

    /// Calls `body` with the bytes.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        withUnsafeBytes(of: storage) { raw in body(UnsafeRawBufferPointer(rebasing: raw[0..<count])) }
    }

    /// The bytes as an array (allocates: tests and logs of rare events).
    public var array: [UInt8] { withBytes { Array($0) } }

    public static func == (a: CommandBytes, b: CommandBytes) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a.storage[i] != b.storage[i] { return false }
        return true
    }
}
