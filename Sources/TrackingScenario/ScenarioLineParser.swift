import Console
import NMEA
import Tracking

/// The argument rules of one timed scenario line (the input words after the time). Messages say
/// what is wrong and what is allowed; the caller adds `FILE:LINE:`.
struct ScenarioLineParser {
    let words: CommandTokens
    /// Index of the input's first word (the command word).
    let first: Int
    let number: Int

    init(words: CommandTokens, first: Int, number: Int) {
        self.words = words
        self.first = first
        self.number = number
    }

    /// Words after the command word.
    var argumentCount: Int { words.count - first - 1 }

    func word(_ offset: Int) -> String { String(decoding: words[first + offset], as: UTF8.self) }

    /// The input of the line.
    func input() -> Result<ScenarioInput, LineProblem> {
        let command = words[first]
        if CommandWords.equal(command, "fix") { return fix() }
        if CommandWords.equal(command, "heading") { return heading() }
        if CommandWords.equal(command, "camera") { return camera() }
        if CommandWords.equal(command, "touch") { return noArguments("touch", .touch) }
        if CommandWords.equal(command, "end") { return noArguments("end", .end) }
        if CommandWords.equal(command, "doubletap") { return tap("doubletap").map { .doubleTap($0) } }
        if CommandWords.equal(command, "twofingertap") { return tap("twofingertap").map { .twoFingerTap($0) } }
        if CommandWords.equal(command, "target") { return target() }
        if CommandWords.equal(command, "insets") { return insets() }
        if CommandWords.equal(command, "align") { return alignment() }
        if CommandWords.equal(command, "anchor") { return anchor() }
        if CommandWords.equal(command, "authorization") { return authorization() }
        if CommandWords.equal(command, "indicator") { return indicator() }
        if CommandWords.equal(command, "view") { return viewSize().map { .viewSize($0) } }
        return console()
    }

    // MARK: scenario inputs

    func fix() -> Result<ScenarioInput, LineProblem> {
        var fix = Fix(timeOfDayNanoseconds: 0)
        if argumentCount == 1 && CommandWords.equal(words[first + 1], "none") {
            return .success(.fix(fix))   // mode noFix: the receiver lost its fix
        }
        guard argumentCount >= 2 else {
            return .failure(LineProblem("fix: missing \(argumentCount == 0 ? "latitude and longitude" : "longitude"); usage: "
                + "fix LAT LON [acc=M] [speed=M/S] [course=DEG] [alt=M] [heading=DEG] | fix none"))
        }
        let latitude: Double, longitude: Double
        switch number(1, "latitude", -90, 90, "degrees") { case .success(let v): latitude = v; case .failure(let m): return .failure(m) }
        switch number(2, "longitude", -180, 180, "degrees") { case .success(let v): longitude = v; case .failure(let m): return .failure(m) }
        fix.mode = .threeD
        fix.quality = .gps
        fix.latitudeDegrees = latitude
        fix.longitudeDegrees = longitude
        let keys = ["acc", "speed", "course", "alt", "heading"]
        let ranges: [(Double, Double, String)] = [(0, 1e6, "metres"), (0, 1000, "m/s"), (0, 360, "degrees"),
                                                 (-1e4, 1e5, "metres"), (0, 360, "degrees")]
        var values = [Double?](repeating: nil, count: keys.count)
        switch options(from: 3, keys: keys, ranges: ranges, into: &values, command: "fix") {
        case .success: break
        case .failure(let m): return .failure(m)
        }
        fix.horizontalAccuracyMeters = values[0]
        fix.speedMetersPerSecond = values[1]
        fix.courseDegrees = values[2].map { $0 == 360 ? 0 : $0 }
        fix.altitudeMSLMeters = values[3]
        fix.trueHeadingDegrees = values[4].map { $0 == 360 ? 0 : $0 }
        return .success(.fix(fix))
    }

    func heading() -> Result<ScenarioInput, LineProblem> {
        guard argumentCount >= 1 else { return .failure("usage: heading DEG acc=DEG [magnetic=DEG] [source=imu|gnss]") }
        let trueHeading: Double
        switch number(1, "true heading", -360, 360, "degrees (negative = unknown)") {
        case .success(let v): trueHeading = v
        case .failure(let m): return .failure(m)
        }
        var source = HeadingSampleSource.imu
        var values: [Double?] = [nil, nil]
        var i = 2
        while i <= argumentCount {
            let w = word(i)
            if w.lowercased().hasPrefix("source=") {
                switch w.dropFirst(7).lowercased() {
                case "imu": source = .imu
                case "gnss": source = .gnss
                default: return .failure("heading: source must be imu or gnss, not '\(w.dropFirst(7))'")
                }
                i += 1
                continue
            }
            switch option(i, keys: ["acc", "magnetic"], ranges: [(-1, 360, "degrees (negative = invalid)"),
                                                               (-360, 360, "degrees (negative = unknown)")],
                          command: "heading", allowedText: "acc=, magnetic=, source=") {
            case .success(let (k, v)): values[k] = v
            case .failure(let m): return .failure(m)
            }
            i += 1
        }
        guard let accuracy = values[0] else {
            return .failure("heading needs acc=DEG (the compass accuracy in degrees; a negative value marks the sample invalid)")
        }
        return .success(.heading(HeadingSample(timeNanoseconds: 0, trueHeadingDegrees: trueHeading,
                                               magneticHeadingDegrees: values[1],
                                               headingAccuracyDegrees: accuracy, source: source)))
    }

