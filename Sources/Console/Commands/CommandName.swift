/// The console's command words, in the order `help` lists them. `exit` is an alias of `quit` and
/// `?` of `help` (aliases are accepted but not listed).
public enum ConsoleCommandName: UInt8, Sendable, Equatable {
    case help
    case status
    case gps
    case sats
    case heading
    case puck
    case camera
    case mode
    case viewport
    case show
    case accuracy
    case precise
    case pan
    case rotate
    case zoom
    case pitch
    case calibrate
    case leds
    case stats
    case events
    case nmea
    case track
    case uplink
    case server
    case config
    case watch
    case json
    case version
    case press
    case quit
    /// Not typed: what a console locked by a password sends for the line typed at `password:`.
    case login

    /// Number of command words that can be typed (`rawValue` runs 0 ..< count; `login` comes after).
    public static let count = 30

    /// The command at `index` in listing order (0 ..< count).
    public static func at(_ index: Int) -> ConsoleCommandName {
        ConsoleCommandName(rawValue: UInt8(truncatingIfNeeded: index)) ?? .help
    }

    /// The word typed for the command.
    public var word: StaticString {
        switch self {
        case .help: "help"
        case .status: "status"
        case .gps: "gps"
        case .sats: "sats"
        case .heading: "heading"
        case .puck: "puck"
        case .camera: "camera"
        case .mode: "mode"
        case .viewport: "viewport"
        case .show: "show"
        case .accuracy: "accuracy"
        case .precise: "precise"
        case .pan: "pan"
        case .rotate: "rotate"
        case .zoom: "zoom"
        case .pitch: "pitch"
        case .calibrate: "calibrate"
        case .leds: "leds"
        case .stats: "stats"
        case .events: "events"
        case .nmea: "nmea"
        case .track: "track"
        case .uplink: "uplink"
        case .server: "server"
        case .config: "config"
        case .watch: "watch"
        case .json: "json"
        case .version: "version"
        case .press: "press"
        case .quit: "quit"
        case .login: "login"
        }
    }

    /// True for the views `watch` can redraw.
    public var isWatchable: Bool {
        switch self {
        case .status, .gps, .sats, .heading, .puck, .camera, .leds, .stats, .events, .nmea, .track, .uplink, .server: true
        default: false
        }
    }

    /// Every watchable view, as shown in messages.
    public static let watchableList: StaticString = "status, gps, sats, heading, puck, camera, leds, stats, events, nmea, track, uplink, server"

    /// The command named by `word` (ASCII case ignored; aliases `exit` and `?` included), or nil.
    public static func lookup(_ word: UnsafeRawBufferPointer) -> ConsoleCommandName? {
        if CommandWords.equal(word, "exit") { return .quit }
        if CommandWords.equal(word, "?") { return .help }
        var i = 0
        while i < count {
            let name = at(i)
            if CommandWords.equal(word, name.word) { return name }
            i += 1
        }
        return nil
    }
}

/// Comparisons of typed words (ASCII case-insensitive) with static words.
public enum CommandWords {
    /// True when `word` equals `name` ignoring ASCII case.
    public static func equal(_ word: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
        guard word.count == name.utf8CodeUnitCount else { return false }
        var i = 0
        while i < word.count {
            if ConsoleASCII.lowercase(word[i]) != ConsoleASCII.lowercase(name.utf8Start[i]) { return false }
            i += 1
        }
        return true
    }

    /// True when `name` starts with `prefix` ignoring ASCII case.
    public static func hasPrefix(_ name: StaticString, _ prefix: UnsafeRawBufferPointer) -> Bool {
        guard prefix.count <= name.utf8CodeUnitCount else { return false }
        var i = 0
        while i < prefix.count {
            if ConsoleASCII.lowercase(prefix[i]) != ConsoleASCII.lowercase(name.utf8Start[i]) { return false }
            i += 1
        }
        return true
    }
}
