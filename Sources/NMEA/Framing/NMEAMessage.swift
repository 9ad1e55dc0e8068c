/// The kinds of sentence the parser tells apart (used to index counters).
public enum SentenceKind: Int, Sendable, Equatable, CaseIterable {
    case gga, rmc, gll, vtg, gsa, gsv, gst, zda, gns, hdt, ths
    /// `$P…` manufacturer-specific sentences: counted and skipped.
    case proprietary
    /// `!…` encapsulated sentences (AIS `!AIVDM`/`!AIVDO`): counted as "other" and skipped.
    case encapsulated
    /// Any other standard sentence type (GBS, DTM, TXT, ROT …) or a malformed address: counted, skipped.
    case other

    /// Three-letter name for summaries.
    public var name: StaticString {
        switch self {
        case .gga: "GGA"
        case .rmc: "RMC"
        case .gll: "GLL"
        case .vtg: "VTG"
        case .gsa: "GSA"
        case .gsv: "GSV"
        case .gst: "GST"
        case .zda: "ZDA"
        case .gns: "GNS"
        case .hdt: "HDT"
        case .ths: "THS"
        case .proprietary: "proprietary"
        case .encapsulated: "AIS/encapsulated"
        case .other: "other"
        }
    }
}

/// One decoded sentence. Value type with inline storage only: copying it allocates nothing.
public enum NMEAMessage: Sendable, Equatable {
    case gga(GGA)
    case rmc(RMC)
    case gll(GLL)
    case vtg(VTG)
    case gsa(GSA)
    case gsv(GSV)
    case gst(GST)
    case zda(ZDA)
    case gns(GNS)
    case hdt(HDT)
    case ths(THS)
    /// `$P…`: manufacturer-specific, skipped.
    case proprietary
    /// `!…`: AIS and other encapsulated sentences, skipped.
    case encapsulated
    /// A standard sentence type this parser does not decode, skipped.
    case other
    /// A sentence of a decoded type (or with a broken address) that failed to parse, skipped.
    case invalid(SentenceKind, ParseFailure)

    /// The kind of sentence (for an invalid one, the kind it claimed to be).
    public var kind: SentenceKind {
        switch self {
        case .gga: .gga
        case .rmc: .rmc
        case .gll: .gll
        case .vtg: .vtg
        case .gsa: .gsa
        case .gsv: .gsv
        case .gst: .gst
        case .zda: .zda
        case .gns: .gns
        case .hdt: .hdt
        case .ths: .ths
        case .proprietary: .proprietary
        case .encapsulated: .encapsulated
        case .other: .other
        case .invalid(let kind, _): kind
        }
    }
}

/// A decoded sentence with its talker.
public struct ParsedSentence: Sendable, Equatable {
    /// The talker ID (`GP`, `GN` …); `PP` for proprietary sentences and `!!` for encapsulated ones.
    public var talker: Talker
    public var message: NMEAMessage
    /// `message.kind`, stored so that counting does not copy the message.
    public let kind: SentenceKind
    /// Why the parser rejected the sentence, or nil.
    public let failure: ParseFailure?

    public init(talker: Talker, message: NMEAMessage) {
        self.talker = talker
        self.message = message
        kind = message.kind
        if case .invalid(_, let reason) = message { failure = reason } else { failure = nil }
    }

    /// A rejected sentence of `kind`.
    init(talker: Talker, rejected kind: SentenceKind, _ reason: ParseFailure) {
        self.talker = talker
        self.message = .invalid(kind, reason)
        self.kind = kind
        self.failure = reason
    }

    /// A decoded sentence of `kind` (`message.kind == kind`).
    init(talker: Talker, kind: SentenceKind, _ message: NMEAMessage) {
        self.talker = talker
        self.message = message
        self.kind = kind
        self.failure = nil
    }
}
