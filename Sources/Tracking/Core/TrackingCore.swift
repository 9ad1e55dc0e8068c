import Angles
import NMEA

/// One user location as the core keeps it: the displayed (possibly coarsened) position plus the raw
/// fix values it came from.
struct LocationSample: Sendable, Equatable {
    var coordinate: GeoCoordinate
    var point: MercatorPoint
    var horizontalAccuracyMeters: Double?
    /// Valid course (speed ≥ threshold), nil = invalid (CoreLocation's −1). Nil under reduced accuracy.
    var courseDegrees: Double?
    var rawCoordinate: GeoCoordinate
    var rawAccuracyMeters: Double?
    var rawCourseDegrees: Double?
    /// Monotonic arrival time, nanoseconds.
    var timeNanoseconds: Int64
    /// UTC of the fix, nanoseconds since 1970, when known.
    var utcNanoseconds: Int64?
}

/// The tracking core: a pure, fixed-allocation state machine that turns fixes, heading samples,
/// commands and gestures into the puck and camera the mobile map SDKs would show. Its rules are
/// docs/tracking.md; comments cite them as `tracking.md N.M` (see `TrackingMode`, `TrackingConfiguration`).
///
/// Every input carries a monotonic time in nanoseconds; nothing reads a clock. `tick(atNanoseconds:)`
/// advances animations and refreshes `puck` and `camera`; events queue in `events`. Inputs with a
/// time earlier than the latest one seen are applied at the latest time (counted in
/// `timeRegressionCount`). After `init`, no method allocates.
public struct TrackingCore: Sendable {
    /// The configuration the core was built with (validated); only the heading filter changes later
    /// (`setHeadingFilterDegrees`, a live setting).
    public internal(set) var configuration: TrackingConfiguration
    /// The puck at the latest tick.
    public internal(set) var puck: PuckState
    /// The camera at the latest tick.
    public internal(set) var camera: CameraState
    /// Events not yet read (read them with `popEvent()`).
    public internal(set) var events = EventRing()
    /// Inputs whose time was earlier than a previous input's (applied at the latest time).
    public internal(set) var timeRegressionCount: UInt64 = 0
    /// Fixes without a usable position (no fix, invalid coordinate, (0,0), or authorization denied).
    public internal(set) var rejectedFixCount: UInt64 = 0
    /// Fixes ignored because they reported 0 m horizontal accuracy (also in `rejectedFixCount`; Q21).
    public internal(set) var zeroAccuracyFixCount: UInt64 = 0
    /// Heading samples ignored because a pan gesture was in its Began state.
    public internal(set) var ignoredHeadingCount: UInt64 = 0

    // Time.
    var clockNanoseconds: Int64 = Int64.min

    // View.
    var viewSize: ScreenSize
    var contentInsets = EdgeInsets.zero
    var anchorOverride: ScreenPoint? = nil
    var verticalAlignment: VerticalAlignment

    // MapLibre user location and tracking.
    var showsUserLocation = false
    var showsUserHeadingIndicator: Bool
    var mode: TrackingMode = .none
    var trackingState: TrackingState = .possible
    var targetCoordinate: GeoCoordinate? = nil
    /// MapLibre `userLocation.location` (not updated while the first fly is in state Began).
    var userLocation: LocationSample? = nil
    /// Newest accepted fix (every consumer but MapLibre's stored location).
    var latest: LocationSample? = nil
    var lastFreshFixNanoseconds: Int64? = nil
    var hadPosition = false
    var arcGISInitialZoomPending = false
    var lastCameraHeadingDegrees: Double? = nil
    var panBegan = false
    var rotationSinceBeganDegrees = 0.0

    // Bearing.
    var selector: HeadingSourceSelector
    var selection: BearingSelection? = nil
    /// Until then no bearing source can time out: `advance` skips re-selecting.
    var bearingExpiryNanoseconds: Int64 = Int64.min
    var lastEventHeadingDegrees: Double? = nil

    // Puck smoothing and drawing state.
    var puckMotion = PuckMotion()
    var puckBearing = BearingMotion()
    var puckBearingSource: BearingSource = .none
    var puckEpochNanoseconds: Int64? = nil
    var shownScreenRotationDegrees: Double? = nil

