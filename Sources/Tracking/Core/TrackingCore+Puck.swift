import Angles
import Glibc

extension TrackingCore {
    /// Ring hidden at or below the dot size + 15 pt = 37 pt (tracking.md 8.3).
    public static let accuracyRingMarginPoints = 15.0
    /// Halo shown only at or below this accuracy, metres (tracking.md 8.4): **10**.
    public static let haloMaximumAccuracyMeters = 10.0
    /// Halo loop, seconds (tracking.md 8.4): **3.0**.
    public static let haloPeriodSeconds = 3.0
    /// Inner dot breathing, seconds each way (tracking.md 8.2): **1.5**.
    public static let breathHalfPeriodSeconds = 1.5
    /// Approximate circle sized at zoom ≥ this (MLNUserLocationApproximateZoomThreshold **7**, tracking.md 8.7).
    public static let approximateZoomThreshold = 7.0
    /// Heading fan limits, degrees (tracking.md 8.5): clamp(2·accuracy, **40**, **160**).
    public static let fanMinimumDegrees = 40.0
    public static let fanMaximumDegrees = 160.0
    /// The heading graphic is redrawn only when its rotation changes by more than this, radians (tracking.md 8.5).
    public static let headingRedrawThresholdRadians = 0.01
    /// The puck is hidden when more than this outside the view, points (tracking.md 8.9): **150**.
    public static let offscreenMarginPoints = 150.0

    /// Variant the puck uses now (tracking.md 8.1): approximate under reduced accuracy; the course puck in
    /// followWithCourse (and ArcGIS modes with `arcGISUsesCourseSymbolOnMovement` while a valid course
    /// exists); otherwise the dot.
    @inline(__always)  // a call boundary would copy the whole core (≈ 9 KB)
    var currentPuckStyle: PuckStyle {
        if isCoarse { return .approximate }
        if mode == .followWithCourse { return .course }
        if mode.isArcGIS && mode.isTracking && configuration.arcGISUsesCourseSymbolOnMovement
            && latest?.courseDegrees != nil { return .course }
        return .dot
    }

    /// Accuracy ring diameter for an accuracy at a latitude and zoom, whole points:
    /// round(2·accuracy / metres-per-point) (MapLibre `calculateAccuracyRingSize`, tracking.md 8.3).
    public static func accuracyRingDiameterPoints(accuracyMeters: Double, latitudeDegrees: Double, zoom: Double) -> Double {
        (2 * accuracyMeters / WebMercator.metersPerPoint(latitudeDegrees: latitudeDegrees, zoom: zoom)).rounded()
    }

    /// Heading fan width for a heading accuracy (tracking.md 8.5).
    public static func headingFanWidthDegrees(accuracyDegrees: Double) -> Double {
        min(max(2 * accuracyDegrees, fanMinimumDegrees), fanMaximumDegrees)
    }

    /// Halo keyframes at loop phase 0..<1 after the default (ease) timing: scale 0 → 0.35 → 1 and
    /// opacity 0.4 → 0.4 → 0 at 0, 0.2, 1 (tracking.md 8.4).
    public static func haloKeyframes(phase: Double) -> (scale: Double, opacity: Double) {
        let t = TimingCurve.ease.progress(phase)
        if t < 0.2 { return (0.35 * t / 0.2, 0.4) }
        let u = (t - 0.2) / 0.8
        return (0.35 + 0.65 * u, 0.4 * (1 - u))
    }

