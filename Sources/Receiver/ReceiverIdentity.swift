/// What puckd knows about the receiver it talks to: the family (command set), the u-blox protocol
/// version, the model and firmware texts, and how it learnt them. Filled by `ReceiverRecognizer` from
/// the receiver's own words, or from the board profile.
public struct ReceiverIdentity: Sendable, Equatable {
    /// How the family became known, from weakest to strongest evidence.
    public enum Evidence: UInt8, Sendable, Equatable, Comparable {
        /// Nothing yet.
        case none
        /// Traffic in the family's protocol (a UBX frame, a `$PMTK001` or `$PQ…` sentence).
        case traffic
        /// A start-up or version text (`$GxTXT`, `$PMTK010`/`$PMTK011`).
        case announcement
        /// `[gps] receiver` in the configuration (the board profile).
        case configuration
        /// A version reply puckd asked for (UBX-MON-VER, `$PMTK705`, `$PQVERNO`).
        case versionReply

        public static func < (a: Evidence, b: Evidence) -> Bool { a.rawValue < b.rawValue }

        /// For logs and the console.
        public var name: StaticString {
            switch self {
            case .none: "nothing"
            case .traffic: "its traffic"
            case .announcement: "its start-up text"
            case .configuration: "[gps] receiver"
            case .versionReply: "its version reply"
            }
        }
    }

    /// The family, nil until known.
    public var family: ReceiverFamily?
    /// How `family` became known.
    public var evidence = Evidence.none
    /// u-blox protocol version in hundredths (18.00 → 1800), 0 when unknown.
    public var protocolVersion = 0
    /// Module or product name: "CAM-M8C", "PA6H", "Quectel-L76B".
    public var model = ReceiverText()
    /// Firmware: "SPG 3.01", "AXN_2.31_3339_13101700", "L76BNR02A01S".
    public var firmware = ReceiverText()
    /// u-blox hardware version ("00080000"), empty for others.
    public var hardware = ReceiverText()

    public init() {}

    /// Takes `family` when the evidence is at least as strong as what set the current one; a u-blox
    /// generation once known is kept when weaker evidence only says "u-blox".
    public mutating func learn(_ family: ReceiverFamily, evidence: Evidence) {
        if case .ublox(let new) = family, new == 0, case .ublox(let old)? = self.family, old != 0 {
            if evidence > self.evidence { self.evidence = evidence }
            return
        }
        guard evidence >= self.evidence || self.family == nil else { return }
        // Another maker's receiver (u-blox ↔ MediaTek/Quectel, e.g. a new receiver whose $PMTK011 comes
        // before its $PMTK010,001): the texts described the one before it.
        if let old = self.family, old.isUblox != family.isUblox {
            model = ReceiverText()
            firmware = ReceiverText()
            hardware = ReceiverText()
            protocolVersion = 0
        }
        self.family = family
        self.evidence = evidence
    }

    /// A restart announcement: another receiver may have been plugged in. The family stays as a guess
    /// (weakest evidence, so the announcement and the replies that follow decide), the texts go.
    mutating func forgetForRestart() {
        if evidence > .traffic { evidence = .traffic }
        model = ReceiverText()
        firmware = ReceiverText()
        hardware = ReceiverText()
        protocolVersion = 0
        if case .ublox? = family { family = .ublox(generation: 0) }
    }

    /// Sets the u-blox generation from the hardware version or protocol version when known.
    mutating func resolveUbloxGeneration() {
        guard case .ublox(let generation)? = family else { return }
        var g = ReceiverFamily.ubloxGeneration(hardwareVersion: hardware)
        if g == 0 { g = ReceiverFamily.ubloxGeneration(protocolVersion: protocolVersion) }
        if g != 0 && g != generation { family = .ublox(generation: g) }
    }
}
