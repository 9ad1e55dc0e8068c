/// The puck variant drawn (tracking.md 8.1).
public enum PuckStyle: UInt8, Sendable, Equatable {
    /// Blue dot with a white border (22 pt), accuracy ring and halo.
    case dot
    /// 45 pt disc with a course chevron (course mode).
    case course
    /// One large circle sized by the (coarse) accuracy (reduced accuracy authorization).
    case approximate
}

/// The heading graphic on the dot (tracking.md 8.5).
public enum HeadingIndicator: UInt8, Sendable, Equatable {
    case none
    /// A fan ("beam") whose width shows the heading accuracy (heading mode).
    case fan
    /// A small triangle (`showsUserHeadingIndicator`, or ArcGIS compass navigation).
    case arrow
}

/// Which measurement the puck bearing came from (the bearing fallback, `HeadingSourceSelector`).
public enum BearingSource: UInt8, Sendable, Equatable {
    case none
    /// IMU heading (true, else magnetic).
    case imuHeading
    /// GNSS true heading (NMEA HDT/THS, or a GNSS heading sample).
    case gpsTrueHeading
    /// GNSS course over ground (valid at or above the configured speed).
    case gpsCourse
}

/// The puck as the map would draw it at one tick. Sizes in points, angles in degrees clockwise from
/// north (screen angles clockwise from the top of the screen), phases 0..<1, opacities 0...1.
public struct PuckState: Sendable, Equatable {
    /// True when the puck is drawn: showsUserLocation, authorised, a location, on or near the screen.
    public var isVisible: Bool
    /// True once a location is known.
    public var hasLocation: Bool
    /// Smoothed (interpolated) position (coarsened under reduced accuracy).
    public var coordinate: GeoCoordinate
    /// Where the puck is drawn: the anchor while pinned, else the projected coordinate rounded to whole points.
    public var screenPoint: ScreenPoint
    /// True while MapLibre tracking pins the puck to the anchor point (tracking.md 5.4).
    public var isPinnedToAnchor: Bool
    /// Smoothed horizontal accuracy, metres (≥ the grid size under reduced accuracy); −1 when the fix
    /// had none.
    public var horizontalAccuracyMeters: Double
    /// Smoothed puck bearing, degrees 0..<360, nil when none was ever available.
    public var bearingDegrees: Double?
    /// Source of the bearing currently shown.
    public var bearingSource: BearingSource
    /// Rotation of the arrow / fan on screen = bearing − camera bearing, 0..<360; redrawn only when it
    /// moves by more than 0.01 rad (tracking.md 8.5). Nil when no bearing.
    public var bearingOnScreenDegrees: Double?
    /// Variant drawn.
    public var style: PuckStyle
    /// Accuracy circle diameter = 2·accuracy / metres-per-point (approximate style: at zoom ≥ 7).
    public var accuracyRingDiameterPoints: Double
    /// True when the ring (or the approximate circle) is drawn.
    public var accuracyRingVisible: Bool
    /// Approximate circle border width, points (2, or 1 below zoom 7); 0 in other styles.
    public var approximateBorderWidthPoints: Double
    /// True when the halo pulses.
    public var haloVisible: Bool
    /// Halo base diameter: the ring's when the ring is visible, else 115 pt.
    public var haloDiameterPoints: Double
    /// Halo scale and opacity at this tick (keyframes 0 → 0.35 → 1, 0.4 → 0.4 → 0).
    public var haloScale: Double
    public var haloOpacity: Double
    /// Halo loop phase 0..<1 (3.0 s loop).
    public var pulsePhase: Double
    /// Inner dot "breathing" (1.5 s, autoreverse): scale and opacity 0.8...1.
    public var dotBreathScale: Double
    public var dotBreathOpacity: Double
    /// Heading graphic shown.
    public var headingIndicator: HeadingIndicator
    /// Fan total angle = clamp(2·accuracy, 40°, 160°) when the fan is shown, else 0.
    public var headingFanWidthDegrees: Double
    /// Faux-3D shadow of the course puck: offset max(pitch_rad·10, 1), radius max(pitch_rad·5, 0.75).
    public var shadowOffsetPoints: Double
    public var shadowRadiusPoints: Double
    /// True when no fresh fix arrived within the stale timeout (and before the first fix).
    public var isStale: Bool
    /// True while reduced accuracy authorization coarsens the outputs.
    public var isReducedAccuracy: Bool
    /// Colours, opacities and sizes used.
    public var properties: PuckStyleProperties
    /// Monotonic time of the tick that produced this state, nanoseconds.
    public var timeNanoseconds: Int64
}
