/// A UBX message's class and id, e.g. CFG-RATE = 0x06 0x08 (docs/receivers.md lists those puckd uses).
public struct UBXMessageID: Sendable, Equatable, Hashable {
    public var messageClass: UInt8
    public var id: UInt8

    public init(_ messageClass: UInt8, _ id: UInt8) {
        self.messageClass = messageClass
        self.id = id
    }

    public static let ackNak = UBXMessageID(0x05, 0x00)
    public static let ackAck = UBXMessageID(0x05, 0x01)
    public static let cfgPrt = UBXMessageID(0x06, 0x00)
    public static let cfgMsg = UBXMessageID(0x06, 0x01)
    public static let cfgRate = UBXMessageID(0x06, 0x08)
    public static let cfgCfg = UBXMessageID(0x06, 0x09)
    public static let cfgGnss = UBXMessageID(0x06, 0x3E)
    public static let cfgValset = UBXMessageID(0x06, 0x8A)
    public static let monVer = UBXMessageID(0x0A, 0x04)

    /// The u-blox name, e.g. "CFG-RATE" (`UBX 0x01 0x07` style for others), for logs and `watch nmea`.
    public var name: StaticString {
        switch (messageClass, id) {
        case (0x05, 0x00): "ACK-NAK"
        case (0x05, 0x01): "ACK-ACK"
        case (0x06, 0x00): "CFG-PRT"
        case (0x06, 0x01): "CFG-MSG"
        case (0x06, 0x08): "CFG-RATE"
        case (0x06, 0x09): "CFG-CFG"
        case (0x06, 0x3E): "CFG-GNSS"
        case (0x06, 0x8A): "CFG-VALSET"
        case (0x0A, 0x04): "MON-VER"
        case (0x01, _): "NAV"
        case (0x02, _): "RXM"
        case (0x04, _): "INF"
        case (0x05, _): "ACK"
        case (0x06, _): "CFG"
        case (0x0A, _): "MON"
        case (0x0D, _): "TIM"
        default: "UBX"
        }
    }
}

/// The 8-bit Fletcher checksum of UBX (over class, id, length and payload): two running sums.
public struct UBXChecksum: Sendable, Equatable {
    public private(set) var a: UInt8 = 0
    public private(set) var b: UInt8 = 0

    public init() {}

    /// Adds one byte.
    @inline(__always)
    public mutating func add(_ byte: UInt8) {
        a = a &+ byte
        b = b &+ a
    }
}
