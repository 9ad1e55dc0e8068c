import Tracking

/// Turns one command line (printable ASCII) into a `ConsoleCommand` with range-checked arguments, or
/// a `CommandError` that says what is wrong and what is allowed. Words are case-insensitive except
/// purpose keys, config keys and values. A line starting with `#` is a comment. Allocation-free.
public enum CommandParser {
    /// The result of parsing one line.
    public enum Outcome: Sendable, Equatable {
        /// Blank line or comment: nothing to do.
        case empty
        case command(ConsoleCommand)
        case error(CommandError)
    }

    /// Argument ranges (inclusive), shared with the help text and the tests.
    public enum Limits {
        public static let zoom = (minimum: 0.0, maximum: 25.5)
        public static let pitchDegrees = (minimum: 0.0, maximum: 85.0)
        public static let bearingDegrees = (minimum: 0.0, maximum: 360.0)
        public static let rotateDegrees = (minimum: -360.0, maximum: 360.0)
        public static let panPoints = (minimum: -10_000.0, maximum: 10_000.0)
        public static let watchHertz = (minimum: 0.1, maximum: 60.0)
        public static let eventCount = (minimum: 1, maximum: ConsoleEventLog.capacity)
        /// Purpose keys: 1…64 bytes of letters, digits, `.`, `_`, `-`.
        public static let purposeKeyLength = 64
        /// Config keys: 1…48 bytes of letters, digits, `.`, `_`, `-`.
        public static let configKeyLength = 48
        /// Events shown by `events` without N.
        public static let defaultEventCount = 10
        /// Lines shown by `nmea` without N.
        public static let defaultNMEACount = 20
        /// Watch rate without HZ.
        public static let defaultWatchHertz = 1.0
    }

    /// Parses `line`.
    public static func parse(_ line: UnsafeRawBufferPointer) -> Outcome {
        let words = CommandTokens(line)
        guard words.count > 0, words[0][0] != UInt8(ascii: "#") else { return .empty }
        guard let name = ConsoleCommandName.lookup(words[0]) else {
            return .error(CommandError(command: nil, kind: .unknownCommand(suggestion: SuggestNearest.command(for: words[0])),
                                       text: ConsoleText(bytes: words[0])))
        }
        var p = Arguments(name: name, words: words)
        switch p.parse() {
        case .success(let command): return .command(command)
        case .failure(let error): return .error(error)
        }
    }

    /// Parses `line` given as a String (tests and start-up scripts; allocation-free for native strings).
    public static func parse(_ line: String) -> Outcome {
        var s = line
        return s.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }
}

/// The per-command argument rules.
struct Arguments {
    let name: ConsoleCommandName
    let words: CommandTokens

    init(name: ConsoleCommandName, words: CommandTokens) {
        self.name = name
        self.words = words
    }

    var argumentCount: Int { words.count - 1 }

    mutating func parse() -> Result<ConsoleCommand, CommandError> {
        switch name {
        case .status: return noArguments(.view(.status))
        case .gps: return noArguments(.view(.gps))
        case .sats: return noArguments(.view(.sats))
        case .heading: return noArguments(.view(.heading))
        case .puck: return noArguments(.view(.puck))
        case .camera: return noArguments(.view(.camera))
        case .leds: return noArguments(.view(.leds))
        case .stats: return noArguments(.view(.stats))
        case .track: return noArguments(.view(.track))
        case .uplink: return noArguments(.view(.uplink))
        case .server: return noArguments(.view(.server))
        case .version: return noArguments(.version)
        case .quit: return noArguments(.quit(.command))
        case .login: return .failure(CommandError(command: nil, kind: .unknownCommand(suggestion: nil)))   // never looked up
        case .help: return help()
        case .events: return events()
        case .nmea: return nmea()
        case .mode: return mode()
        case .viewport: return viewport()
        case .show:
            return optionalKeyword(.onOff).map { $0.map { .showUserLocation($0 == 0) } ?? .showUserLocation(nil) }
        case .json:
            return optionalKeyword(.onOff).map { $0.map { .json($0 == 0) } ?? .json(nil) }
        case .accuracy:
            return optionalKeyword(.accuracy).map { index in
                .accuracy(index.map { $0 == 0 ? AccuracyAuthorization.full : .reduced })
            }
        case .precise: return precise()
        case .pan: return pan()
        case .rotate:
            return singleNumber("rotation in degrees", CommandParser.Limits.rotateDegrees, unit: "degrees").map { .rotate(degrees: $0) }
        case .zoom:
            return singleNumber("zoom level", CommandParser.Limits.zoom, unit: "").map { .zoom(level: $0) }
        case .pitch:
            return singleNumber("pitch in degrees", CommandParser.Limits.pitchDegrees, unit: "degrees").map { .pitch(degrees: $0) }
        case .calibrate: return calibrate()
        case .config: return config()
        case .watch: return watch()
        case .press: return press()
        }
    }

