import Tracking

/// The fixed word lists a command argument may take: used by the parser, by Tab completion and by
/// the "did you mean" suggestions. Each list is static (no allocation).
public enum CommandKeywords: UInt8, Sendable, Equatable {
    /// `mode`: the eight `TrackingMode` names and `next`.
    case mode
    /// `viewport`: `follow`, `overview`, `idle`.
    case viewport
    /// `viewport follow` options: `zoom=`, `pitch=`, `bearing=`, `immediate`.
    case followOptions
    /// `bearing=` values besides a number: `heading`, `course`.
    case bearing
    /// `show`, `json`: `on`, `off`.
    case onOff
    /// `accuracy`: `full`, `reduced`.
    case accuracy
    /// `calibrate`: `mag`, `gyro`, `stop`.
    case calibrate
    /// `press`: `long`, `1`, `2`.
    case press
    /// `config`: `save`.
    case config
    /// `overview`'s option: `immediate`.
    case immediate

    /// Number of words in the list.
    public var count: Int {
        switch self {
        case .mode: 9
        case .viewport: 3
        case .followOptions: 4
        case .bearing: 2
        case .onOff: 2
        case .accuracy: 2
        case .calibrate: 3
        case .press: 3
        case .config: 1
        case .immediate: 1
        }
    }

    /// The word at `index` (0 ..< count).
    public func word(_ index: Int) -> StaticString {
        switch self {
        case .mode: TrackingMode(rawValue: UInt8(truncatingIfNeeded: index))?.name ?? "next"
        case .viewport:
            index == 0 ? ViewportStateKind.followPuck.word : index == 1 ? ViewportStateKind.overview.word
                : ViewportStatus.idleWord
        case .followOptions: index == 0 ? "zoom=" : index == 1 ? "pitch=" : index == 2 ? "bearing=" : "immediate"
        case .bearing: index == 0 ? "heading" : "course"
        case .onOff: index == 0 ? "on" : "off"
        case .accuracy: index == 0 ? "full" : "reduced"
        case .calibrate: index == 0 ? "mag" : index == 1 ? "gyro" : "stop"
        case .press: index == 0 ? "long" : index == 1 ? "1" : "2"
        case .config: "save"
        case .immediate: "immediate"
        }
    }

    /// The allowed values as written in error messages.
    public var list: StaticString {
        switch self {
        case .mode: "none, follow, followWithCourse, followWithHeading, off, recenter, navigation, compassNavigation, next"
        case .viewport: "follow, overview, idle"
        case .followOptions: "zoom=Z, pitch=P, bearing=heading|course|DEG, immediate"
        case .bearing: "heading, course or degrees 0…360"
        case .onOff: "on, off"
        case .accuracy: "full, reduced"
        case .calibrate: "mag, gyro, stop"
        case .press: "long, 1, 2"
        case .config: "save, or a KEY"
        case .immediate: "immediate"
        }
    }

    /// The index of `word` in the list (ASCII case ignored), or nil.
    public func index(of word: UnsafeRawBufferPointer) -> Int? {
        var i = 0
        while i < count {
            if CommandWords.equal(word, self.word(i)) { return i }
            i += 1
        }
        return nil
    }
}
