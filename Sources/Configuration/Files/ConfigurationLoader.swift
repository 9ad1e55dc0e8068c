import Tracking

/// A configuration built from its layers, with the documents (for `config save`) and where each
/// key's value came from (for messages).
public struct LoadedConfiguration: Sendable, Equatable {
    /// The typed, validated configuration.
    public var configuration: PuckdConfiguration
    /// The parsed layers in order (board profile, config file).
    public var documents: [ConfigurationDocument]
    /// `section.key` → where its value was last set (absent: the default).
    public var origins: [String: ConfigurationOrigin]

    public init(configuration: PuckdConfiguration, documents: [ConfigurationDocument], origins: [String: ConfigurationOrigin]) {
        self.configuration = configuration
        self.documents = documents
        self.origins = origins
    }

    /// Where `section.key` got its value.
    public func origin(of qualifiedName: String) -> ConfigurationOrigin { origins[qualifiedName] ?? .defaultValue }
}

/// Builds a `PuckdConfiguration`: defaults ← each document in order (board profile, then the config
/// file) ← `--set section.key=value` overrides; then checks what single keys cannot (lines used twice,
/// long press vs debounce, the tracking core's own limits). Throws the first problem as one sentence.
public enum ConfigurationLoader {
    /// Loads from parsed documents and `--set` texts.
    public static func load(documents: [ConfigurationDocument],
                            overrides: [String] = []) throws(ConfigurationError) -> LoadedConfiguration {
        var result = LoadedConfiguration(configuration: PuckdConfiguration(), documents: documents, origins: [:])
        for document in documents { try apply(document, to: &result) }
        for text in overrides { try applyOverride(text, to: &result) }
        try validate(result)
        return result
    }

    /// Reads a whole configuration file (at most 1 MiB) as text, after the StrictModes checks of its
    /// owner and permissions (`FileTrust`). A FIFO or device is refused at once, never waited on.
    public static func readFile(_ path: String) throws(ConfigurationError) -> String {
        do throws(WholeFile.Failure) {
            return String(decoding: try WholeFile.read(path, limitBytes: 1 << 20, trust: FileTrust()), as: UTF8.self)
        } catch {
            let reason = switch error {
            case .cannotOpen(let code):
                "cannot read it (" + code.message
                    + "); give an existing file with --config, or a board profile with --board"
            case .notRegular: "not a regular file (a device, directory or pipe); give the path of a file"
            case .cannotRead(let code): "cannot read it (" + code.message + ")"
            case .tooLarge: "larger than 1 MiB: not a puckd configuration file"
            case .untrusted(let why): "refused: " + why
            }
            throw ConfigurationError(location: path, reason: reason)
        }
    }

    public static func apply(_ document: ConfigurationDocument, to result: inout LoadedConfiguration) throws(ConfigurationError) {
        var seen: [String: Int] = [:]
        for line in document.lines {
            // The message parts are built only for an error (docs/power.md §3.1: a valid file builds none).
            var location: String { document.name + ":" + String(line.number) }
            switch line.kind {
            case .blank, .comment:
                continue
            case .malformed:
                throw ConfigurationError(location: location, reason: "'" + ConfigurationError.excerpt(line.text)
                    + "' is not 'key = value', a [section] header or a # comment")
            case .section(let name):
                guard ConfigurationKeys.sections.contains(name) else {
                    throw ConfigurationError(location: location, subject: "[" + ConfigurationError.excerpt(name) + "]",
                                             reason: "unknown section, sections are " + sectionList)
                }
            case .entry(let section, let key, let value, _):
                var subject: String { ConfigurationError.subject(section, key, value) }
                if section.isEmpty {
                    throw ConfigurationError(location: location,
                                             subject: ConfigurationError.excerpt(key) + " = " + ConfigurationError.excerpt(value),
                                             reason: "no [section] header above this key; put it under one of " + sectionList)
                }
                guard let definition = ConfigurationKeys.key(section: section, name: key) else {
                    throw unknownKey(location: location, subject: subject, section: section, key: key)
                }
                if let first = seen[definition.qualifiedName] {
                    throw ConfigurationError(location: location, subject: subject,
                                             reason: "set twice in this file (first on line \(first)); keep one")
                }
                seen[definition.qualifiedName] = line.number
                if let problem = definition.write(value, into: &result.configuration) {
                    throw ConfigurationError(location: location, subject: subject,
                                             reason: problem.message(allowed: definition.allowed))
                }
                result.origins[definition.qualifiedName] = .document(name: document.name, line: line.number)
            }
        }
    }

