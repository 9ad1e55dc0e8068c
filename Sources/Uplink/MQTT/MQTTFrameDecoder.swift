/// What a publishing client can receive from a broker (OASIS MQTT 3.1.1 §3), decoded.
public enum MQTTIncomingPacket: Equatable, Sendable {
    case connectAcknowledgement(sessionPresent: Bool, returnCode: UInt8)
    case publishAcknowledgement(packetIdentifier: UInt16)
    case pingResponse
    /// A PUBLISH, SUBACK or UNSUBACK: valid, but nothing a publisher acts on.
    case ignored(packetType: UInt8)
}

/// Why the byte stream from the broker cannot be MQTT: the connection must be closed (MQTT has no
/// resynchronisation point; §4.8 says a client closes the connection on a protocol violation).
public enum MQTTProtocolViolation: UInt8, Error, Sendable, Equatable {
    /// A remaining length longer than 4 bytes.
    case malformedRemainingLength
    /// A packet type a server never sends to a client (CONNECT, PINGREQ, reserved 0 and 15…).
    case unexpectedPacketType
    /// Reserved flag bits set, or a length that does not fit the packet type.
    case malformedPacket
}

/// Splits the broker's byte stream into MQTT packets, whatever the read boundaries (a packet split
/// across reads, many packets in one read). Fixed storage; packets a publisher ignores are skipped
/// without being stored, so a large PUBLISH costs no memory.
public struct MQTTFrameDecoder {
    private enum Phase { case header, length, body, skipping }
    private var phase = Phase.header
    private var header: UInt8 = 0
    private var length = 0
    private var lengthMultiplier = 1
    private var lengthBytes = 0
    /// Body bytes of the packets it decodes (at most 2: CONNACK, PUBACK).
    private var body: (UInt8, UInt8) = (0, 0)
    private var bodyCount = 0
    /// Bytes skipped (bodies of ignored packets).
    public private(set) var skippedBytes: UInt64 = 0

    public init() {}

    /// Back to the start of a packet (a new connection).
    public mutating func reset() {
        phase = .header
        bodyCount = 0
        lengthBytes = 0
    }

    /// Feeds bytes; calls `onPacket` for each complete packet. On a violation it stops, returns it, and
    /// the caller closes the connection (then `reset()` for the next one).
    public mutating func feed(_ bytes: UnsafeRawBufferPointer,
                              onPacket: (MQTTIncomingPacket) -> Void) -> MQTTProtocolViolation? {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            switch phase {
            case .header:
                header = b
                length = 0
                lengthMultiplier = 1
                lengthBytes = 0
                bodyCount = 0
                phase = .length
            case .length:
                length += Int(b & 0x7F) * lengthMultiplier
                lengthMultiplier *= 128
                lengthBytes += 1
                if b & 0x80 != 0 {
                    if lengthBytes == 4 { return .malformedRemainingLength }
                    continue
                }
                if let violation = begin(onPacket: onPacket) { return violation }
            case .body:
                if bodyCount == 0 { body.0 = b } else { body.1 = b }
                bodyCount += 1
                if bodyCount == length { finish(onPacket: onPacket); phase = .header }
            case .skipping:
                let take = min(length - bodyCount, bytes.count - (i - 1))
                bodyCount += take
                skippedBytes += UInt64(take)
                i += take - 1
                if bodyCount == length { onPacket(.ignored(packetType: header >> 4)); phase = .header }
            }
        }
        return nil
    }

    /// The fixed header is complete: check the type, flags and length.
    private mutating func begin(onPacket: (MQTTIncomingPacket) -> Void) -> MQTTProtocolViolation? {
        let type = header >> 4
        let flags = header & 0x0F
        switch type {
        case 2, 4:   // CONNACK, PUBACK: flags 0, 2 bytes
            guard flags == 0, length == 2 else { return .malformedPacket }
            phase = .body
        case 13:     // PINGRESP
            guard flags == 0, length == 0 else { return .malformedPacket }
            onPacket(.pingResponse)
            phase = .header
        case 3, 9, 11:   // PUBLISH (any flags but QoS 3), SUBACK, UNSUBACK
            if type == 3 && (flags & 0x06) == 0x06 { return .malformedPacket }
            if type != 3 && flags != 0 { return .malformedPacket }
            if length == 0 { onPacket(.ignored(packetType: type)); phase = .header } else { phase = .skipping }
        default:
            return .unexpectedPacketType
        }
        return nil
    }

    private mutating func finish(onPacket: (MQTTIncomingPacket) -> Void) {
        if header >> 4 == 2 {
            onPacket(.connectAcknowledgement(sessionPresent: body.0 & 0x01 != 0, returnCode: body.1))
        } else {
            onPacket(.publishAcknowledgement(packetIdentifier: UInt16(body.0) << 8 | UInt16(body.1)))
        }
    }
}
