/// What a UART at one speed reads from a line driven at another: bytes sent back to back at
/// `transmitBaud` (8N1: a low start bit, 8 data bits LSB first, a high stop bit) are sampled by a
/// receiver at `receiveBaud` that waits for a falling edge, samples the middle of each of its own bit
/// periods and delivers the 8 data bits whatever the stop bit was (Linux in raw mode passes framing
/// errors through). At equal speeds the bytes come out unchanged; otherwise as the garbage a real UART
/// produces. The receiver twins' pty harness uses it in both directions.
public enum SerialLineModel {
    /// Writes what the receiver reads into `out` (at most `out.count` bytes); returns the count.
    public static func received(_ bytes: UnsafeRawBufferPointer, transmitBaud: Int, receiveBaud: Int,
                                into out: UnsafeMutableRawBufferPointer) -> Int {
        if transmitBaud == receiveBaud {
            let n = min(bytes.count, out.count)
            for i in 0..<n { out[i] = bytes[i] }
            return n
        }
        let t = 1.0 / Double(max(1, transmitBaud))
        let r = 1.0 / Double(max(1, receiveBaud))
        let end = Double(bytes.count) * 10 * t
        func level(_ time: Double) -> Bool {
            if time < 0 || time >= end { return true }
            let slot = Int(time / (10 * t))
            let bit = Int((time - Double(slot) * 10 * t) / t)
            switch bit {
            case 0: return false
            case 1...8: return bytes[slot] >> UInt8(bit - 1) & 1 == 1
            default: return true
            }
        }
        var n = 0
        var cursor = 0.0
        while n < out.count {
            // The next falling edge: a bit boundary where the line goes from high to low.
            var k = Int((cursor / t).rounded(.up))
            var edge = -1.0
            while Double(k) * t < end {
                let time = Double(k) * t
                if !level(time) && level(time - t / 2) { edge = time; break }
                k += 1
            }
            if edge < 0 { break }
            if level(edge + r / 2) {           // a glitch, not a start bit
                cursor = edge + r / 2
                continue
            }
            var byte: UInt8 = 0
            for bit in 0..<8 where level(edge + (Double(bit) + 1.5) * r) { byte |= 1 << UInt8(bit) }
            out[n] = byte
            n += 1
            cursor = edge + 9.5 * r
        }
        return n
    }
}
