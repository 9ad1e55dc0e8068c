/// MQTT 3.1.1 control packets a publishing client sends (OASIS MQTT 3.1.1 §3), encoded into a
/// caller-owned buffer. docs/uplink.md §2 lists what puckd sends and why.
public enum MQTTPacketEncoder {
    /// The last will and the credentials of a CONNECT; every byte string is borrowed from the caller.
    public struct Connect {
        public var clientIdentifier: UnsafeRawBufferPointer
        public var username: UnsafeRawBufferPointer?
        public var password: UnsafeRawBufferPointer?
        public var willTopic: UnsafeRawBufferPointer?
        public var willMessage: UnsafeRawBufferPointer
        public var willRetained: Bool
        public var keepAliveSeconds: UInt16
        public var cleanSession: Bool

        public init(clientIdentifier: UnsafeRawBufferPointer, username: UnsafeRawBufferPointer?, password: UnsafeRawBufferPointer?,
                    willTopic: UnsafeRawBufferPointer?, willMessage: UnsafeRawBufferPointer, willRetained: Bool,
                    keepAliveSeconds: UInt16, cleanSession: Bool = true) {
            self.clientIdentifier = clientIdentifier
            self.username = username
            self.password = password
            self.willTopic = willTopic
            self.willMessage = willMessage
            self.willRetained = willRetained
            self.keepAliveSeconds = keepAliveSeconds
            self.cleanSession = cleanSession
        }
    }

    /// The "remaining length" of a fixed header: 7 bits per byte, least significant first, ≤ 4 bytes.
    public static func remainingLength(_ length: Int, into out: inout UplinkByteWriter) {
        precondition(length >= 0 && length <= 268_435_455)
        var value = length
        repeat {
            var encoded = UInt8(value & 0x7F)
            value >>= 7
            if value > 0 { encoded |= 0x80 }
            out.byte(encoded)
        } while value > 0
    }

    static func string(_ bytes: UnsafeRawBufferPointer, into out: inout UplinkByteWriter) {
        out.uint16BigEndian(UInt16(truncatingIfNeeded: bytes.count))
        out.bytes(bytes)
    }

    /// CONNECT (§3.1): protocol "MQTT" level 4, flags, keep-alive, then client id, will, user, password.
    public static func connect(_ c: Connect, into out: inout UplinkByteWriter) {
        var flags: UInt8 = c.cleanSession ? 0x02 : 0
        var length = 10 + 2 + c.clientIdentifier.count
        if let topic = c.willTopic {
            flags |= 0x04 | (c.willRetained ? 0x20 : 0)   // will QoS 0
            length += 2 + topic.count + 2 + c.willMessage.count
        }
        if let user = c.username { flags |= 0x80; length += 2 + user.count }
        if let password = c.password, c.username != nil { flags |= 0x40; length += 2 + password.count }
        out.byte(0x10)
        remainingLength(length, into: &out)
        out.uint16BigEndian(4)
        out.text("MQTT")
        out.byte(4)
        out.byte(flags)
        out.uint16BigEndian(c.keepAliveSeconds)
        string(c.clientIdentifier, into: &out)
        if let topic = c.willTopic {
            string(topic, into: &out)
            string(c.willMessage, into: &out)
        }
        if let user = c.username { string(user, into: &out) }
        if let password = c.password, c.username != nil { string(password, into: &out) }
    }

    /// PUBLISH (§3.3) at QoS 0 (packetIdentifier nil) or QoS 1.
    public static func publish(topic: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer, packetIdentifier: UInt16?,
                               retain: Bool, duplicate: Bool = false, into out: inout UplinkByteWriter) {
        var header: UInt8 = 0x30 | (retain ? 0x01 : 0)
        var length = 2 + topic.count + payload.count
        if packetIdentifier != nil {
            header |= 0x02 | (duplicate ? 0x08 : 0)
            length += 2
        }
        out.byte(header)
        remainingLength(length, into: &out)
        string(topic, into: &out)
        if let id = packetIdentifier { out.uint16BigEndian(id) }
        out.bytes(payload)
    }

    /// PINGREQ (§3.12).
    public static func pingRequest(into out: inout UplinkByteWriter) { out.byte(0xC0); out.byte(0) }

    /// DISCONNECT (§3.14): the broker then discards the will (a clean shutdown is not "offline" by will;
    /// puckd publishes the retained `offline` itself before it).
    public static func disconnect(into out: inout UplinkByteWriter) { out.byte(0xE0); out.byte(0) }
}