    static func applyOverride(_ text: String, to result: inout LoadedConfiguration) throws(ConfigurationError) {
        let location = "--set " + ConfigurationError.excerpt(text, limit: 80)
        guard let equals = text.firstIndex(of: "="), let dot = text[..<equals].firstIndex(of: ".") else {
            throw ConfigurationError(location: location, reason: "write --set section.key=value, e.g. --set gpio.button=27")
        }
        let section = String(text[..<dot]), key = String(text[text.index(after: dot)..<equals])
        let value = Substring(text[text.index(after: equals)...]).trimmingSpaces
        guard ConfigurationKeys.sections.contains(section) else {
            throw ConfigurationError(location: location, reason: "unknown section '" + ConfigurationError.excerpt(section) + "', sections are " + sectionList)
        }
        guard let definition = ConfigurationKeys.key(section: section, name: key) else {
            throw unknownKey(location: location, subject: nil, section: section, key: key)
        }
        if let problem = definition.write(value, into: &result.configuration) {
            throw ConfigurationError(location: location, reason: problem.message(allowed: definition.allowed))
        }
        result.origins[definition.qualifiedName] = .override(text)
    }

    static func unknownKey(location: String, subject: String?, section: String, key: String) -> ConfigurationError {
        let names = ConfigurationKeys.keys(in: section).map(\.name).joined(separator: ", ")
        var reason = "unknown key in [" + section + "]"
        if let near = ConfigurationError.suggestion(for: key, in: section) { reason += ", did you mean " + near + "?" }
        return ConfigurationError(location: location, subject: subject ?? "[" + section + "] " + ConfigurationError.excerpt(key),
                                  reason: reason + " (keys of [" + section + "]: " + names + ")")
    }

    static var sectionList: String { ConfigurationKeys.sections.map { "[" + $0 + "]" }.joined(separator: ", ") }

    /// Checks what one key alone cannot: every GPIO line used once, long press longer than debounce,
    /// the tracking core's limits.
    public static func validate(_ loaded: LoadedConfiguration) throws(ConfigurationError) {
        let c = loaded.configuration
        func fail(_ key: String, _ reason: String) -> ConfigurationError {
            let definition = ConfigurationKeys.all.first { $0.qualifiedName == key }!
            let origin = loaded.origin(of: key)
            let subject = ConfigurationError.subject(definition.section, definition.name, definition.read(c))
            switch origin {
            case .override(let text): return ConfigurationError(location: "--set " + text, reason: reason)
            default: return ConfigurationError(location: origin.description, subject: subject, reason: reason)
            }
        }
        var used: [(key: String, line: Int)] = []
        let lineKeys = ["gpio.button", "gpio.button2", "gpio.led_fix", "gpio.led_mode", "gpio.led_fault",
                        "gpio.led_heartbeat", "gpio.led_mode_red", "gpio.led_mode_green", "gpio.led_mode_blue", "pps.line"]
        let values = [c.gpio.button, c.gpio.button2, c.gpio.ledFix, c.gpio.ledMode, c.gpio.ledFault, c.gpio.ledHeartbeat,
                      c.gpio.ledModeRed, c.gpio.ledModeGreen, c.gpio.ledModeBlue, c.pps.line]
        for (key, value) in zip(lineKeys, values) {
            guard let value else { continue }
            if let other = used.first(where: { $0.line == value }) {
                let otherName = "[" + other.key.replacingDot
                throw fail(key, "line \(value) is also " + otherName + " (" + loaded.origin(of: other.key).description
                    + "); give each button, LED and PPS input its own line")
            }
            used.append((key, value))
        }
        if c.gpio.longPressMilliseconds != 0 && c.gpio.longPressMilliseconds <= c.gpio.debounceMilliseconds {
            throw fail("gpio.long_press_ms", "must be longer than [gpio] debounce_ms = \(c.gpio.debounceMilliseconds) "
                + "(or 0 for no long presses)")
        }
        if let error = c.tracking.coreConfiguration().validationError() {
            throw ConfigurationError(location: "[tracking]", reason: error.description)
        }
    }
}

extension String {
    /// "gpio.button" → "gpio] button", for "[gpio] button" in messages.
    fileprivate var replacingDot: String {
        guard let dot = firstIndex(of: ".") else { return self }
        return String(self[..<dot]) + "] " + String(self[index(after: dot)...])
    }
}
