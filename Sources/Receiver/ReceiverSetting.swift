/// One thing puckd configures on the receiver, in the order it configures them: the line speed first
/// (later replies come faster), then fewer sentences (less traffic), constellations, the rate, and
/// last the save (which stores all of it).
public enum ReceiverSetting: UInt8, Sendable, Equatable, CaseIterable {
    case baud, sentences, constellations, rate, save

    /// Number of settings (`rawValue` runs 0 ..< count; loops use it: `allCases` allocates an array).
    public static let count = 5

    /// The `[gps]` key that asks for it.
    public var key: StaticString {
        switch self {
        case .baud: "configure_baud"
        case .sentences: "sentences"
        case .constellations: "constellations"
        case .rate: "rate_hz"
        case .save: "save"
        }
    }

    /// For logs and the console.
    public var name: StaticString {
        switch self {
        case .baud: "baud rate"
        case .sentences: "sentences"
        case .constellations: "constellations"
        case .rate: "rate"
        case .save: "save"
        }
    }
}

/// How far one setting got.
public enum ReceiverOutcome: UInt8, Sendable, Equatable {
    /// The key says keep: nothing sent.
    case notAsked
    /// Asked for, not done yet.
    case pending
    /// Acknowledged by the receiver (a baud rate: NMEA verified at the new rate).
    case applied
    /// Some parts acknowledged, others refused (e.g. a sentence type the receiver does not have).
    case partlyApplied
    /// Refused: UBX-ACK-NAK, `$PMTK001` flag 0/1/2, or a baud rate the receiver did not switch to.
    case refused
    /// No reply after every attempt.
    case noAnswer
    /// The receiver family has no command for it (save on MediaTek/Quectel).
    case unsupported
    /// Not sent because the receiver was not recognized.
    case notSent

    /// For logs and the console.
    public var name: StaticString {
        switch self {
        case .notAsked: "kept"
        case .pending: "pending"
        case .applied: "applied"
        case .partlyApplied: "partly applied"
        case .refused: "refused"
        case .noAnswer: "no answer"
        case .unsupported: "not supported"
        case .notSent: "not sent"
        }
    }

    /// True when the receiver did not do (all of) what was asked.
    public var isProblem: Bool {
        switch self {
        case .partlyApplied, .refused, .noAnswer, .unsupported, .notSent: true
        case .notAsked, .pending, .applied: false
        }
    }
}

/// What a command expects back.
public enum ExpectedReply: Sendable, Equatable {
    /// UBX-ACK-ACK (or ACK-NAK) for this message.
    case ubx(UBXMessageID)
    /// `$PMTK001,command,flag`.
    case pmtk(Int)
    /// Nothing (PMTK251 switches without a reply): the result is checked another way.
    case nothing
    /// A version reply or any sign of the receiver's family (identification).
    case identity
}
