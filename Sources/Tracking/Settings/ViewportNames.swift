/// The names of the viewport states, in one table: `name` is the identifier (Mapbox's state names, as
/// JSON lines, scenario output and `replay --track` write them), `word` the word a person types and
/// reads (console `viewport follow`, `[tracking] initial_viewport`, the status line and the log).
extension ViewportStateKind {
    /// "followPuck", "overview".
    public var name: StaticString {
        switch self {
        case .followPuck: "followPuck"
        case .overview: "overview"
        }
    }

    /// "follow", "overview".
    public var word: StaticString {
        switch self {
        case .followPuck: "follow"
        case .overview: "overview"
        }
    }

    /// The state named `name` as `name` spells it, or "follow-puck" (an older spelling `replay` accepts).
    public init?(name: String) {
        switch name {
        case "followPuck", "follow-puck": self = .followPuck
        case "overview": self = .overview
        default: return nil
        }
    }
}

extension ViewportStatus {
    /// The word for no viewport state.
    public static let idleWord: StaticString = "idle"

    /// The status line's word: "idle", "follow", "overview", or "→follow" / "→overview" while the
    /// transition to that state runs (allocation-free).
    public var word: StaticString {
        switch self {
        case .idle: ViewportStatus.idleWord
        case .state(.followPuck): "follow"
        case .state(.overview): "overview"
        case .transition(_, to: .followPuck): "→follow"
        case .transition(_, to: .overview): "→overview"
        }
    }
}
