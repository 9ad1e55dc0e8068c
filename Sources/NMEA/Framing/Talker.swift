/// A satellite navigation system.
public enum Constellation: UInt8, Sendable, Equatable, CaseIterable {
    case gps = 0
    case sbas = 1
    case galileo = 2
    case beidou = 3
    case imes = 4
    case qzss = 5
    case glonass = 6
    case navic = 7
    /// The talker or PRN does not say which system.
    case unknown = 255

    /// Short name for summaries (`GPS`, `GLONASS` …).
    public var name: StaticString {
        switch self {
        case .gps: "GPS"
        case .sbas: "SBAS"
        case .galileo: "Galileo"
        case .beidou: "BeiDou"
        case .imes: "IMES"
        case .qzss: "QZSS"
        case .glonass: "GLONASS"
        case .navic: "NavIC"
        case .unknown: "unknown"
        }
    }

    /// The system for an NMEA 4.10 GNSS system ID (GSA field 18, GSV signal tables).
    public init(nmeaSystemID: Int) {
        switch nmeaSystemID {
        case 1: self = .gps
        case 2: self = .glonass
        case 3: self = .galileo
        case 4: self = .beidou
        case 5: self = .qzss
        case 6: self = .navic
        default: self = .unknown
        }
    }
}

/// The two-letter talker ID of a sentence (`GP`, `GN`, `GL`, `GA`, `GB`, `BD`, `GQ`, `QZ`, `GI`, `IN`,
/// `HE` …), as its two ASCII bytes.
public struct Talker: Sendable, Equatable, Hashable {
    public var first: UInt8
    public var second: UInt8

    public init(_ first: UInt8, _ second: UInt8) {
        self.first = first
        self.second = second
    }

    /// `GN`: a combined multi-constellation solution.
    public var isCombined: Bool { first == 0x47 && second == 0x4E }

    /// The single constellation this talker stands for, or nil for `GN`, `IN` (integrated navigation)
    /// and non-GNSS talkers (`HE` gyro compass …).
    public var constellation: Constellation? {
        switch (first, second) {
        case (0x47, 0x50): .gps          // GP
        case (0x47, 0x4C): .glonass      // GL
        case (0x47, 0x41): .galileo      // GA
        case (0x47, 0x42), (0x42, 0x44): .beidou   // GB, BD
        case (0x47, 0x51), (0x51, 0x5A): .qzss     // GQ, QZ
        case (0x47, 0x49): .navic                  // GI
        default: nil
        }
    }
}
