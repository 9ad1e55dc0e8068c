import CBundledData

/// The board profiles of `board/*.conf`, compiled into puckd (`board_profiles.c`), and how
/// `puckd run --board X` finds one: a value with a `/` or ending in `.conf` is a file path, anything
/// else the name of a built-in profile.
public enum BoardProfiles {
    /// Names of the built-in profiles, in `board_profiles.c` order.
    public static var names: [String] {
        (0..<board_profile_count()).map { String(cString: board_profile_name($0)) }
    }

    /// The text of the built-in profile `name`, or nil.
    public static func builtIn(_ name: String) -> String? {
        for index in 0..<board_profile_count() where String(cString: board_profile_name(index)) == name {
            let bytes = UnsafeRawBufferPointer(start: board_profile_bytes(index), count: board_profile_length(index))
            return String(decoding: bytes, as: UTF8.self)
        }
        return nil
    }

    /// The parsed profile `--board` names: a built-in one (document name `board/NAME.conf (built in)`)
    /// or a file.
    public static func document(for board: String) throws(ConfigurationError) -> ConfigurationDocument {
        if board.contains("/") || board.hasSuffix(".conf") {
            return ConfigurationDocument(name: board, text: try ConfigurationLoader.readFile(board))
        }
        guard let text = builtIn(board) else {
            throw ConfigurationError(location: "--board " + board,
                                     reason: "no such board profile; built-in profiles are " + names.joined(separator: ", ")
                                        + ", or give the path of a profile file")
        }
        return ConfigurationDocument(name: "board/" + board + ".conf (built in)", text: text)
    }
}
