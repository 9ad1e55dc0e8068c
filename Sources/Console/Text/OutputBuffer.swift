import NMEA

/// A fixed-capacity byte buffer for text output (console replies, JSON lines, replay lines) that never
/// allocates after `init`: numbers are formatted by hand, text comes from `StaticString` or byte spans.
///
/// Bytes that do not fit are dropped and counted in `droppedBytes`; callers check `overflowed` and
/// say so instead of printing a silently truncated line.
public struct OutputBuffer: ~Copyable {
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

    /// Appends the bytes of a static string.
    public mutating func append(_ text: StaticString) {
        precondition(text.hasPointerRepresentation, "OutputBuffer needs a UTF-8 StaticString")
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
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

    // MARK: numbers

    /// Appends a signed integer in decimal.
    public mutating func append(int value: Int64) {
        if value < 0 {
            append(UInt8(ascii: "-"))
            append(uint: UInt64(bitPattern: 0 &- value))   // exact for Int64.min too
        } else {
            append(uint: UInt64(value))
        }
    }

    /// Appends a signed integer in decimal.
    public mutating func append(int value: Int) { append(int: Int64(value)) }

    /// Appends an unsigned integer in decimal, left-padded with zeros to `minimumDigits`.
    public mutating func append(uint value: UInt64, minimumDigits: Int = 1) {
        var digits: InlineArray<20, UInt8> = .init(repeating: 0)
        var n = 0
        var v = value
        repeat {
            digits[n] = UInt8(truncatingIfNeeded: v % 10) &+ 48
            v /= 10
            n += 1
        } while v != 0
        var pad = minimumDigits - n
        while pad > 0 { append(UInt8(ascii: "0")); pad -= 1 }
        while n > 0 { n -= 1; append(digits[n]) }
    }

    /// Appends `value` with exactly `decimals` digits after the point (0...12), rounded half away
    /// from zero, like printf's `%.Nf` for values of magnitude below 9.2e18 / 10^decimals.
    /// NaN and infinities are written as `nan`/`inf`/`-inf`; JSON writers use `append(jsonNumber:)`.
    public mutating func append(_ value: Double, decimals: Int) {
        let d = min(max(decimals, 0), 12)
        if value.isNaN { append("nan"); return }
        if value.isInfinite { append(value < 0 ? "-inf" : "inf"); return }
        let scale = Self.powersOfTen[d]
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        if scaled >= 9.2e18 {
            // Too large for fixed point: integer part only (never reached by puckd's values).
            if value < 0 { append(UInt8(ascii: "-")) }
            append(uint: UInt64(min(abs(value), 1.8e19)))
            return
        }
        let fixed = UInt64(scaled)
        if value < 0 && fixed != 0 { append(UInt8(ascii: "-")) }
        let divisor = UInt64(scale)
        append(uint: fixed / divisor)
        if d > 0 {
            append(UInt8(ascii: "."))
            append(uint: fixed % divisor, minimumDigits: d)
        }
    }

    /// Appends a JSON number with `decimals` digits, or `null` when the value is not finite.
    public mutating func append(jsonNumber value: Double, decimals: Int) {
        if value.isFinite { append(value, decimals: decimals) } else { append("null") }
    }

    /// Appends `value` as two upper-case hexadecimal digits.
    public mutating func append(hex2 value: UInt8) {
        let digits: StaticString = "0123456789ABCDEF"
        append(digits.utf8Start[Int(value >> 4)])
        append(digits.utf8Start[Int(value & 0x0F)])
    }

    // MARK: time

    /// Appends a UTC time as ISO 8601 `YYYY-MM-DDTHH:MM:SS.fffZ` with `fractionDigits` (0...9) digits,
    /// from nanoseconds since 1970-01-01T00:00:00Z (proleptic Gregorian calendar, no leap seconds).
    public mutating func append(isoTime utcNanoseconds: Int64, fractionDigits: Int = 3) {
        let digitsWanted = min(max(fractionDigits, 0), 9)
        var seconds = utcNanoseconds / 1_000_000_000
        var nanos = utcNanoseconds % 1_000_000_000
        if nanos < 0 { nanos += 1_000_000_000; seconds -= 1 }
        // Round the fraction to the digits wanted.
        let unit = Int64(Self.powersOfTen[9 - digitsWanted])
        var fraction = (nanos + unit / 2) / unit
        if fraction >= Int64(Self.powersOfTen[digitsWanted]) {
            fraction = 0
            seconds += 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        let (year, month, day) = CivilDate.fromDaysSinceEpoch(days)
        append(int: year)
        append(UInt8(ascii: "-")); append(uint: UInt64(month), minimumDigits: 2)
        append(UInt8(ascii: "-")); append(uint: UInt64(day), minimumDigits: 2)
        append(UInt8(ascii: "T")); append(uint: UInt64(secondOfDay / 3600), minimumDigits: 2)
        append(UInt8(ascii: ":")); append(uint: UInt64(secondOfDay / 60 % 60), minimumDigits: 2)
        append(UInt8(ascii: ":")); append(uint: UInt64(secondOfDay % 60), minimumDigits: 2)
        if digitsWanted > 0 {
            append(UInt8(ascii: "."))
            append(uint: UInt64(fraction), minimumDigits: digitsWanted)
        }
        append(UInt8(ascii: "Z"))
    }

    private static let powersOfTen: InlineArray<13, Double> =
        [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12]
}
