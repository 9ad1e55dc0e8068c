/// What a reload changes: the keys whose value differs between the running and the new configuration,
/// split into those the running device applies at once and those that need a restart.
public struct ConfigurationChanges: Sendable, Equatable {
    /// One changed key.
    public struct Change: Sendable, Equatable {
        /// `section.key`.
        public var key: String
        public var oldValue: String
        public var newValue: String
        public var live: Bool
    }

    /// Every changed key, in table order.
    public var changes: [Change]

    /// Compares two configurations key by key.
    public init(from old: PuckdConfiguration, to new: PuckdConfiguration) {
        changes = ConfigurationKeys.all.compactMap { key in
            let a = key.read(old), b = key.read(new)
            return a == b ? nil : Change(key: key.qualifiedName, oldValue: a, newValue: b, live: key.live)
        }
    }

    /// True when nothing changed.
    public var isEmpty: Bool { changes.isEmpty }

    /// Changes applied at once.
    public var live: [Change] { changes.filter(\.live) }
    /// Changes that wait for a restart.
    public var needingRestart: [Change] { changes.filter { !$0.live } }

    /// One log sentence: "applied heading.mag_noise 0.5 → 1; needs a restart: gps.source a → b".
    public var summary: String {
        if changes.isEmpty { return "no changes" }
        func list(_ items: [Change]) -> String {
            items.map { $0.key + " " + show($0.oldValue) + " → " + show($0.newValue) }.joined(separator: ", ")
        }
        var parts: [String] = []
        if !live.isEmpty { parts.append("applied " + list(live)) }
        if !needingRestart.isEmpty {
            parts.append("needs a restart (the running value stays until then): " + list(needingRestart))
        }
        return parts.joined(separator: "; ")
    }

    private func show(_ value: String) -> String { value.isEmpty ? "\"\"" : value }
}
