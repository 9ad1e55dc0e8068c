/// Every tunable number of the tracking core, with the SDK defaults of docs/tracking.md. Field names are
/// the configuration keys (`[tracking] <field>` in a file, `--set tracking.<field>=…`); units are in the
/// names. `validationError()` checks each numeric field against the range given in its comment.
///
/// Where the SDKs disagree (tracking.md 15) the default follows MapLibre Native iOS (the base of
/// NextBillion's NGLMapView) unless the comment says otherwise, and the field lets a user choose.
public struct TrackingConfiguration: Sendable, Equatable {
    // MARK: view and camera limits

    /// Initial view size, points (1...16384 each; default 800 × 480, the 7-inch Pi display).
    public var viewportWidthPoints: Double = 800
    public var viewportHeightPoints: Double = 480
    /// Camera at start: centre (degrees), zoom (minimumZoom...maximumZoom), bearing, pitch.
    public var initialLatitudeDegrees: Double = 0
    public var initialLongitudeDegrees: Double = 0
    public var initialZoom: Double = 0
    public var initialBearingDegrees: Double = 0
    public var initialPitchDegrees: Double = 0
    /// Zoom limits, 0...25.5 (tracking.md 12.4; default max **22**).
    public var minimumZoom: Double = WebMercator.minimumZoom
    public var maximumZoom: Double = WebMercator.defaultMaximumZoom
    /// Pitch limits, degrees, 0...85. Q5: MapLibre's default max **60** is the default; Mapbox uses 85.
    public var minimumPitchDegrees: Double = 0
    public var maximumPitchDegrees: Double = WebMercator.defaultMaximumPitchDegrees

    // MARK: MapLibre tracking (tracking.md 2–6)

    /// Camera ease per fix while following, seconds, 0.05...10 (MLNUserLocationAnimationDuration **1.0**).
    public var userLocationAnimationDurationSeconds: Double = 1.0
    /// When true the follow ease lasts min(Δt between fixes, the duration above)
    /// (`dynamicNavigationCameraAnimationDuration`, default **false**; tracking.md 3.4).
    public var dynamicCameraAnimationDuration: Bool = false
    /// Camera bearing ease per heading sample, seconds, 0...5 (**0.3** linear; tracking.md 4.4).
    public var headingAnimationDurationSeconds: Double = 0.3
    /// Below this zoom the first fly zooms in, 0...25.5 (MLNMinimumZoomLevelForUserTracking **10.5**).
    public var trackingMinimumZoom: Double = 10.5
    /// Zoom of the first fly when below the minimum, 0...25.5 (MLNDefaultZoomLevelForUserTracking **14**).
    public var trackingDefaultZoom: Double = 14.0
    /// Vertical position of the puck while tracking (tracking.md 5.1; default centre).
    public var userLocationVerticalAlignment: VerticalAlignment = .center
    /// After a rotate gesture, bearings within this of north snap to 0, degrees 0...45 (**7**; tracking.md 3.7).
    public var snapToNorthToleranceDegrees: Double = 7
    /// Minimum heading change that moves the camera in heading mode, degrees 0...180
    /// (CoreLocation's `headingFilter` default **1**; tracking.md 4.2).
    public var headingFilterDegrees: Double = 1
    /// Show the heading arrow on the dot outside heading mode (`showsUserHeadingIndicator`, default false).
    public var showsUserHeadingIndicator: Bool = false

    // MARK: bearing sources (the bearing fallback, HeadingSourceSelector)

    /// Course counts as valid only at or above this speed, m/s, 0...100. Our stand-in for CoreLocation's
    /// opaque "course ≥ 0" validity (tracking.md 2.3, Q10): **0.5** m/s (a slow walk); 0 = MapLibre literal
    /// (no threshold, any reported course is valid).
    public var courseMinimumSpeedMetersPerSecond: Double = 0.5
    /// IMU heading older than this is no longer used, seconds, 0.01...3600 (default **10**: the heading
    /// provider publishes only on a `headingFilter` change, so the timeout must outlast a still device).
    public var imuHeadingTimeoutSeconds: Double = 10
    /// GPS true heading / course from a fix older than this are not used, seconds, 0.01...3600 (**3**).
    public var gpsBearingMaxAgeSeconds: Double = 3
    /// Accuracy assumed for GPS true heading and course (no accuracy in NMEA), degrees, 0...180 (**10**).
    public var assumedGPSBearingAccuracyDegrees: Double = 10
    /// Q17: heading modes (followWithHeading, compassNavigation), the heading arrow and fan, and the
    /// follow-puck bearing `.heading` fall back to the GNSS course when no heading (IMU, GNSS true
    /// heading) is valid: **true**, what a vehicle wants. False is SDK-strict: MapLibre and Mapbox turn
    /// the map only on a compass heading and otherwise leave the bearing alone (tracking.md 4.7).
    public var headingFallsBackToCourse: Bool = true
    /// Q21: a fix reporting exactly 0 m horizontal accuracy is ignored (counted in `rejectedFixCount` and
    /// `zeroAccuracyFixCount`), as MapLibre does (**true**). False keeps its position with the accuracy
    /// unknown, for a receiver that writes 0.0 where it has no estimate (tracking.md 1.4).
    public var ignoresZeroAccuracyFixes: Bool = true
    /// Q6: what the puck arrow shows when its bearing becomes unavailable.
    public var puckBearingWhenUnavailable: PuckBearingFallback = .keepLast

    // MARK: puck (tracking.md 8, 9, 13)

