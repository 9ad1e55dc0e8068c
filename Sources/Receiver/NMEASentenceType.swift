/// The standard NMEA sentences a receiver can be told to send or not, by their three-letter type.
public enum NMEASentenceType: UInt8, Sendable, Equatable, CaseIterable {
    case gga, gll, gsa, gsv, rmc, vtg, grs, gst, zda, gbs, gns, dtm, vlw

    /// Number of types (`rawValue` runs 0 ..< count; loops use it: `allCases` allocates an array).
    public static let count = 13

    /// The type as written in sentences and in `[gps] sentences`, e.g. "RMC".
    public var name: StaticString {
        switch self {
        case .gga: "GGA"
        case .gll: "GLL"
        case .gsa: "GSA"
        case .gsv: "GSV"
        case .rmc: "RMC"
        case .vtg: "VTG"
        case .grs: "GRS"
        case .gst: "GST"
        case .zda: "ZDA"
        case .gbs: "GBS"
        case .gns: "GNS"
        case .dtm: "DTM"
        case .vlw: "VLW"
        }
    }

    /// The message id of the sentence in UBX class 0xF0 (CFG-MSG).
    public var ubxMessageID: UInt8 {
        switch self {
        case .gga: 0x00
        case .gll: 0x01
        case .gsa: 0x02
        case .gsv: 0x03
        case .rmc: 0x04
        case .vtg: 0x05
        case .grs: 0x06
        case .gst: 0x07
        case .zda: 0x08
        case .gbs: 0x09
        case .dtm: 0x0A
        case .gns: 0x0D
        case .vlw: 0x0F
        }
    }

    /// The field of PMTK314 (0-based, after the command number) that sets this sentence's output,
    /// nil when MediaTek has none for it.
    public var pmtk314Field: Int? {
        switch self {
        case .gll: 0
        case .rmc: 1
        case .vtg: 2
        case .gga: 3
        case .gsa: 4
        case .gsv: 5
        case .grs: 6
        case .gst: 7
        case .zda: 17
        default: nil
        }
    }

    /// The type of a sentence from its address (`GPRMC`, `GNGGA` …: the last three letters), nil for
    /// proprietary and unknown ones.
    public static func of(address: UnsafeRawBufferPointer) -> NMEASentenceType? {
        guard address.count == 5, address[0] != UInt8(ascii: "P") else { return nil }
        var raw: UInt8 = 0
        while let type = NMEASentenceType(rawValue: raw) {
            raw += 1
            let n = type.name.utf8Start
            if address[2] == n[0] && address[3] == n[1] && address[4] == n[2] { return type }
        }
        return nil
    }
}

/// A set of NMEA sentence types (`[gps] sentences`).
public struct NMEASentenceSet: OptionSet, Sendable, Equatable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public init(_ type: NMEASentenceType) { rawValue = 1 << UInt16(type.rawValue) }

    /// What puckd reads: RMC (time, date, speed, course), GGA (position, altitude, quality), GSA (fix
    /// mode, DOP, satellites used), GSV (the sky view) and GST (error estimates, where sent).
    public static let needed: NMEASentenceSet = [.init(.rmc), .init(.gga), .init(.gsa), .init(.gsv), .init(.gst)]

    /// True when `type` is in the set.
    public func contains(_ type: NMEASentenceType) -> Bool { rawValue & (1 << UInt16(type.rawValue)) != 0 }
}

/// Satellite systems a receiver can track (`[gps] constellations`).
public struct GNSSConstellations: OptionSet, Sendable, Equatable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let gps = GNSSConstellations(rawValue: 1 << 0)
    public static let glonass = GNSSConstellations(rawValue: 1 << 1)
    public static let galileo = GNSSConstellations(rawValue: 1 << 2)
    public static let beidou = GNSSConstellations(rawValue: 1 << 3)
    public static let qzss = GNSSConstellations(rawValue: 1 << 4)
    public static let sbas = GNSSConstellations(rawValue: 1 << 5)

    /// Every system with its configuration word, in the order `[gps] constellations` lists them.
    public static let named: [(StaticString, GNSSConstellations)] = [
        ("gps", .gps), ("glonass", .glonass), ("galileo", .galileo), ("beidou", .beidou), ("qzss", .qzss), ("sbas", .sbas),
    ]

    /// GPS, GLONASS, Galileo and BeiDou: the systems a u-blox M8 counts against its limit of three.
    public static let major: GNSSConstellations = [.gps, .glonass, .galileo, .beidou]
}
