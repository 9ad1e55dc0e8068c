/// The viewport states of Mapbox's viewport API (spec 10.7, 10.8).
public enum ViewportStateKind: UInt8, Sendable, Equatable {
    /// Follow the puck (`FollowPuckViewportState`).
    case followPuck
    /// Fit a geometry (`OverviewViewportState`).
    case overview
}

/// The transition kinds of Mapbox's viewport API (spec 10.9, 10.10).
public enum ViewportTransitionKind: UInt8, Sendable, Equatable {
    /// `DefaultViewportTransition`: per-property durations and delays, easeInOut, capped.
    case `default`
    /// `ImmediateViewportTransition`: one jump.
    case immediate
}

/// Mapbox `ViewportStatus` (spec 10.11): idle, a state, or a transition to a state.
public enum ViewportStatus: Sendable, Equatable {
    case idle
    case state(ViewportStateKind)
    case transition(ViewportTransitionKind, to: ViewportStateKind)
}

/// The camera the map shows, evaluated at one tick.
///
/// Zoom uses 512-pt tiles; bearing is degrees clockwise from true north (the direction at the top of
/// the screen); pitch is degrees from looking straight down. The `center` coordinate is drawn at
/// `anchor`, the centre of the view inset by `padding` (spec 5.3).
public struct CameraState: Sendable, Equatable {
    /// Coordinate at the anchor point.
    public var center: GeoCoordinate
    /// Zoom level (512-pt tiles), minimumZoom...maximumZoom.
    public var zoom: Double
    /// Map rotation, degrees clockwise from true north, 0..<360.
    public var bearingDegrees: Double
    /// Camera tilt, degrees, 0...maximumPitch (further limited by asymmetric padding, spec 5.7).
    public var pitchDegrees: Double
    /// Camera padding, points (may be negative: MapLibre's anchor conversion, spec 5.3).
    public var padding: EdgeInsets
    /// Screen point of `center`: view centre shifted by ½(left − right), ½(top − bottom).
    public var anchor: ScreenPoint
    /// Ground metres per point at the centre.
    public var metersPerPoint: Double
    /// MapLibre/ArcGIS tracking mode.
    public var trackingMode: TrackingMode
    /// MapLibre tracking sub-state (spec 2.5).
    public var trackingState: TrackingState
    /// Mapbox viewport status.
    public var viewportStatus: ViewportStatus
    /// Progress of the viewport transition 0...1 (1 when not in a transition).
    public var viewportTransitionProgress: Double
    /// Progress of the newest running camera animation 0...1 (1 when none runs).
    public var animationProgress: Double
    /// True while any camera property animates.
    public var isAnimating: Bool
    /// Monotonic time of the tick that produced this state, nanoseconds.
    public var timeNanoseconds: Int64
}