    func camera() -> Result<ScenarioInput, LineProblem> {
        var options = CameraOptions()
        var next = 1
        if argumentCount >= 2, CommandNumber.parse(words[first + 1]) != nil {
            let latitude: Double, longitude: Double
            switch number(1, "latitude", -90, 90, "degrees") { case .success(let v): latitude = v; case .failure(let m): return .failure(m) }
            switch number(2, "longitude", -180, 180, "degrees") { case .success(let v): longitude = v; case .failure(let m): return .failure(m) }
            options.center = GeoCoordinate(latitudeDegrees: latitude, longitudeDegrees: longitude)
            next = 3
        }
        let keys = ["zoom", "bearing", "pitch", "duration"]
        let ranges: [(Double, Double, String)] = [(0, 25.5, "(zoom level)"), (-360, 360, "degrees"), (0, 85, "degrees"),
                                                 (0, 60, "seconds")]
        var values = [Double?](repeating: nil, count: keys.count)
        switch self.options(from: next, keys: keys, ranges: ranges, into: &values, command: "camera") {
        case .success: break
        case .failure(let m): return .failure(m)
        }
        options.zoom = values[0]
        options.bearingDegrees = values[1]
        options.pitchDegrees = values[2]
        if options == CameraOptions() {
            return .failure("usage: camera [LAT LON] [zoom=Z] [bearing=DEG] [pitch=DEG] [duration=S] (give at least one)")
        }
        return .success(.camera(options, durationSeconds: values[3] ?? 0))
    }

    func tap(_ name: String) -> Result<ScreenPoint?, LineProblem> {
        if argumentCount == 0 { return .success(nil) }
        guard argumentCount == 2 else { return .failure("usage: \(name) [X Y] (points from the top left; no point = the view centre)") }
        return point(1).map { Optional($0) }
    }

    func target() -> Result<ScenarioInput, LineProblem> {
        let (count, animated) = trailingImmediate()
        if count == 1 && CommandWords.equal(words[first + 1], "none") { return .success(.target(nil, animated: animated)) }
        guard count == 2 else { return .failure("usage: target LAT LON [immediate] | target none [immediate]") }
        return number(1, "latitude", -90, 90, "degrees").flatMap { lat in
            number(2, "longitude", -180, 180, "degrees").map { lon in
                .target(GeoCoordinate(latitudeDegrees: lat, longitudeDegrees: lon), animated: animated)
            }
        }
    }

    func insets() -> Result<ScenarioInput, LineProblem> {
        let (count, animated) = trailingImmediate()
        guard count == 4 else { return .failure("usage: insets TOP LEFT BOTTOM RIGHT [immediate] (points)") }
        var v = [Double](repeating: 0, count: 4)
        let names = ["top", "left", "bottom", "right"]
        for k in 0..<4 {
            switch number(k + 1, names[k] + " inset", 0, 16384, "points") {
            case .success(let x): v[k] = x
            case .failure(let m): return .failure(m)
            }
        }
        return .success(.insets(EdgeInsets(topPoints: v[0], leftPoints: v[1], bottomPoints: v[2], rightPoints: v[3]),
                                animated: animated))
    }

    func alignment() -> Result<ScenarioInput, LineProblem> {
        let (count, animated) = trailingImmediate()
        guard count == 1 else { return .failure("usage: align center|top|bottom [immediate]") }
        switch word(1).lowercased() {
        case "center": return .success(.alignment(.center, animated: animated))
        case "top": return .success(.alignment(.top, animated: animated))
        case "bottom": return .success(.alignment(.bottom, animated: animated))
        default: return .failure("align: '\(word(1))' is not one of center, top, bottom")
        }
    }

    func anchor() -> Result<ScenarioInput, LineProblem> {
        if argumentCount == 1 && CommandWords.equal(words[first + 1], "none") { return .success(.anchor(nil)) }
        guard argumentCount == 2 else { return .failure("usage: anchor X Y | anchor none (points, relative to the content frame)") }
        return point(1).map { .anchor($0) }
    }

    func authorization() -> Result<ScenarioInput, LineProblem> {
        guard argumentCount == 1 else { return .failure("usage: authorization authorized|denied|notDetermined") }
        switch word(1).lowercased() {
        case "authorized": return .success(.authorization(.authorized))
        case "denied": return .success(.authorization(.denied))
        case "notdetermined": return .success(.authorization(.notDetermined))
        default: return .failure("authorization: '\(word(1))' is not one of authorized, denied, notDetermined")
        }
    }

