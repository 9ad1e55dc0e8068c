/// The viewport states of Mapbox's viewport API (tracking.md 10.7, 10.8).
public enum ViewportStateKind: UInt8, Sendable, Equatable {
    /// Follow the puck (`FollowPuckViewportState`).
    case followPuck
    /// Fit a geometry (`OverviewViewportState`).
    case overview
}

/// The transition kinds of Mapbox's viewport API (tracking.md 10.9, 10.10).
public enum ViewportTransitionKind: UInt8, Sendable, Equatable {
    /// `DefaultViewportTransition`: per-property durations and delays, easeInOut, capped.
    case `default`
    /// `ImmediateViewportTransition`: one jump.
    case immediate
}

/// Mapbox `ViewportStatus` (tracking.md 10.11): idle, a state, or a transition to a state.
public enum ViewportStatus: Sendable, Equatable {
    case idle
    case state(ViewportStateKind)
    case transition(ViewportTransitionKind, to: ViewportStateKind)
}

/// What last turned the camera (the source of its bearing), for the status view (tracking.md 1.5, 4.7).
public enum CameraBearingSource: UInt8, Sendable, Equatable {
    /// Not turned since start.
    case none
    /// Heading modes / follow-puck `.heading`: the IMU heading.
    case imuHeading
    /// Heading modes / follow-puck `.heading`: a GNSS true heading (HDT/THS, dual antenna).
    case gpsTrueHeading
    /// Course modes, follow-puck `.course`, or the heading fallback: the GNSS course.
    case gpsCourse
    /// followWithCourse with a target: the azimuth from the user to the target.
    case targetAzimuth
    /// A fixed bearing: a programmatic camera change, a viewport constant, the overview's bearing.
    case command
    /// A rotate gesture.
    case gesture
    /// Back to north: snap-to-north after a gesture, or the unrotate below the rotation zoom.
    case north

    /// The camera source for a bearing the fallback rule selected.
    init(_ source: BearingSource) {
        switch source {
        case .none: self = .none
        case .imuHeading: self = .imuHeading
        case .gpsTrueHeading: self = .gpsTrueHeading
        case .gpsCourse: self = .gpsCourse
        }
    }
}

/// The camera the map shows, evaluated at one tick.
///
/// Zoom uses 512-pt tiles; bearing is degrees clockwise from true north (the direction at the top of
/// the screen); pitch is degrees from looking straight down. The `center` coordinate is drawn at
/// `anchor`, the centre of the view inset by `padding` (tracking.md 5.3).
public struct CameraState: Sendable, Equatable {
    /// Coordinate at the anchor point.
    public var center: GeoCoordinate
    /// Zoom level (512-pt tiles), minimumZoom...maximumZoom.
    public var zoom: Double
    /// Map rotation, degrees clockwise from true north, 0..<360.
    public var bearingDegrees: Double
    /// What last turned the map to `bearingDegrees`.
    public var bearingSource: CameraBearingSource
    /// Camera tilt, degrees, 0...maximumPitch (jumps and eases further limited by asymmetric padding,
    /// tracking.md 5.7).
    public var pitchDegrees: Double
    /// Camera padding, points (may be negative: MapLibre's anchor conversion, tracking.md 5.3).
    public var padding: EdgeInsets
    /// Screen point of `center`: view centre shifted by ½(left − right), ½(top − bottom).
    public var anchor: ScreenPoint
    /// Ground metres per point at the centre.
    public var metersPerPoint: Double
    /// MapLibre/ArcGIS tracking mode.
    public var trackingMode: TrackingMode
    /// MapLibre tracking sub-state (tracking.md 2.5).
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