    mutating func makePuckState(at now: Int64) -> PuckState {
        var p = puck
        let style = currentPuckStyle
        let properties = configuration.style
        p.timeNanoseconds = now
        p.properties = properties
        p.style = style
        p.isReducedAccuracy = isCoarse
        p.hasLocation = puckMotion.hasValue
        p.isStale = configuration.staleStateEnabled
            && (lastFreshFixNanoseconds.map { now - $0 >= Self.nanoseconds(configuration.staleTimeoutSeconds) } ?? true)
        let motion = puckMotion.value(at: now)
        let coordinate = WebMercator.unproject(motion.point)
        p.coordinate = coordinate
        p.horizontalAccuracyMeters = motion.accuracyMeters ?? -1

        // Screen point: pinned at the anchor while MapLibre tracking follows (tracking.md 5.4); ArcGIS
        // recenter lets the symbol wander inside the extent (11.3), so it is drawn where it is.
        let pinned = mode.isTracking && mode != .recenter && trackingState == .changed && showsUserLocation
            && !(mode == .followWithCourse && targetCoordinate != nil) && viewportStatus == .idle
        p.isPinnedToAnchor = pinned
        var onScreen = false
        if pinned {
            p.screenPoint = trackingAnchorPoint
            onScreen = true
        } else if let s = screenPoint(of: motion.point) {
            p.screenPoint = ScreenPoint(xPoints: s.xPoints.rounded(), yPoints: s.yPoints.rounded())
            let m = Self.offscreenMarginPoints
            onScreen = s.xPoints >= -m && s.xPoints <= viewSize.widthPoints + m
                && s.yPoints >= -m && s.yPoints <= viewSize.heightPoints + m
        }
        p.isVisible = showsUserLocation && authorizationStatus != .denied && puckMotion.hasValue && onScreen

        // Bearing (Q6: nil keeps the last value).
        p.bearingDegrees = puckBearing.value(at: now)
        p.bearingSource = puckBearingSource
        if let b = p.bearingDegrees {
            let rotation = Angle.wrap360(b - values.bearingDegrees)
            let threshold = Self.headingRedrawThresholdRadians * Angle.degreesPerRadian
            if shownScreenRotationDegrees == nil
                || abs(Angle.shortestDelta(from: shownScreenRotationDegrees!, to: rotation)) > threshold {
                shownScreenRotationDegrees = rotation
            }
            p.bearingOnScreenDegrees = shownScreenRotationDegrees
        } else {
            p.bearingOnScreenDegrees = nil
        }

        let accuracy = motion.accuracyMeters
        let zoom = values.zoom
        p.accuracyRingDiameterPoints = 0
        p.accuracyRingVisible = false
        p.approximateBorderWidthPoints = 0
        p.haloVisible = false
        p.haloScale = 0
        p.haloOpacity = 0
        p.headingIndicator = .none
        p.headingFanWidthDegrees = 0
        let epoch = puckEpochNanoseconds ?? now
        let elapsedSeconds = Double(now - epoch) / 1e9
        p.pulsePhase = fmod(elapsedSeconds, Self.haloPeriodSeconds) / Self.haloPeriodSeconds
        let breath = fmod(elapsedSeconds, 2 * Self.breathHalfPeriodSeconds) / Self.breathHalfPeriodSeconds
        let tri = breath <= 1 ? breath : 2 - breath
        p.dotBreathScale = style == .dot ? 0.8 + 0.2 * tri : 1
        p.dotBreathOpacity = p.dotBreathScale

        switch style {
        case .dot:
            p.shadowOffsetPoints = 0
            p.shadowRadiusPoints = 3
            if let a = accuracy {
                let d = Self.accuracyRingDiameterPoints(accuracyMeters: a, latitudeDegrees: coordinate.latitudeDegrees, zoom: zoom)
                p.accuracyRingDiameterPoints = d
                p.accuracyRingVisible = configuration.showsAccuracyRing && !p.isStale
                    && d > properties.dotDiameterPoints + Self.accuracyRingMarginPoints
            }
            let haloAllowed: Bool
            switch configuration.haloGating {
            case .accuracyAtMost10Meters: haloAllowed = accuracy.map { $0 <= Self.haloMaximumAccuracyMeters } ?? false
            case .always: haloAllowed = true
            case .never: haloAllowed = false
            }
            p.haloVisible = haloAllowed && !p.isStale && p.hasLocation
            p.haloDiameterPoints = p.accuracyRingVisible ? p.accuracyRingDiameterPoints : properties.haloDiameterPoints
            if p.haloVisible {
                let k = Self.haloKeyframes(phase: p.pulsePhase)
                p.haloScale = k.scale
                p.haloOpacity = k.opacity
            }
            if p.bearingDegrees != nil {
                if mode.behavior == .heading {
                    p.headingIndicator = mode == .compassNavigation ? .arrow : .fan
                } else if showsUserHeadingIndicator {
                    p.headingIndicator = .arrow
                }
                if p.headingIndicator == .fan {
                    p.headingFanWidthDegrees = Self.headingFanWidthDegrees(
                        accuracyDegrees: selection?.accuracyDegrees ?? configuration.assumedGPSBearingAccuracyDegrees)
                }
            }
        case .course:
            let pitchRadians = values.pitchDegrees * Angle.radiansPerDegree
            p.shadowOffsetPoints = max(pitchRadians * 10, 1)
            p.shadowRadiusPoints = max(pitchRadians * 5, 0.75)
            p.haloDiameterPoints = 0
        case .approximate:
            p.shadowOffsetPoints = 0
            p.shadowRadiusPoints = 0
            p.haloDiameterPoints = 0
            if let a = accuracy {
                p.accuracyRingDiameterPoints = Self.accuracyRingDiameterPoints(
                    accuracyMeters: a, latitudeDegrees: coordinate.latitudeDegrees,
                    zoom: max(zoom, Self.approximateZoomThreshold))
                p.accuracyRingVisible = true
            }
            p.approximateBorderWidthPoints = zoom < Self.approximateZoomThreshold
                ? 1 : properties.approximateHaloBorderWidthPoints
        }
        return p
    }
}
