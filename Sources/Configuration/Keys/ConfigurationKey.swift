/// One configuration key: where it lives (`[section] name`), what it accepts, its default, a doc line,
/// whether a SIGHUP reload applies it to the running device, and how to read and write its value in a
/// `PuckdConfiguration`. The table of all keys is `ConfigurationKeys.all`.
///
/// Values are text as written in the file; `write` parses and range-checks, `read` renders the value so
/// that `write(read(c))` gives back `c`'s value (the round trip `config save` relies on).
public struct ConfigurationKey: @unchecked Sendable {
    /// Section name, without brackets.
    public let section: String
    /// Key name within the section.
    public let name: String
    /// What the key accepts, as error messages and `--help-config` say it: "0…53 (BCM line offset)".
    public let allowed: String
    /// One line of documentation.
    public let doc: String
    /// True when a reload applies a changed value at once; false when it needs a restart.
    public let live: Bool
    private let reader: (PuckdConfiguration) -> String
    private let writer: (inout PuckdConfiguration, String) -> ConfigurationProblem?

    public init(section: String, name: String, allowed: String, doc: String, live: Bool,
         read: @escaping (PuckdConfiguration) -> String,
         write: @escaping (inout PuckdConfiguration, String) -> ConfigurationProblem?) {
        self.section = section
        self.name = name
        self.allowed = allowed
        self.doc = doc
        self.live = live
        self.reader = read
        self.writer = write
    }

    /// `section.name`, the spelling of `--set`.
    public var qualifiedName: String { section + "." + name }

    /// True when the key shapes the device (`ConfigurationKeys.deviceShaping`, `[console]`, `[sim]`):
    /// the console may set it only with `[console] access = full`.
    public var shapesDevice: Bool { ConfigurationKeys.shapesDevice(section: section, name: name) }

    /// The value in `configuration`, as text.
    public func read(_ configuration: PuckdConfiguration) -> String { reader(configuration) }

    /// The default value, as text.
    public var defaultValue: String { reader(PuckdConfiguration()) }

    /// Parses `text` into `configuration`; returns what is wrong instead when it cannot.
    public func write(_ text: String, into configuration: inout PuckdConfiguration) -> ConfigurationProblem? {
        writer(&configuration, text)
    }
}

/// Why a value was refused; `message(allowed:)` is the part after "key = value: ".
public enum ConfigurationProblem: Error, Equatable, Sendable {
    /// A number outside the allowed range.
    case outOfRange
    /// Not a number (or not a whole number where one is needed).
    case notANumber(wholeNumber: Bool)
    /// Not true/false.
    case notABoolean
    /// Not one of the listed words.
    case notAllowed
    /// A value whose own parser said what is wrong (source addresses, mounting, lists).
    case invalid(String)

    /// The sentence tail: "out of range, allowed 0…53 (BCM line offset)".
    public func message(allowed: String) -> String {
        switch self {
        case .outOfRange: return "out of range, allowed " + allowed
        case .notANumber(let whole): return (whole ? "not a whole number" : "not a number") + ", allowed " + allowed
        case .notABoolean: return "not a boolean, allowed true or false"
        case .notAllowed: return "not allowed, use one of " + allowed
        case .invalid(let why): return why
        }
    }
}

// MARK: builders

extension ConfigurationKey {
    static func integer(_ section: String, _ name: String, _ path: WritableKeyPath<PuckdConfiguration, Int>,
                        _ range: ClosedRange<Int>, unit: String, doc: String, live: Bool = false) -> ConfigurationKey {
        ConfigurationKey(section: section, name: name, allowed: rangeText(range, unit: unit), doc: doc, live: live,
                         read: { String($0[keyPath: path]) },
                         write: { c, text in
                             switch parseInteger(text, range) {
                             case .success(let v): c[keyPath: path] = v; return nil
                             case .failure(let p): return p
                             }
                         })
    }