    // Camera.
    var values: CameraValues
    var animator = CameraAnimator()
    /// What last turned the camera.
    var cameraBearingSource: CameraBearingSource = .none
    /// MapLibre's delayed north checks (`dispatch_after`): the unrotate 0.1 s after a tracking update
    /// and the gesture check 0.3 s after a tap zoom (tracking.md 3.5, 3.7); nil when none is due.
    var pendingResetNorthNanoseconds: Int64? = nil
    var pendingGestureNorthCheckNanoseconds: Int64? = nil
    /// Mapbox's interpolated puck bearings for the follow-puck viewport (tracking.md 10.7): the course
    /// eased over 1.1 s with the location, the heading over 0.3 s; nil when missing.
    var viewportCourse = BearingMotion()
    var viewportHeading = BearingMotion()
    /// Cache of the padding-dependent pitch limit (tracking.md 5.7) for `pitchLimitPadding` / `pitchLimitSize`.
    var pitchLimitPadding = EdgeInsets(topPoints: .nan)
    var pitchLimitSize = ScreenSize(widthPoints: 0, heightPoints: 0)
    var pitchLimitDegrees = 0.0

    // Mapbox viewport.
    var viewportStatus: ViewportStatus = .idle
    var viewportTarget: ViewportTarget? = nil
    var viewportTransitionKind: ViewportTransitionKind = .default
    var transitionGroup: UInt32 = 0
    /// The properties the running default transition animates (bits: centre 1, zoom 2, bearing 4,
    /// pitch 8, padding 16).
    var transitionChannels: UInt8 = 0
    var transitionToken: UInt32 = 0
    var transitionPending = false
    var overviewRefitGroup: UInt32 = 0
    var overviewFittedVersion: UInt64 = UInt64.max
    var overviewFittedSize: ScreenSize = ScreenSize(widthPoints: 0, heightPoints: 0)

    // Authorization.
    var authorizationStatus: AuthorizationStatus = .authorized
    var accuracyAuthorization: AccuracyAuthorization = .full
    var temporaryFullAccuracyUntilNanoseconds: Int64? = nil

    var track = TrackHistory()
    var nextToken: UInt32 = 1

    /// A core with `configuration` (throws the first out-of-range field). Authorization starts as
    /// authorized with full accuracy (a board has no permission prompt); showsUserLocation is off
    /// and the mode is `none` (MapLibre defaults, tracking.md 2.1, 7.1).
    public init(configuration: TrackingConfiguration = TrackingConfiguration()) throws(TrackingConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        viewSize = configuration.viewportSize
        verticalAlignment = configuration.userLocationVerticalAlignment
        showsUserHeadingIndicator = configuration.showsUserHeadingIndicator
        selector = HeadingSourceSelector(
            imuTimeoutNanoseconds: Self.nanoseconds(configuration.imuHeadingTimeoutSeconds),
            gpsMaxAgeNanoseconds: Self.nanoseconds(configuration.gpsBearingMaxAgeSeconds),
            courseMinimumSpeedMetersPerSecond: configuration.courseMinimumSpeedMetersPerSecond,
            assumedGPSAccuracyDegrees: configuration.assumedGPSBearingAccuracyDegrees)
        let center = GeoCoordinate(latitudeDegrees: configuration.initialLatitudeDegrees,
                                   longitudeDegrees: configuration.initialLongitudeDegrees)
        values = CameraValues(center: WebMercator.project(center), zoom: configuration.initialZoom,
                              bearingDegrees: Angle.wrap360(configuration.initialBearingDegrees),
                              pitchDegrees: configuration.initialPitchDegrees, padding: .zero)
        puck = PuckState(isVisible: false, hasLocation: false, coordinate: center,
                         screenPoint: ScreenPoint(xPoints: 0, yPoints: 0), isPinnedToAnchor: false,
                         horizontalAccuracyMeters: 0, bearingDegrees: nil, bearingSource: .none,
                         bearingOnScreenDegrees: nil, style: .dot, accuracyRingDiameterPoints: 0,
                         accuracyRingVisible: false, approximateBorderWidthPoints: 0, haloVisible: false,
                         haloDiameterPoints: 0, haloScale: 0, haloOpacity: 0, pulsePhase: 0, dotBreathScale: 1,
                         dotBreathOpacity: 1, headingIndicator: .none, headingFanWidthDegrees: 0,
                         shadowOffsetPoints: 0, shadowRadiusPoints: 0, isStale: configuration.staleStateEnabled,
                         isReducedAccuracy: false, properties: configuration.style, timeNanoseconds: 0)
        camera = CameraState(center: center, zoom: configuration.initialZoom,
                             bearingDegrees: values.bearingDegrees, bearingSource: .none, pitchDegrees: values.pitchDegrees,
                             padding: .zero, anchor: CameraGeometry.anchor(padding: .zero, size: viewSize),
                             metersPerPoint: WebMercator.metersPerPoint(latitudeDegrees: center.latitudeDegrees,
                                                                        zoom: configuration.initialZoom),
                             trackingMode: .none, trackingState: .possible, viewportStatus: .idle,
                             viewportTransitionProgress: 1, animationProgress: 1, isAnimating: false,
                             timeNanoseconds: 0)
    }

