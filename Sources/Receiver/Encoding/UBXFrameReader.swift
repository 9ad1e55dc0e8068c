/// Finds UBX frames in the receiver's byte stream (which also carries NMEA) and checks their
/// Fletcher checksums: `B5 62`, class, id, length (little-endian), payload, CK_A, CK_B.
///
/// Bytes arrive in chunks of any size; a frame may be split anywhere. Payloads up to
/// `maximumPayloadLength` bytes are read (enough for MON-VER with 15 extension strings and every
/// ACK); a longer declared length is counted as `oversized` and the reader resynchronises at the next
/// byte, so a false start in line noise cannot hide the replies that follow. Delivered payloads are handed over as
/// a buffer over the reader's own storage, valid during the callback. Allocation-free.
public struct UBXFrameReader: Sendable {
    /// Longest payload kept, bytes.
    public static let maximumPayloadLength = 512

    /// What the reader has seen.
    public private(set) var counters = UBXFrameCounters()

    private var payload = InlineArray<512, UInt8>(repeating: 0)
    private var state = State.sync1
    private var message = UBXMessageID(0, 0)
    private var length = 0
    private var received = 0
    private var sum = UBXChecksum()
    private var checksumA: UInt8 = 0

    private enum State: UInt8, Sendable {
        case sync1, sync2, messageClass, id, length1, length2, payload, checksumA, checksumB
    }

    public init() {}

    /// True while a frame has started but not ended.
    public var isInsideFrame: Bool { state != .sync1 }

    /// Scans `chunk`, calling `deliver` for each frame with a valid checksum (in order).
    public mutating func feed(_ chunk: UnsafeRawBufferPointer,
                              _ deliver: (_ message: UBXMessageID, _ payload: UnsafeRawBufferPointer) -> Void) {
        var i = 0
        while i < chunk.count {
            let byte = chunk[i]
            i += 1
            switch state {
            case .sync1:
                if byte == 0xB5 { state = .sync2 }
            case .sync2:
                state = byte == 0x62 ? .messageClass : (byte == 0xB5 ? .sync2 : .sync1)
            case .messageClass:
                sum = UBXChecksum()
                sum.add(byte)
                message.messageClass = byte
                state = .id
            case .id:
                sum.add(byte)
                message.id = byte
                state = .length1
            case .length1:
                sum.add(byte)
                length = Int(byte)
                state = .length2
            case .length2:
                sum.add(byte)
                length |= Int(byte) << 8
                received = 0
                if length > Self.maximumPayloadLength {
                    // Longer than any reply puckd asks for, or a false start in noise: resynchronise
                    // at once rather than swallow the next `length` bytes (and the replies in them).
                    counters.oversized &+= 1
                    state = .sync1
                    continue
                }
                state = length == 0 ? .checksumA : .payload
            case .payload:
                sum.add(byte)
                payload[received] = byte
                received += 1
                if received == length { state = .checksumA }
            case .checksumA:
                checksumA = byte
                state = .checksumB
            case .checksumB:
                state = .sync1
                counters.frames &+= 1
                guard checksumA == sum.a && byte == sum.b else {
                    counters.badChecksums &+= 1
                    continue
                }
                counters.delivered &+= 1
                counters.deliveredBytes &+= UInt64(length + 8)
                let n = length
                let id = message
                withUnsafeBytes(of: &payload) { raw in
                    deliver(id, UnsafeRawBufferPointer(rebasing: raw[0..<n]))
                }
            }
        }
    }
}

/// Counters of the `UBXFrameReader`, shown by the console's `stats`.
public struct UBXFrameCounters: Sendable, Equatable {
    /// Frames that ended (sync, header, payload and checksum seen).
    public var frames: UInt64 = 0
    /// Frames delivered (valid checksum, payload kept).
    public var delivered: UInt64 = 0
    /// Bytes of delivered frames, header and checksum included.
    public var deliveredBytes: UInt64 = 0
    /// Frames dropped for a checksum mismatch.
    public var badChecksums: UInt64 = 0
    /// Headers whose declared payload was longer than the reader keeps (skipped at once).
    public var oversized: UInt64 = 0

    public init() {}
}
