import Tracking

/// The argument rules of the commands that take more than a keyword.
extension Arguments {
    func help() -> Result<ConsoleCommand, CommandError> {
        if argumentCount == 0 { return .success(.help(nil)) }
        if argumentCount > 1 { return error(.unexpectedArgument, word: 2) }
        guard let topic = ConsoleCommandName.lookup(words[1]) else {
            return error(.unknownCommand(suggestion: SuggestNearest.command(for: words[1])), word: 1)
        }
        return .success(.help(topic))
    }

    func events() -> Result<ConsoleCommand, CommandError> {
        if argumentCount == 0 { return .success(.view(.events(count: CommandParser.Limits.defaultEventCount))) }
        if argumentCount > 1 { return error(.unexpectedArgument, word: 2) }
        let limits = CommandParser.Limits.eventCount
        return number(at: 1, "a whole number of events", (Double(limits.minimum), Double(limits.maximum)), unit: "events")
            .flatMap { value in
                value == value.rounded(.down) ? .success(.view(.events(count: Int(value))))
                    : error(.notANumber(what: "a whole number of events"), word: 1)
            }
    }

    func nmea() -> Result<ConsoleCommand, CommandError> {
        if argumentCount == 0 { return .success(.view(.nmea(count: CommandParser.Limits.defaultNMEACount))) }
        if argumentCount > 1 { return error(.unexpectedArgument, word: 2) }
        return number(at: 1, "a whole number of lines", (1, Double(NMEASentenceLog.capacity)), unit: "lines")
            .flatMap { value in
                value == value.rounded(.down) ? .success(.view(.nmea(count: Int(value))))
                    : error(.notANumber(what: "a whole number of lines"), word: 1)
            }
    }

    func mode() -> Result<ConsoleCommand, CommandError> {
        if argumentCount == 0 { return .success(.mode(.show)) }
        if argumentCount > 2 { return error(.unexpectedArgument, word: 3) }
        let chosen: Int
        switch keyword(.mode, at: 1) {
        case .failure(let e): return .failure(e)
        case .success(let index): chosen = index
        }
        var animated = true
        if argumentCount == 2 {
            guard CommandKeywords.immediate.index(of: words[2]) != nil else {
                return error(.unknownKeyword(.immediate, suggestion: SuggestNearest.keyword(for: words[2], in: .immediate)),
                             word: 2)
            }
            animated = false
        }
        if chosen < 8, let mode = TrackingMode(rawValue: UInt8(chosen)) { return .success(.mode(.set(mode, animated: animated))) }
        return .success(.mode(.next(animated: animated)))
    }

    func viewport() -> Result<ConsoleCommand, CommandError> {
        if argumentCount == 0 { return .success(.viewport(.show)) }
        switch keyword(.viewport, at: 1) {
        case .failure(let e): return .failure(e)
        case .success(0): return follow()
        case .success(1):
            if argumentCount > 2 { return error(.unexpectedArgument, word: 3) }
            if argumentCount == 2 {
                guard CommandKeywords.immediate.index(of: words[2]) != nil else {
                    return error(.unknownKeyword(.immediate, suggestion: SuggestNearest.keyword(for: words[2], in: .immediate)),
                                 word: 2)
                }
                return .success(.viewport(.overview(immediate: true)))
            }
            return .success(.viewport(.overview(immediate: false)))
        default:
            return argumentCount == 1 ? .success(.viewport(.idle)) : error(.unexpectedArgument, word: 2)
        }
    }

    /// `viewport follow [zoom=Z] [pitch=P] [bearing=heading|course|DEG] [immediate]` in any order.
    private func follow() -> Result<ConsoleCommand, CommandError> {
        var zoom: Double?
        var pitch: Double?
        var bearing: ConsoleFollowBearing?
        var immediate = false
        var i = 2
        while i < words.count {
            let word = words[i]
            var equals = 0
            while equals < word.count && word[equals] != UInt8(ascii: "=") { equals += 1 }
            let key = UnsafeRawBufferPointer(rebasing: word[0..<equals])
            let value = UnsafeRawBufferPointer(rebasing: word[min(equals + 1, word.count)..<word.count])
            if equals == word.count {
                guard CommandWords.equal(word, "immediate") else { return unknownOption(i, key: key) }
                immediate = true
            } else if CommandWords.equal(key, "zoom") {
                if value.count == 0 { return .failure(CommandError(command: name, kind: .missingArgument(what: "zoom level after zoom="))) }
                switch number(value, index: i, "zoom level", CommandParser.Limits.zoom, unit: "", option: "zoom") {
                case .success(let z): zoom = z
                case .failure(let e): return .failure(e)
                }
            } else if CommandWords.equal(key, "pitch") {
                if value.count == 0 { return .failure(CommandError(command: name, kind: .missingArgument(what: "degrees after pitch="))) }
                switch number(value, index: i, "pitch in degrees", CommandParser.Limits.pitchDegrees, unit: "degrees", option: "pitch") {
                case .success(let p): pitch = p
                case .failure(let e): return .failure(e)
                }
            } else if CommandWords.equal(key, "bearing") {
                if value.count == 0 {
                    return .failure(CommandError(command: name, kind: .missingArgument(what: "heading, course or degrees after bearing=")))
                }
                if CommandWords.equal(value, "heading") {
                    bearing = .heading
                } else if CommandWords.equal(value, "course") {
                    bearing = .course
                } else if CommandNumber.parse(value) == nil {
                    return .failure(CommandError(command: name,
                                                 kind: .unknownKeyword(.bearing, suggestion: SuggestNearest.keyword(for: value, in: .bearing)),
                                                 text: ConsoleText(bytes: value)))
                } else {
                    switch number(value, index: i, "bearing in degrees", CommandParser.Limits.bearingDegrees, unit: "degrees",
                                  option: "bearing") {
                    case .success(let d): bearing = .degrees(d == 360 ? 0 : d)
                    case .failure(let e): return .failure(e)
                    }
                }
            } else {
                return unknownOption(i, key: key)
            }
            i += 1
        }
        if words.overflow > 0 { return error(.unexpectedArgument, word: words.count - 1) }
        return .success(.viewport(.follow(zoom: zoom, pitchDegrees: pitch, bearing: bearing, immediate: immediate)))
    }

