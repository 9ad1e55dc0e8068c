import Console
import NMEA
import Tracking

/// A parsed scenario file: the tracking core's configuration and a time-ordered list of inputs
/// (`puckd scenario FILE`, docs/scenarios.md). Times are nanoseconds from the scenario's start.
public struct Scenario: Sendable, Equatable {
    /// The core's configuration: library defaults, the `view` size and the `set` lines.
    public var configuration: TrackingConfiguration
    /// The inputs in file order (their times never decrease).
    public var events: [ScenarioEvent]
    /// When the run stops: the `end` line's time, else the last input's time + `defaultDrainNanoseconds`.
    public var endNanoseconds: Int64
    /// True when the file had an `end` line.
    public var hasEndLine: Bool

    /// Without an `end` line the run goes on this long after the last input (as `puckd replay` drains).
    public static let defaultDrainNanoseconds: Int64 = 4_000_000_000

    public init(configuration: TrackingConfiguration = TrackingConfiguration(), events: [ScenarioEvent] = [],
                endNanoseconds: Int64 = defaultDrainNanoseconds, hasEndLine: Bool = false) {
        self.configuration = configuration
        self.events = events
        self.endNanoseconds = endNanoseconds
        self.hasEndLine = hasEndLine
    }
}

/// One timed input of a scenario, with the line it came from (1-based).
public struct ScenarioEvent: Sendable, Equatable {
    /// When it is applied, nanoseconds from the start.
    public var timeNanoseconds: Int64
    /// Line number in the file, 1-based.
    public var line: Int
    /// What is applied.
    public var input: ScenarioInput

    public init(timeNanoseconds: Int64, line: Int, input: ScenarioInput) {
        self.timeNanoseconds = timeNanoseconds
        self.line = line
        self.input = input
    }
}

/// What a scenario line feeds the tracking core (each maps to one `TrackingCore` call or a short
/// sequence of gestures; see `ScenarioInputApplier`).
public enum ScenarioInput: Sendable, Equatable {
    /// `camera [LAT LON] [zoom=] [bearing=] [pitch=] [duration=]`: a programmatic camera change.
    case camera(CameraOptions, durationSeconds: Double)
    /// `fix LAT LON [acc=] [speed=] [course=] [alt=] [heading=]` or `fix none` (the receiver lost its fix).
    case fix(Fix)
    /// `heading DEG acc=A [magnetic=DEG] [source=imu|gnss]`: a compass sample (time set when applied).
    case heading(HeadingSample)
    /// A console tracking command (`mode`, `viewport`, `show`, `accuracy`, `precise`, `pan`, `rotate`,
    /// `zoom`, `pitch`), parsed by the console's own parser.
    case console(ConsoleCommand)
    /// `touch`: a finger touches the map (UIKit `touchesBegan`).
    case touch
    /// `doubletap [X Y]` / `twofingertap [X Y]`: the tap gestures (nil point = the view centre).
    case doubleTap(ScreenPoint?)
    case twoFingerTap(ScreenPoint?)
    /// `target LAT LON | none [immediate]`: MapLibre `targetCoordinate`.
    case target(GeoCoordinate?, animated: Bool)
    /// `insets TOP LEFT BOTTOM RIGHT [immediate]`: content insets, points.
    case insets(EdgeInsets, animated: Bool)
    /// `align center|top|bottom [immediate]`: `userLocationVerticalAlignment`.
    case alignment(VerticalAlignment, animated: Bool)
    /// `anchor X Y | none`: the user-location anchor point (delegate override).
    case anchor(ScreenPoint?)
    /// `authorization authorized|denied|notDetermined`.
    case authorization(AuthorizationStatus)
    /// `indicator on|off`: `showsUserHeadingIndicator`.
    case headingIndicator(Bool)
    /// `T view W H`: the view is resized.
    case viewSize(ScreenSize)
    /// `end`: the run stops here.
    case end
}
