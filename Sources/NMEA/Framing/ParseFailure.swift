/// Why the parser rejected a sentence of a known type (the sentence is counted and skipped).
public enum ParseFailure: UInt8, Error, Sendable, Equatable, CaseIterable {
    /// The address field is not `$` + two-letter talker + three-letter type (or `$P…`).
    case malformedAddress
    /// Fewer fields than the sentence type requires.
    case tooFewFields
    /// A field that must be a number, time, date or letter is not one.
    case malformedField
    /// A field is well formed but outside its physical range (latitude > 90°, minute 61, month 13 …).
    case outOfRange

    /// One-line explanation for summaries.
    public var description: StaticString {
        switch self {
        case .malformedAddress: "malformed address field"
        case .tooFewFields: "too few fields"
        case .malformedField: "malformed field"
        case .outOfRange: "value out of range"
        }
    }
}