    func indicator() -> Result<ScenarioInput, LineProblem> {
        guard argumentCount == 1 else { return .failure("usage: indicator on|off (showsUserHeadingIndicator)") }
        switch word(1).lowercased() {
        case "on": return .success(.headingIndicator(true))
        case "off": return .success(.headingIndicator(false))
        default: return .failure("indicator: '\(word(1))' is not one of on, off")
        }
    }

    /// `view W H`: the view size.
    func viewSize() -> Result<ScreenSize, LineProblem> {
        guard argumentCount == 2 else { return .failure("usage: view WIDTH HEIGHT (points)") }
        return number(1, "view width", 1, 16384, "points").flatMap { w in
            number(2, "view height", 1, 16384, "points").map { h in ScreenSize(widthPoints: w, heightPoints: h) }
        }
    }

    /// A console tracking command, parsed by the console's parser.
    func console() -> Result<ScenarioInput, LineProblem> {
        switch CommandParser.parse(words.rest(from: first)) {
        case .empty:
            return .failure("the time needs an input after it")
        case .error(let error):
            var out = OutputBuffer(capacity: 1024)
            error.appendMessage(to: &out)
            let text = out.withBytes { String(decoding: $0, as: UTF8.self) }
            if case .unknownCommand = error.kind {
                return .failure("'\(word(0))' is not an input; a timed line holds one of: \(Self.inputList)")
            }
            return .failure(LineProblem(text))
        case .command(let command):
            return ScenarioConsoleCommands.accept(command)
        }
    }

    /// The inputs a timed line may hold, as listed in messages.
    static let inputList = "fix, heading, camera, view, touch, doubletap, twofingertap, target, insets, align, anchor, "
        + "authorization, indicator, end, or a console tracking command (mode, viewport, show, accuracy, precise, pan, "
        + "rotate, zoom, pitch)"

    // MARK: building blocks

    func noArguments(_ name: String, _ input: ScenarioInput) -> Result<ScenarioInput, LineProblem> {
        argumentCount == 0 ? .success(input) : .failure("\(name) takes no arguments, '\(word(1))' is one too many")
    }

    /// Argument `offset` (1 = first after the command word) as a number in lo...hi.
    func number(_ offset: Int, _ what: String, _ lo: Double, _ hi: Double, _ unit: String) -> Result<Double, LineProblem> {
        guard offset <= argumentCount else { return .failure("missing \(what)") }
        guard let value = CommandNumber.parse(words[first + offset]) else {
            return .failure("'\(word(offset))' is not a number (\(what))")
        }
        guard value >= lo && value <= hi else {
            return .failure("\(what) \(word(offset)) is out of range, allowed \(format(lo))…\(format(hi)) \(unit)")
        }
        return .success(value == 0 ? 0 : value)
    }

    func point(_ offset: Int) -> Result<ScreenPoint, LineProblem> {
        number(offset, "x", -16384, 16384, "points").flatMap { x in
            number(offset + 1, "y", -16384, 16384, "points").map { y in ScreenPoint(xPoints: x, yPoints: y) }
        }
    }

    /// Number of arguments without a last `immediate`, and whether the change is animated.
    func trailingImmediate() -> (count: Int, animated: Bool) {
        if argumentCount > 0 && CommandWords.equal(words[first + argumentCount], "immediate") { return (argumentCount - 1, false) }
        return (argumentCount, true)
    }

    /// Every argument from `offset` on as `KEY=NUMBER`, each key at most once.
    func options(from offset: Int, keys: [String], ranges: [(Double, Double, String)], into values: inout [Double?],
                 command: String) -> Result<Void, LineProblem> {
        var i = offset
        while i <= argumentCount {
            switch option(i, keys: keys, ranges: ranges, command: command,
                          allowedText: keys.map { $0 + "=" }.joined(separator: ", ")) {
            case .success(let (k, v)):
                if values[k] != nil { return .failure("\(command): \(keys[k])= is given twice") }
                values[k] = v
            case .failure(let m): return .failure(m)
            }
            i += 1
        }
        return .success(())
    }

    func option(_ offset: Int, keys: [String], ranges: [(Double, Double, String)], command: String,
                allowedText: String) -> Result<(Int, Double), LineProblem> {
        let w = word(offset)
        guard let equals = w.firstIndex(of: "="), let k = keys.firstIndex(of: w[..<equals].lowercased()) else {
            return .failure("\(command): '\(w)' is not an option; allowed: \(allowedText)")
        }
        let valueText = w[w.index(after: equals)...]
        guard let value = CommandNumber.parse(String(valueText)) else {
            return .failure("\(command): '\(valueText)' is not a number (\(keys[k])=)")
        }
        let (lo, hi, unit) = ranges[k]
        guard value >= lo && value <= hi else {
            return .failure("\(command): \(keys[k])=\(valueText) is out of range, allowed \(format(lo))…\(format(hi)) \(unit)")
        }
        return .success((k, value == 0 ? 0 : value))
    }
}

extension CommandNumber {
    /// The value of `text`, or nil when it is not a decimal number.
    static func parse(_ text: String) -> Double? {
        var s = text
        return s.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }
}