    // MARK: building blocks

    func error(_ kind: CommandError.Kind, word index: Int? = nil) -> Result<ConsoleCommand, CommandError> {
        .failure(CommandError(command: name, kind: kind, text: index.map { ConsoleText(bytes: words[$0]) } ?? ConsoleText()))
    }

    func failure(_ kind: CommandError.Kind, word index: Int) -> CommandError {
        CommandError(command: name, kind: kind, text: ConsoleText(bytes: words[index]))
    }

    func noArguments(_ command: ConsoleCommand) -> Result<ConsoleCommand, CommandError> {
        argumentCount == 0 ? .success(command) : error(.unexpectedArgument, word: 1)
    }

    /// Word `index` as one of `keywords`.
    func keyword(_ keywords: CommandKeywords, at index: Int) -> Result<Int, CommandError> {
        if let k = keywords.index(of: words[index]) { return .success(k) }
        return .failure(failure(.unknownKeyword(keywords, suggestion: SuggestNearest.keyword(for: words[index], in: keywords)),
                                word: index))
    }

    /// Nothing (nil) or exactly one keyword.
    func optionalKeyword(_ keywords: CommandKeywords) -> Result<Int?, CommandError> {
        if argumentCount == 0 { return .success(nil) }
        if argumentCount > 1 { return .failure(failure(.unexpectedArgument, word: 2)) }
        return keyword(keywords, at: 1).map { Optional($0) }
    }

    /// Word `index` as a number within `limits`.
    func number(at index: Int, _ what: StaticStringBox, _ limits: (minimum: Double, maximum: Double),
                unit: StaticStringBox, option: StaticStringBox = "") -> Result<Double, CommandError> {
        number(words[index], index: index, what, limits, unit: unit, option: option)
    }

    func number(_ bytes: UnsafeRawBufferPointer, index: Int, _ what: StaticStringBox,
                _ limits: (minimum: Double, maximum: Double), unit: StaticStringBox,
                option: StaticStringBox = "") -> Result<Double, CommandError> {
        guard let value = CommandNumber.parse(bytes) else {
            return .failure(CommandError(command: name, kind: .notANumber(what: what), text: ConsoleText(bytes: bytes)))
        }
        guard value >= limits.minimum && value <= limits.maximum else {
            return .failure(CommandError(command: name,
                                         kind: .outOfRange(what: option, minimum: limits.minimum,
                                                           maximum: limits.maximum, unit: unit),
                                         text: ConsoleText(bytes: bytes)))
        }
        return .success(value == 0 ? 0 : value)   // no -0 in replies
    }

    func singleNumber(_ what: StaticStringBox, _ limits: (minimum: Double, maximum: Double),
                      unit: StaticStringBox) -> Result<Double, CommandError> {
        if argumentCount == 0 { return .failure(CommandError(command: name, kind: .missingArgument(what: what))) }
        if argumentCount > 1 { return .failure(failure(.unexpectedArgument, word: 2)) }
        return number(at: 1, what, limits, unit: unit)
    }

    /// True when `word` is 1…`limit` bytes of letters, digits, `.`, `_`, `-`.
    static func isIdentifier(_ word: UnsafeRawBufferPointer, limit: Int) -> Bool {
        guard word.count > 0 && word.count <= limit else { return false }
        var i = 0
        while i < word.count {
            let b = word[i]
            guard ConsoleASCII.isLetter(b) || ConsoleASCII.isDigit(b) || b == UInt8(ascii: ".")
                || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") else { return false }
            i += 1
        }
        return true
    }
}
