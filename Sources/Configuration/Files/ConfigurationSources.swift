/// Where the configuration comes from, so a SIGHUP can read it again: the board profile (`--board`),
/// the configuration file (`--config` or /etc/puckd.conf) and the `--set` overrides.
public struct ConfigurationSources: Sendable, Equatable {
    /// `--board` value (a built-in profile name or a path), if any.
    public var board: String?
    /// Configuration file path, if any.
    public var file: String?
    /// `--set` texts, in order.
    public var overrides: [String]

    public init(board: String? = nil, file: String? = nil, overrides: [String] = []) {
        self.board = board
        self.file = file
        self.overrides = overrides
    }

    /// Reads and validates all layers.
    public func load() throws(ConfigurationError) -> LoadedConfiguration {
        var documents: [ConfigurationDocument] = []
        if let board { documents.append(try BoardProfiles.document(for: board)) }
        if let file { documents.append(ConfigurationDocument(name: file, text: try ConfigurationLoader.readFile(file))) }
        return try ConfigurationLoader.load(documents: documents, overrides: overrides)
    }

    /// "board/sim.conf (built in) + /etc/puckd.conf + 2 --set" for messages.
    public var summary: String {
        var parts: [String] = []
        if let board { parts.append(board.contains("/") || board.hasSuffix(".conf") ? board : "board/" + board + ".conf (built in)") }
        if let file { parts.append(file) }
        if !overrides.isEmpty { parts.append(overrides.map { "--set " + $0 }.joined(separator: " ")) }
        return parts.isEmpty ? "the defaults" : parts.joined(separator: " + ")
    }
}
