/// Writes bytes into a caller-owned buffer, front to back, without allocating: the one output cursor of
/// every uplink encoder (MQTT packets, HTTP requests, JSON payloads). Writing past the end sets
/// `overflowed` and drops the byte, so an encoder never writes outside its buffer.
public struct UplinkByteWriter {
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

    /// Decimal digits of an integer, with a leading '-' when negative.
    public mutating func decimal(_ value: Int64) {
        if value < 0 { byte(0x2D) }
        decimal(unsigned: value.magnitude)
    }

    /// Decimal digits of an unsigned integer (journal sequence numbers).
    public mutating func decimal(unsigned value: UInt64) {
        var magnitude = value
        var digits: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                     UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            let d = raw.bindMemory(to: UInt64.self)
            repeat {
                d[n] = magnitude % 10
                magnitude /= 10
                n += 1
            } while magnitude > 0
            while n > 0 {
                n -= 1
                byte(0x30 + UInt8(d[n]))
            }
        }
    }

    /// Zero-padded decimal of a non-negative integer to at least `width` digits (time fields).
    public mutating func padded(_ value: Int64, width: Int) {
        var digits = 1
        var rest = value / 10
        while rest > 0 { digits += 1; rest /= 10 }
        while digits < width { byte(0x30); digits += 1 }
        decimal(value)
    }

    /// A fixed-point decimal with `fractionDigits` digits after the point, rounded half away from zero;
    /// never an exponent. Non-finite values are written as `null` (JSON) — callers avoid them.
    public mutating func fixed(_ value: Double, fractionDigits: Int) {
        guard value.isFinite else { text("null"); return }
        var scale: Double = 1
        var k = 0
        while k < fractionDigits { scale *= 10; k += 1 }
        let scaled = (value.magnitude * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9.0e18 else { text("null"); return }
        let units = UInt64(scaled)
        let divisor = UInt64(scale)
        if value < 0 && units != 0 { byte(0x2D) }
        decimal(Int64(units / divisor))
        guard fractionDigits > 0 else { return }
        byte(0x2E)
        var fraction = units % divisor
        var place = divisor / 10
        while place > 0 {
            byte(0x30 + UInt8(fraction / place))
            fraction %= place
            place /= 10
        }
    }
}
