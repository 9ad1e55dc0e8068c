/// The NMEA 2.3+ mode indicator (RMC/GLL/VTG/GNS field "FAA mode"): how a position was obtained.
public enum PositioningMode: UInt8, Sendable, Equatable {
    case autonomous = 65        // A
    case caution = 67           // C (Quectel: position of doubtful integrity)
    case differential = 68      // D
    case estimated = 69         // E (dead reckoning)
    case floatRTK = 70          // F
    case manual = 77            // M
    case notValid = 78          // N
    case precise = 80           // P
    case fixedRTK = 82          // R
    case simulator = 83         // S
    case unsafe = 85            // U (Quectel: position of doubtful integrity)

    /// True when the indicator says the position is usable.
    public var isValid: Bool { self != .notValid }

    /// The GGA-style quality this indicator corresponds to.
    public var quality: FixQuality {
        switch self {
        case .autonomous, .caution, .unsafe: .gps
        case .differential, .precise: .dgps
        case .estimated: .deadReckoning
        case .floatRTK: .rtkFloat
        case .fixedRTK: .rtkFixed
        case .manual: .manual
        case .simulator: .simulator
        case .notValid: .invalid
        }
    }
}
