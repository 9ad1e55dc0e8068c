/// What a button press asks the device to do. The loop turns it into a core command.
public enum ButtonAction: UInt8, Sendable, Equatable, CaseIterable {
    /// Nothing (the press is only shown on the console).
    case none = 0
    /// Switch to the next tracking mode of the configured cycle (see `ButtonModeCycle`).
    case nextTrackingMode = 1
    /// Toggle the viewport between following the puck and the overview.
    case toggleOverview = 2
    /// Ask for temporary full accuracy.
    case requestFullAccuracy = 3
    /// Start the magnetometer (hard/soft iron) calibration.
    case startMagnetometerCalibration = 4
    /// Show or hide the location puck.
    case toggleLocationVisible = 5

    /// The spelling in board profiles and on the console.
    public var name: StaticString {
        switch self {
        case .none: return "none"
        case .nextTrackingMode: return "next-mode"
        case .toggleOverview: return "toggle-overview"
        case .requestFullAccuracy: return "full-accuracy"
        case .startMagnetometerCalibration: return "calibrate-magnetometer"
        case .toggleLocationVisible: return "toggle-location"
        }
    }

    /// Parses a name as spelled by `name` (start-up configuration).
    public init(name: String) throws(ButtonConfigurationError) {
        for action in Self.allCases where "\(action.name)" == name {
            self = action
            return
        }
        throw .unknownAction(name)
    }

    /// All names, comma separated, for messages.
    public static var allNames: String { allCases.map { "\($0.name)" }.joined(separator: ", ") }
}

/// Which action each button's short and long press triggers.
///
/// Defaults: primary short = next tracking mode, primary long = toggle follow-puck/overview; secondary
/// short = show/hide the location, secondary long = start magnetometer calibration.
public struct ButtonActionMap: Sendable, Equatable {
    /// Primary button, short press.
    public var primaryShort: ButtonAction
    /// Primary button, long press.
    public var primaryLong: ButtonAction
    /// Secondary button, short press.
    public var secondaryShort: ButtonAction
    /// Secondary button, long press.
    public var secondaryLong: ButtonAction

    public init(primaryShort: ButtonAction = .nextTrackingMode, primaryLong: ButtonAction = .toggleOverview,
                secondaryShort: ButtonAction = .toggleLocationVisible,
                secondaryLong: ButtonAction = .startMagnetometerCalibration) {
        self.primaryShort = primaryShort
        self.primaryLong = primaryLong
        self.secondaryShort = secondaryShort
        self.secondaryLong = secondaryLong
    }

    /// The action for a press.
    public func action(for press: ButtonPress) -> ButtonAction {
        switch (press.button, press.kind) {
        case (.primary, .short): return primaryShort
        case (.primary, .long): return primaryLong
        case (.secondary, .short): return secondaryShort
        case (.secondary, .long): return secondaryLong
        }
    }
}

/// A button setting that cannot be used; `description` says what to change.
public enum ButtonConfigurationError: Error, Equatable, CustomStringConvertible {
    /// An action name that does not exist.
    case unknownAction(String)
    /// The tracking-mode cycle is empty.
    case emptyModeCycle
    /// The tracking-mode cycle has more entries than fit.
    case tooManyModes(count: Int, capacity: Int)
    /// A mode appears twice in the cycle (the cycle would never reach the modes after the second one).
    case duplicateMode(position: Int)
    /// Debounce or long-press time out of range.
    case invalidTiming(debounceNanoseconds: Int64, longPressNanoseconds: Int64?)

    public var description: String {
        switch self {
        case .unknownAction(let name):
            return "unknown button action '\(name)': use one of \(ButtonAction.allNames)"
        case .emptyModeCycle:
            return "the button's tracking-mode cycle is empty: list at least one mode"
        case .tooManyModes(let count, let capacity):
            return "the button's tracking-mode cycle has \(count) modes, at most \(capacity) fit: shorten it"
        case .duplicateMode(let position):
            return "mode \(position + 1) of the button's tracking-mode cycle appears earlier too: list each mode once"
        case .invalidTiming(let debounce, let long):
            let longText = long.map { "\($0 / 1_000_000) ms" } ?? "off"
            return "button debounce \(debounce / 1_000_000) ms with long press \(longText) cannot work: use a debounce "
                + "of 0 to 1000 ms (30 is typical) and a long-press time longer than it (1000 is typical)"
        }
    }
}