    /// A GPIO line offset (0…53) or `none`.
    static func line(_ section: String, _ name: String, _ path: WritableKeyPath<PuckdConfiguration, Int?>,
                     doc: String, live: Bool = false) -> ConfigurationKey {
        let range = 0...53
        return ConfigurationKey(section: section, name: name, allowed: rangeText(range, unit: "BCM line offset") + " or none",
                                doc: doc, live: live,
                                read: { $0[keyPath: path].map { String($0) } ?? "none" },
                                write: { c, text in
                                    if isNone(text) { c[keyPath: path] = nil; return nil }
                                    switch parseInteger(text, range) {
                                    case .success(let v): c[keyPath: path] = v; return nil
                                    case .failure(let p): return p
                                    }
                                })
    }

    static func decimal(_ section: String, _ name: String, _ path: WritableKeyPath<PuckdConfiguration, Double>,
                        _ range: ClosedRange<Double>, unit: String, doc: String, live: Bool = false) -> ConfigurationKey {
        ConfigurationKey(section: section, name: name,
                         allowed: formatNumber(range.lowerBound) + "…" + formatNumber(range.upperBound) + " (" + unit + ")",
                         doc: doc, live: live,
                         read: { formatNumber($0[keyPath: path]) },
                         write: { c, text in
                             guard let v = Double(text), v.isFinite else { return .notANumber(wholeNumber: false) }
                             guard range.contains(v) else { return .outOfRange }
                             c[keyPath: path] = v
                             return nil
                         })
    }

    static func boolean(_ section: String, _ name: String, _ path: WritableKeyPath<PuckdConfiguration, Bool>,
                        doc: String, live: Bool = false) -> ConfigurationKey {
        ConfigurationKey(section: section, name: name, allowed: "true or false", doc: doc, live: live,
                         read: { $0[keyPath: path] ? "true" : "false" },
                         write: { c, text in
                             switch text.lowercased() {
                             case "true", "yes", "on", "1": c[keyPath: path] = true
                             case "false", "no", "off", "0": c[keyPath: path] = false
                             default: return .notABoolean
                             }
                             return nil
                         })
    }

    /// One word of a fixed list; `cases` pairs each spelling with its value (the first spelling of a value
    /// is the one `read` gives).
    static func choice<T: Equatable>(_ section: String, _ name: String, _ path: WritableKeyPath<PuckdConfiguration, T>,
                                     _ cases: [(String, T)], doc: String, live: Bool = false) -> ConfigurationKey {
        var seen: [String] = []
        for (word, _) in cases where !seen.contains(word) { seen.append(word) }
        return ConfigurationKey(section: section, name: name, allowed: seen.joined(separator: ", "), doc: doc, live: live,
                                read: { c in cases.first(where: { $0.1 == c[keyPath: path] })?.0 ?? "?" },
                                write: { c, text in
                                    guard let match = cases.first(where: { $0.0 == text }) else { return .notAllowed }
                                    c[keyPath: path] = match.1
                                    return nil
                                })
    }

    /// Free text checked by `validate` (nil = fine, else the reason).
    static func text(_ section: String, _ name: String, _ path: WritableKeyPath<PuckdConfiguration, String>,
                     allowed: String, doc: String, live: Bool = false,
                     validate: @escaping (String) -> String? = { _ in nil }) -> ConfigurationKey {
        ConfigurationKey(section: section, name: name, allowed: allowed, doc: doc, live: live,
                         read: { $0[keyPath: path] },
                         write: { c, text in
                             if let why = validate(text) { return .invalid(why) }
                             c[keyPath: path] = text
                             return nil
                         })
    }

    // MARK: helpers

    public static func isNone(_ text: String) -> Bool { text == "none" || text == "off" || text == "-" }

    static func parseInteger(_ text: String, _ range: ClosedRange<Int>) -> Result<Int, ConfigurationProblem> {
        guard let v = Int(text) else { return .failure(.notANumber(wholeNumber: true)) }
        return range.contains(v) ? .success(v) : .failure(.outOfRange)
    }

    static func rangeText(_ range: ClosedRange<Int>, unit: String) -> String {
        String(range.lowerBound) + "…" + String(range.upperBound) + " (" + unit + ")"
    }

    /// Shortest text that parses back to `value` ("2", "0.5", "16.35").
    static func formatNumber(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
