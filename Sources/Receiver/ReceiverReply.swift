/// A receiver's answer to a command: UBX-ACK-ACK / ACK-NAK (payload: the class and id acknowledged)
/// or MediaTek `$PMTK001,CMD,FLAG` (0 invalid command, 1 unsupported, 2 valid but failed, 3 done).
public enum ReceiverReply: Sendable, Equatable {
    /// UBX-ACK-ACK for the message.
    case ubxAck(UBXMessageID)
    /// UBX-ACK-NAK for the message.
    case ubxNak(UBXMessageID)
    /// `$PMTK001` for command number `command` with `flag`.
    case pmtk(command: Int, flag: Int)

    /// The reply a UBX frame carries, nil when it is no ACK-ACK / ACK-NAK.
    public static func from(ubx message: UBXMessageID, payload: UnsafeRawBufferPointer) -> ReceiverReply? {
        guard message.messageClass == 0x05, payload.count >= 2 else { return nil }
        let acknowledged = UBXMessageID(payload[0], payload[1])
        switch message.id {
        case 0x01: return .ubxAck(acknowledged)
        case 0x00: return .ubxNak(acknowledged)
        default: return nil
        }
    }

    /// The reply a sentence carries (`$PMTK001,220,3`), nil when it is none.
    public static func from(sentence s: UnsafeRawBufferPointer) -> ReceiverReply? {
        guard ReceiverRecognizer.matches(s, at: 0, "$PMTK001,") else { return nil }
        let command = ReceiverRecognizer.fieldBytes(s, 1)
        let flag = ReceiverRecognizer.fieldBytes(s, 2)
        guard let c = decimal(command), let f = decimal(flag) else { return nil }
        return .pmtk(command: c, flag: f)
    }

    private static func decimal(_ text: UnsafeRawBufferPointer) -> Int? {
        guard !text.isEmpty, text.count <= 6 else { return nil }
        var value = 0
        var i = 0
        while i < text.count {
            let d = text[i]
            guard d >= UInt8(ascii: "0") && d <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(d - UInt8(ascii: "0"))
            i += 1
        }
        return value
    }
}