    // MARK: read-outs

    /// The current tracking mode.
    public var trackingMode: TrackingMode { mode }
    /// MapLibre's tracking sub-state.
    public var currentTrackingState: TrackingState { trackingState }
    /// True when the puck is enabled (`showsUserLocation`).
    public var isShowingUserLocation: Bool { showsUserLocation }
    /// The bearing the fallback rule (`HeadingSourceSelector`) currently selects, nil when none.
    public var currentBearingSelection: BearingSelection? { selection }
    /// True while heading updates are needed: (showsUserHeadingIndicator and mode ≠ course) or
    /// heading mode (MapLibre `validateUserHeadingUpdating`, tracking.md 4.1).
    public var wantsHeadingUpdates: Bool {
        (showsUserHeadingIndicator && mode.behavior != .course) || mode.behavior == .heading
    }
    /// Authorization as the core applies it: status and effective accuracy.
    public var authorization: (status: AuthorizationStatus, accuracy: AccuracyAuthorization) {
        (authorizationStatus, isCoarse ? .reduced : .full)
    }
    /// The view size in points.
    public var viewportSize: ScreenSize { viewSize }

    /// Removes and returns the oldest waiting event.
    public mutating func popEvent() -> TimedTrackingEvent? { events.pop() }

    // MARK: shared helpers

    /// Nanoseconds of a duration; NaN is 0 and magnitudes are capped at 10^9 s (31 years), so no value
    /// of a configuration or API argument can trap the conversion.
    static func nanoseconds(_ seconds: Double) -> Int64 {
        guard !seconds.isNaN else { return 0 }
        return Int64((min(max(seconds, -1e9), 1e9) * 1e9).rounded())
    }

    /// True while positions are coarsened (reduced accuracy and no temporary full accuracy).
    @inline(__always)  // a call boundary would copy the whole core (≈ 9 KB)
    var isCoarse: Bool { accuracyAuthorization == .reduced && temporaryFullAccuracyUntilNanoseconds == nil }

    mutating func emit(_ event: TrackingEvent, at now: Int64) { events.push(event, at: now) }

    mutating func newToken() -> UInt32 {
        let t = nextToken
        nextToken = nextToken == UInt32.max ? 1 : nextToken + 1
        return t
    }

    mutating func complete(_ token: UInt32, success: Bool, at now: Int64) {
        if token != 0 { emit(.completed(CompletionToken(rawValue: token), success: success), at: now) }
    }

    /// Clamps an input time to the monotonic clock.
    mutating func monotonic(_ time: Int64) -> Int64 {
        if clockNanoseconds == Int64.min || time >= clockNanoseconds { return time }
        timeRegressionCount &+= 1
        return clockNanoseconds
    }

    /// Zoom limits as configured.
    @inline(__always)  // a call boundary would copy the whole core (≈ 9 KB)
    var minimumZoom: Double { configuration.minimumZoom }
    @inline(__always)  // a call boundary would copy the whole core (≈ 9 KB)
    var maximumZoom: Double { configuration.maximumZoom }
    /// MapLibre `currentMinimumZoom` = max(minZoom, 3) (tracking.md 2.4, 12.4).
    @inline(__always)  // a call boundary would copy the whole core (≈ 9 KB)
    var currentMinimumZoom: Double { max(configuration.minimumZoom, 3) }
}