    /// An unknown `viewport follow` option; the suggestion compares the part before `=` with the option names.
    private func unknownOption(_ index: Int, key: UnsafeRawBufferPointer) -> Result<ConsoleCommand, CommandError> {
        var best: Int?
        var bestScore = Int.max
        let names: InlineArray<4, StaticString> = ["zoom", "pitch", "bearing", "immediate"]
        var k = 0
        while k < 4 {
            if let s = SuggestNearest.score(key, names[k]), s < bestScore { best = k; bestScore = s }
            k += 1
        }
        return error(.unknownKeyword(.followOptions, suggestion: best), word: index)
    }

    func precise() -> Result<ConsoleCommand, CommandError> {
        if argumentCount == 0 { return .failure(CommandError(command: name, kind: .missingArgument(what: "purpose key"))) }
        if argumentCount > 1 { return error(.unexpectedArgument, word: 2) }
        guard Self.isIdentifier(words[1], limit: CommandParser.Limits.purposeKeyLength) else {
            return error(.invalidWord(what: "purpose key", rule: "use 1…64 letters, digits, '.', '_' or '-'"), word: 1)
        }
        return .success(.precise(purposeKey: ConsoleText(bytes: words[1])))
    }

    func pan() -> Result<ConsoleCommand, CommandError> {
        let limits = CommandParser.Limits.panPoints
        if argumentCount == 0 { return .failure(CommandError(command: name, kind: .missingArgument(what: "DX and DY (points)"))) }
        if argumentCount == 1 { return .failure(CommandError(command: name, kind: .missingArgument(what: "DY (points)"))) }
        if argumentCount > 2 { return error(.unexpectedArgument, word: 3) }
        return number(at: 1, "DX in points", limits, unit: "points").flatMap { dx in
            number(at: 2, "DY in points", limits, unit: "points").map { dy in .pan(dxPoints: dx, dyPoints: dy) }
        }
    }

    func calibrate() -> Result<ConsoleCommand, CommandError> {
        if argumentCount == 0 { return .failure(CommandError(command: name, kind: .missingArgument(what: "mag, gyro or stop"))) }
        if argumentCount > 1 { return error(.unexpectedArgument, word: 2) }
        return keyword(.calibrate, at: 1).map { index in
            .calibrate(index == 0 ? .magnetometer : index == 1 ? .gyroscope : .stop)
        }
    }

    func config() -> Result<ConsoleCommand, CommandError> {
        if argumentCount == 0 { return .success(.config(.list)) }
        if CommandWords.equal(words[1], "save") {
            return argumentCount == 1 ? .success(.config(.save)) : error(.unexpectedArgument, word: 2)
        }
        guard Self.isIdentifier(words[1], limit: CommandParser.Limits.configKeyLength) else {
            return error(.invalidWord(what: "config key", rule: "use 1…48 letters, digits, '.', '_' or '-' (config lists the keys)"),
                         word: 1)
        }
        let key = ConsoleText(bytes: words[1])
        if argumentCount == 1 { return .success(.config(.show(key: key))) }
        let value = words.rest(from: 2)
        guard value.count <= ConsoleText.capacity else {
            return .failure(CommandError(command: name, kind: .valueTooLong(length: value.count, limit: ConsoleText.capacity)))
        }
        return .success(.config(.set(key: key, value: ConsoleText(bytes: value))))
    }

    func watch() -> Result<ConsoleCommand, CommandError> {
        if argumentCount == 0 {
            return .failure(CommandError(command: name, kind: .missingArgument(what: "the view to watch (status, gps, …)")))
        }
        if argumentCount > 2 { return error(.unexpectedArgument, word: 3) }
        guard let target = ConsoleCommandName.lookup(words[1]) else {
            return error(.unknownCommand(suggestion: SuggestNearest.command(for: words[1])), word: 1)
        }
        guard target.isWatchable else { return error(.notWatchable, word: 1) }
        var hertz = CommandParser.Limits.defaultWatchHertz
        if argumentCount == 2 {
            switch number(at: 2, "rate in hertz", CommandParser.Limits.watchHertz, unit: "Hz") {
            case .success(let h): hertz = h
            case .failure(let e): return .failure(e)
            }
        }
        let view: ConsoleView
        switch target {
        case .gps: view = .gps
        case .sats: view = .sats
        case .heading: view = .heading
        case .puck: view = .puck
        case .camera: view = .camera
        case .leds: view = .leds
        case .stats: view = .stats
        case .track: view = .track
        case .uplink: view = .uplink
        case .server: view = .server
        case .events: view = .events(count: CommandParser.Limits.defaultEventCount)
        case .nmea: view = .nmea(count: CommandParser.Limits.defaultNMEACount)
        default: view = .status
        }
        return .success(.watch(view, hertz: hertz))
    }

    func press() -> Result<ConsoleCommand, CommandError> {
        var long = false
        var button = 1
        var i = 1
        while i < words.count {
            switch keyword(.press, at: i) {
            case .failure(let e): return .failure(e)
            case .success(let k):
                if k == 0 { long = true } else { button = k }
            }
            i += 1
        }
        if argumentCount > 2 { return error(.unexpectedArgument, word: 3) }
        return .success(.press(button: button, long: long))
    }
}
