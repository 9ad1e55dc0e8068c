/// Sentences seen by kind and outcome, and parse failures by reason. Fixed-size, allocation-free.
public struct SentenceStatistics: Sendable {
    private var acceptedByKind: InlineArray<14, Int> = .init(repeating: 0)
    private var rejectedByKind: InlineArray<14, Int> = .init(repeating: 0)
    private var failuresByReason: InlineArray<4, Int> = .init(repeating: 0)

    public init() {}

    /// Sentences of `kind` that parsed (for proprietary/encapsulated/other: that were seen and skipped).
    public func accepted(_ kind: SentenceKind) -> Int { acceptedByKind[kind.rawValue] }
    /// Sentences of `kind` rejected by the parser.
    public func rejected(_ kind: SentenceKind) -> Int { rejectedByKind[kind.rawValue] }
    /// Rejections for `reason`, over all kinds.
    public func failures(_ reason: ParseFailure) -> Int { failuresByReason[Int(reason.rawValue)] }

    /// All sentences counted.
    public var total: Int {
        var n = 0
        for i in 0..<14 { n += acceptedByKind[i] + rejectedByKind[i] }
        return n
    }

    /// All rejected sentences.
    public var totalRejected: Int {
        var n = 0
        for i in 0..<14 { n += rejectedByKind[i] }
        return n
    }

    /// Counts one parse result.
    public mutating func count(_ sentence: borrowing ParsedSentence) {
        if let reason = sentence.failure {
            rejectedByKind[sentence.kind.rawValue] += 1
            failuresByReason[Int(reason.rawValue)] += 1
        } else {
            acceptedByKind[sentence.kind.rawValue] += 1
        }
    }
}
