/// The simulated twin of a serial GPS: a receiver transmitting `bytes` at `receiverBaudRate`
/// (8N1, at a given pace), and a UART on our side sampling the line at `baudRate`. When the two
/// rates match, the bytes come out exactly; when they do not, they come out as the garbage a real
/// UART produces, because the model is the wire itself:
///
/// - the transmitter drives the line low for a start bit, sends 8 data bits LSB first, then a high
///   stop bit, one byte every `1 / bytesPerSecond` s (idle high in between);
/// - the receiver waits for a falling edge, samples the middle of each of its own bit periods,
///   delivers the 8 data bits whatever the stop bit was (Linux in raw mode passes framing-error
///   bytes through; they are counted in `framingErrors`), then hunts for the next falling edge
///   from the stop-bit sample on.
///
/// Driven only by the monotonic time passed to `read`; never blocks, never allocates. It has no
/// descriptor: `pollRequest` asks to be called when the next byte is complete.
import Hardware

public struct SimulatedSerialPort: ByteSource, BaudRateControl {
    /// The receiver's transmit rate (bits per second).
    public let receiverBaudRate: Int
    /// Our UART's rate (bits per second), changed by `setBaudRate`.
    public private(set) var baudRate: Int
    /// Bytes delivered whose stop bit was not high (a sign of a wrong baud rate).
    public private(set) var framingErrors: UInt64 = 0
    private let bytes: [UInt8]
    private let startNanoseconds: Int64
    private let slotNanoseconds: Double
    private let transmitBitNanoseconds: Double
    private var receiveBitNanoseconds: Double
    /// Where the receiver hunts for the next start bit, in ns after `startNanoseconds`.
    private var cursorNanoseconds: Double = 0
    private var lifecycle = SourceLifecycle(policy: ReconnectPolicy())

    /// A receiver that starts transmitting `bytes` at `startNanoseconds`, one byte every
    /// `1 / bytesPerSecond` s (default and maximum: back to back, `receiverBaudRate / 10`), to a
    /// UART set to `baudRate`.
    public init(bytes: [UInt8], receiverBaudRate: Int, baudRate: Int,
                bytesPerSecond: Double? = nil, startNanoseconds: Int64 = 0) {
        self.bytes = bytes
        self.receiverBaudRate = max(1, receiverBaudRate)
        self.baudRate = max(1, baudRate)
        self.startNanoseconds = startNanoseconds
        transmitBitNanoseconds = 1e9 / Double(self.receiverBaudRate)
        receiveBitNanoseconds = 1e9 / Double(self.baudRate)
        let backToBack = 10 * transmitBitNanoseconds
        if let bytesPerSecond, bytesPerSecond > 0 {
            slotNanoseconds = max(backToBack, 1e9 / bytesPerSecond)
        } else {
            slotNanoseconds = backToBack
        }
        lifecycle.opened(nowNanoseconds: startNanoseconds)
    }

    public var status: SourceStatus { lifecycle.status }
    public var counters: SourceCounters { lifecycle.counters }

    public var pollRequest: PollRequest {
        guard case .open = lifecycle.status else { return .never }
        guard let edge = nextFallingEdge(atOrAfter: cursorNanoseconds) else {
            return .wake(atNanoseconds: startNanoseconds)  // finished on the next read
        }
        let complete = edge + 9.5 * receiveBitNanoseconds
        return .wake(atNanoseconds: startNanoseconds &+ Int64(complete.rounded(.up)))
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer, nowNanoseconds now: Int64) throws(SourceError) -> Int {
        guard case .open = lifecycle.status else { return 0 }
        let elapsed = Double(now &- startNanoseconds)
        var count = 0
        while count < buffer.count {
            guard let edge = nextFallingEdge(atOrAfter: cursorNanoseconds) else {
                lifecycle.finish()
                break
            }
            let startSample = edge + 0.5 * receiveBitNanoseconds
            let stopSample = edge + 9.5 * receiveBitNanoseconds
            if stopSample > elapsed { break }  // this frame is still on the wire
            if lineLevel(at: startSample) {
                cursorNanoseconds = startSample  // a glitch, not a start bit: hunt again
                continue
            }
            var byte: UInt8 = 0
            for bit in 0..<8 where lineLevel(at: edge + (Double(bit) + 1.5) * receiveBitNanoseconds) {
                byte |= UInt8(1) << UInt8(bit)
            }
            if !lineLevel(at: stopSample) { framingErrors &+= 1 }
            buffer[count] = byte
            count += 1
            cursorNanoseconds = stopSample
        }
        if count > 0 { lifecycle.delivered(count, nowNanoseconds: now) }
        return count
    }

    /// Switches our UART's rate at `nowNanoseconds`, discarding what arrived but was not read
    /// (as the real ports' tcflush does); the receiver keeps transmitting at its own rate.
    public mutating func setBaudRate(_ rate: Int, nowNanoseconds now: Int64) throws(SourceError) {
        guard rate > 0 else {
            throw SourceError(.unsupportedBaudRate, origin: .simulated, subject: "simulated serial port", detail: Int64(rate))
        }
        baudRate = rate
        receiveBitNanoseconds = 1e9 / Double(rate)
        cursorNanoseconds = max(cursorNanoseconds, Double(now &- startNanoseconds))
    }

    /// The line level at `t` ns after the start: true = high (mark, idle), false = low (space).
    private func lineLevel(at t: Double) -> Bool {
        if t < 0 { return true }
        let slot = Int(t / slotNanoseconds)
        if slot >= bytes.count { return true }
        let bitIndex = Int((t - Double(slot) * slotNanoseconds) / transmitBitNanoseconds)
        switch bitIndex {
        case 0: return false
        case 1...8: return bytes[slot] >> UInt8(bitIndex - 1) & 1 == 1
        default: return true
        }
    }

    /// The first high-to-low transition of the line at or after `t`, nil when the data is over.
    private func nextFallingEdge(atOrAfter t: Double) -> Double? {
        var slot = t <= 0 ? 0 : Int(t / slotNanoseconds)
        while slot < bytes.count {
            let base = Double(slot) * slotNanoseconds
            let byte = bytes[slot]
            // Boundary k starts bit k of the frame: 0 = start bit (always falling: the line was
            // idle or in a stop bit), 2…8 = data bit k-1 (falling when data bit k-2 was 1).
            for k in 0...8 where k != 1 {
                let edge = base + Double(k) * transmitBitNanoseconds
                if edge < t { continue }
                if k == 0 { return edge }
                if byte >> UInt8(k - 2) & 1 == 1 && byte >> UInt8(k - 1) & 1 == 0 { return edge }
            }
            slot += 1
        }
        return nil
    }
}