    /// Q8: how the puck position is smoothed between fixes.
    public var puckSmoothing: PuckSmoothing = .mapLibre
    /// Jumps longer than this at the current zoom snap without animation, points, 1...1e9
    /// (MapLibre Android `immediateAnimation` threshold **50 000** px; tracking.md 13.1).
    public var snapDistancePoints: Double = 50_000
    /// Draw the accuracy ring (MapLibre: yes; Mapbox `showsAccuracyRing` default false).
    public var showsAccuracyRing: Bool = true
    /// Q13: when the halo pulses.
    public var haloGating: HaloGating = .accuracyAtMost10Meters
    /// Enable the stale state (MapLibre Android `enableStaleState` default **true**; tracking.md 9.1).
    public var staleStateEnabled: Bool = true
    /// No fresh fix for this long → stale, seconds, 0.1...86400 (Android `staleStateTimeout` **30 000 ms**).
    public var staleTimeoutSeconds: Double = 30
    /// Colours, opacities and sizes of the puck.
    public var style: PuckStyleProperties = PuckStyleProperties()

    // MARK: ArcGIS (tracking.md 11)

    /// Q1: recenter's wander extent, 0...1 (0 = pan on every fix; 1 = only at the view edge). ArcGIS's
    /// default was not found in the docs read; **0.5** is our choice.
    public var wanderExtentFactor: Double = 0.5
    /// Navigation puck height above the bottom as a fraction of the view height, 0...1 (**0.125**).
    public var navigationPointHeightFactor: Double = 0.125
    /// First-fix scale denominator after leaving `off`, 1...1e9 (`initialZoomScale` **10 000**).
    public var initialZoomScale: Double = 10_000
    /// Q2: how `initialZoomScale` becomes a zoom (96 pt per inch).
    public var initialZoomScaleConvention: ScaleConvention = .trueScaleAtLatitude
    /// Q11: the heading `compassNavigation` turns the map to.
    public var compassNavigationReference: HeadingReference = .trueNorthPreferred
    /// ArcGIS `useCourseSymbolOnMovement` (default false): course puck in ArcGIS modes when moving.
    public var arcGISUsesCourseSymbolOnMovement: Bool = false

    // MARK: Mapbox viewport (tracking.md 10)

    /// Gestures send the viewport to idle (`transitionsToIdleUponUserInteraction` default **true**).
    public var transitionsToIdleUponUserInteraction: Bool = true
    /// Default transition's maximum duration, seconds, 0...60 (**3.5**; tracking.md 10.9).
    public var defaultTransitionMaxDurationSeconds: Double = 3.5
    /// Overview of the recent track: a point is added when the fix is this far from the last one,
    /// metres, 0...100 000 (**10**; the ring holds `TrackHistory.capacity` points).
    public var overviewTrackSpacingMeters: Double = 10

    // MARK: accuracy authorization (tracking.md 7)

    /// Reduced accuracy snaps every position to a grid of this cell size, metres, 100...100 000 (**3000**).
    public var reducedAccuracyGridMeters: Double = 3000
    /// Purpose keys `requestTemporaryFullAccuracy(purposeKey:)` accepts (Info.plist
    /// `NSLocationTemporaryUsageDescriptionDictionary` keys). Default: MapLibre's key.
    public var temporaryFullAccuracyPurposeKeys: [String] = ["MLNAccuracyAuthorizationDescription"]
    /// A temporary full-accuracy grant lasts this long, seconds, 1...86400 (**3600**; iOS ends it when
    /// the app leaves the foreground, which a vehicle display never does).
    public var temporaryFullAccuracyDurationSeconds: Double = 3600
    /// Ask for temporary full accuracy with MapLibre's key when reduced while tracking (tracking.md 7.4).
    public var requestsTemporaryFullAccuracyWhileTracking: Bool = true

    public init() {}

    /// The view size as a `ScreenSize`.
    public var viewportSize: ScreenSize {
        ScreenSize(widthPoints: viewportWidthPoints, heightPoints: viewportHeightPoints)
    }
}

/// Q6: puck arrow when the course or heading is missing (tracking.md 1.3).
public enum PuckBearingFallback: UInt8, Sendable, Equatable {
    /// MapLibre: leave the arrow where it was (default).
    case keepLast
    /// Mapbox 2D puck: write 0, so the arrow snaps north.
    case north
}

/// Q8: puck position smoothing between fixes (tracking.md 13.1, 10.5).
public enum PuckSmoothing: UInt8, Sendable, Equatable {
    /// MapLibre iOS: linear over min(Δt between fixes, 1.0 s); the first fix is placed at once (default).
    case mapLibre
    /// Mapbox: linear over 1.1 s restarted from the current value; the first sample jumps.
    case mapbox
}

/// Q13: when the halo (sonar pulse) is shown (tracking.md 8.4, 10.3).
public enum HaloGating: UInt8, Sendable, Equatable {
    /// MapLibre iOS: only while horizontal accuracy ≤ 10 m (default).
    case accuracyAtMost10Meters
    /// Mapbox `pulsing` enabled: always.
    case always
    /// Never.
    case never
}

/// Q2: how an ArcGIS scale denominator maps to a zoom.
public enum ScaleConvention: UInt8, Sendable, Equatable {
    /// True scale at the fix latitude (1:10 000 at 52° → z ≈ 14.15) (default).
    case trueScaleAtLatitude
    /// Nominal equatorial scale (1:10 000 → z ≈ 14.85 everywhere).
    case nominalEquatorial
}

/// Q11: the heading reference of `compassNavigation`.
public enum HeadingReference: UInt8, Sendable, Equatable {
    /// MapLibre/Mapbox rule: true heading, else magnetic (default).
    case trueNorthPreferred
    /// ArcGIS docs: relative to magnetic north.
    case magneticNorth
}
