/// The receiver's traffic as it arrives, for the console's `nmea` view and `watch nmea` (puckd holds
/// the port, so nothing else can show it): the last `capacity` lines — sentences received, UBX frames
/// received, commands puckd sent — each with its monotonic time, in fixed slots of `lineBytes` bytes
/// (longer lines are cut). The device records as it reads; nothing is allocated after `init`.
///
/// A class over one buffer allocated at start-up, so that `ConsoleState` stays small (a debug build
/// copies a borrowed struct's fields onto the stack): the device loop writes it and the console
/// session reads it, on the loop's one thread.
public final class NMEASentenceLog: @unchecked Sendable {
    /// Lines kept.
    public static let capacity = 64
    /// Bytes kept of each line.
    public static let lineBytes = 120

    /// What a line is.
    public enum Kind: UInt8, Sendable {
        /// A sentence with a verified checksum (stored with its `*hh`).
        case sentence
        /// A sentence without a checksum.
        case uncheckedSentence
        /// A UBX frame from the receiver (stored as class, id, length, payload bytes).
        case ubxFrame
        /// A command puckd wrote (NMEA text or a UBX frame, as written).
        case command
    }

    private let bytes: UnsafeMutableRawBufferPointer         // capacity × lineBytes
    private var lengths = InlineArray<64, UInt8>(repeating: 0)
    private var kinds = InlineArray<64, UInt8>(repeating: 0)
    private var times = InlineArray<64, Int64>(repeating: 0)
    /// Lines recorded since start (the newest has number `recorded - 1`).
    public private(set) var recorded: UInt64 = 0

    public init() {
        bytes = .allocate(byteCount: Self.capacity * Self.lineBytes, alignment: 1)
        bytes.initializeMemory(as: UInt8.self, repeating: 0)
    }

    deinit { bytes.deallocate() }

    /// Records a received sentence (bytes from `$` to before `*`); `verified` adds its `*hh`.
    public func recordSentence(_ body: UnsafeRawBufferPointer, verified: Bool, atNanoseconds t: Int64) {
        let slot = begin(verified ? .sentence : .uncheckedSentence, t)
        var n = 0
        var sum: UInt8 = 0
        while n < body.count && n < Self.lineBytes {
            bytes[slot * Self.lineBytes + n] = body[n]
            if n > 0 { sum ^= body[n] }
            n += 1
        }
        if verified && n + 3 <= Self.lineBytes && n == body.count {
            let hex: StaticString = "0123456789ABCDEF"
            bytes[slot * Self.lineBytes + n] = UInt8(ascii: "*")
            bytes[slot * Self.lineBytes + n + 1] = hex.utf8Start[Int(sum >> 4)]
            bytes[slot * Self.lineBytes + n + 2] = hex.utf8Start[Int(sum & 15)]
            n += 3
        }
        lengths[slot] = UInt8(n)
    }

    /// Records a UBX frame from the receiver: class, id, then the payload (cut to fit).
    public func recordUBX(messageClass: UInt8, id: UInt8, payload: UnsafeRawBufferPointer, atNanoseconds t: Int64) {
        let slot = begin(.ubxFrame, t)
        let base = slot * Self.lineBytes
        bytes[base] = messageClass
        bytes[base + 1] = id
        bytes[base + 2] = UInt8(truncatingIfNeeded: payload.count)
        bytes[base + 3] = UInt8(truncatingIfNeeded: payload.count >> 8)
        var n = 0
        while n < payload.count && n + 4 < Self.lineBytes {
            bytes[base + 4 + n] = payload[n]
            n += 1
        }
        lengths[slot] = UInt8(4 + n)
    }

    /// Records a command puckd wrote to the receiver.
    public func recordCommand(_ command: UnsafeRawBufferPointer, atNanoseconds t: Int64) {
        let slot = begin(.command, t)
        var n = 0
        while n < command.count && n < Self.lineBytes {
            bytes[slot * Self.lineBytes + n] = command[n]
            n += 1
        }
        lengths[slot] = UInt8(n)
    }

    private func begin(_ kind: Kind, _ t: Int64) -> Int {
        let slot = Int(recorded % UInt64(Self.capacity))
        kinds[slot] = kind.rawValue
        times[slot] = t
        recorded &+= 1
        return slot
    }

    /// The oldest line number still held.
    public var oldest: UInt64 { recorded > UInt64(Self.capacity) ? recorded - UInt64(Self.capacity) : 0 }

    /// Calls `body` with line `number` (kind, time, bytes) when it is still held; false otherwise.
    public func withLine<R>(_ number: UInt64, _ body: (Kind, Int64, UnsafeRawBufferPointer) -> R) -> R? {
        guard number >= oldest && number < recorded else { return nil }
        let slot = Int(number % UInt64(Self.capacity))
        let kind = Kind(rawValue: kinds[slot]) ?? .sentence
        let length = Int(lengths[slot])
        return body(kind, times[slot],
                    UnsafeRawBufferPointer(rebasing: bytes[slot * Self.lineBytes..<slot * Self.lineBytes + length]))
    }
}
