import Glibc
import NMEA

extension TrackingCore {
    /// MapLibre's threshold between the two first-fly sub-states, metres (spec 2.5): **500**.
    public static let distanceThresholdForCameraPauseMeters = 500.0
    /// The camera does not move when the puck is within this of its anchor, points (spec 3.2): **±1**.
    public static let recenterTolerancePoints = 1.0

    /// Feeds one fix that arrived at `time` (monotonic nanoseconds).
    ///
    /// A fix without a position, with an invalid coordinate or exactly (0, 0) is ignored (spec 1.4)
    /// and counted; losing the position after having one emits didFailToLocateUser(locationUnknown).
    /// A fix 0 m from the previous one with the same course only refreshes the stale timer and the
    /// bearing sources (MapLibre ignores it, spec 1.4; Android counts it as fresh, spec 9.1).
    public mutating func updateLocation(_ fix: Fix, atNanoseconds time: Int64) {
        let now = advance(to: time)
        guard authorizationStatus != .denied else { rejectedFixCount &+= 1; return }
        guard fix.hasPosition, let latitude = fix.latitudeDegrees, let longitude = fix.longitudeDegrees else {
            rejectedFixCount &+= 1
            if hadPosition && fix.mode == .noFix {
                hadPosition = false
                emit(.didFailToLocateUser(.locationUnknown), at: now)
            }
            return
        }
        let raw = GeoCoordinate(latitudeDegrees: latitude, longitudeDegrees: longitude)
        guard raw.isValid, !(latitude == 0 && longitude == 0) else { rejectedFixCount &+= 1; return }
        hadPosition = true
        lastFreshFixNanoseconds = now
        selector.record(fix, at: now)
        var accuracy = fix.horizontalAccuracyMeters
        if let a = accuracy, !(a.isFinite && a >= 0) { accuracy = nil }
        let course = HeadingSourceSelector.validCourse(
            of: fix, minimumSpeedMetersPerSecond: configuration.courseMinimumSpeedMetersPerSecond)
        let sample = makeSample(raw: raw, accuracyMeters: accuracy, courseDegrees: course, at: now,
                                utcNanoseconds: fix.utcNanoseconds)
        if let previous = latest, previous.coordinate == sample.coordinate,
           previous.courseDegrees == sample.courseDegrees,
           previous.horizontalAccuracyMeters == sample.horizontalAccuracyMeters {
            refreshBearing(at: now)
            return
        }
        let previous = latest
        latest = sample
        track.add(sample.coordinate, spacingMeters: configuration.overviewTrackSpacingMeters)
        movePuck(to: sample, previous: previous, at: now)
        if showsUserLocation {
            runLocationPipeline(sample, token: 0, durationNanoseconds: cameraDuration(new: sample, old: userLocation),
                                at: now)
        }
        refreshBearing(at: now)
        if viewportStatus != .idle {
            updateViewport(at: now)
            stepAnimations(at: now)
        }
    }

    /// A location sample from raw values, coarsened when reduced accuracy applies.
    // `mutating` only so self is passed by address: a borrowed call would copy the whole core (≈ 9 KB).
    mutating func makeSample(raw: GeoCoordinate, accuracyMeters: Double?, courseDegrees: Double?, at now: Int64,
                    utcNanoseconds: Int64?) -> LocationSample {
        var coordinate = raw
        var accuracy = accuracyMeters
        var course = courseDegrees
        if isCoarse {
            coordinate = ReducedAccuracy.coarsen(raw, gridMeters: configuration.reducedAccuracyGridMeters)
            accuracy = ReducedAccuracy.coarsenedAccuracyMeters(accuracyMeters, gridMeters: configuration.reducedAccuracyGridMeters)
            course = nil
        }
        return LocationSample(coordinate: coordinate, point: WebMercator.project(coordinate),
                              horizontalAccuracyMeters: accuracy, courseDegrees: course, rawCoordinate: raw,
                              rawAccuracyMeters: accuracyMeters, rawCourseDegrees: courseDegrees,
                              timeNanoseconds: now, utcNanoseconds: utcNanoseconds)
    }

    /// Seconds between two fixes: UTC difference when both carry a UTC time and it is positive,
    /// else the arrival-time difference.
    static func fixIntervalNanoseconds(_ new: LocationSample, _ old: LocationSample) -> Int64 {
        if let a = new.utcNanoseconds, let b = old.utcNanoseconds, a > b {
            let (d, overflow) = a.subtractingReportingOverflow(b)      // fixes' UTC is any Int64
            return overflow ? Int64.max : d
        }
        return max(0, new.timeNanoseconds - old.timeNanoseconds)       // core times: monotonic, bounded
    }

    /// Follow-ease duration: 1.0 s, or min(Δt, 1.0 s) with dynamicCameraAnimationDuration (spec 3.4).
    // `mutating` only so self is passed by address: a borrowed call would copy the whole core (≈ 9 KB).
    mutating func cameraDuration(new: LocationSample, old: LocationSample?) -> Int64 {
        let full = Self.nanoseconds(configuration.userLocationAnimationDurationSeconds)
        guard configuration.dynamicCameraAnimationDuration, let old else { return full }
        return min(Self.fixIntervalNanoseconds(new, old), full)
    }

    /// Starts the puck's move to a new fix (spec 8.9 / 10.5, choice Q8).
    mutating func movePuck(to sample: LocationSample, previous: LocationSample?, at now: Int64) {
        var duration: Int64
        switch configuration.puckSmoothing {
        case .mapLibre:
            // The first placement is instant: MapLibre's 0.3 s first move only applies to a view that
            // was already on screen without a location, which this core never has (spec 8.9).
            if let previous, puckMotion.hasValue {
                duration = min(Self.fixIntervalNanoseconds(sample, previous),
                               Self.nanoseconds(configuration.userLocationAnimationDurationSeconds))
            } else {
                duration = 0
            }
        case .mapbox:
            duration = 1_100_000_000
        }
        if puckMotion.hasValue {
            let current = puckMotion.value(at: now).point
            var dx = abs(sample.point.x - current.x)
            if dx > 0.5 { dx = 1 - dx }
            let worldSize = WebMercator.worldSizePoints(zoom: values.zoom)
            let dy = abs(sample.point.y - current.y)
            if (dx * dx + dy * dy).squareRoot() * worldSize > configuration.snapDistancePoints { duration = 0 }
        }
        if puckEpochNanoseconds == nil { puckEpochNanoseconds = now }
        puckMotion.move(to: sample.point, accuracyMeters: sample.horizontalAccuracyMeters, at: now,
                        durationNanoseconds: duration)
    }

    /// MapLibre `locationManager:didUpdateLocations:animated:completionHandler:` (spec 3.1).
    mutating func runLocationPipeline(_ new: LocationSample, token: UInt32, durationNanoseconds: Int64, at now: Int64) {
        let old = userLocation
        let distance = old.map { WebMercator.distanceMeters($0.coordinate, new.coordinate) } ?? 0
        if old == nil || distance != 0 || old?.courseDegrees != new.courseDegrees {
            if old == nil || trackingState != .began { userLocation = new }
            emit(.didUpdateUserLocation, at: now)
        }
        trackCamera(durationNanoseconds: durationNanoseconds, distanceFromOldMeters: distance, token: token, at: now)
    }

    /// MapLibre `didUpdateLocationWithUserTrackingDuration` (spec 3.2–3.6) with the ArcGIS rules.
    mutating func trackCamera(durationNanoseconds: Int64, distanceFromOldMeters: Double, token: UInt32, at now: Int64) {
        guard showsUserLocation, let location = userLocation, mode.isTracking, trackingState != .began else {
            complete(token, success: true, at: now)
            return
        }
        let anchor = trackingAnchorPoint
        let current = screenPoint(of: location.point)
        if mode == .recenter && trackingState == .changed {
            // ArcGIS wander extent (spec 11.3): re-centre only when the puck leaves the view rect
            // scaled about its centre by the factor.
            let frame = contentFrame
            let f = configuration.wanderExtentFactor
            if let p = current, abs(p.xPoints - frame.midX) <= f * frame.width / 2,
               abs(p.yPoints - frame.midY) <= f * frame.height / 2, f > 0 {
                complete(token, success: true, at: now)
                return
            }
        } else if mode.behavior != .course && !(mode.isArcGIS && arcGISInitialZoomPending), let p = current,
                  abs(p.xPoints - anchor.xPoints) <= Self.recenterTolerancePoints,
                  abs(p.yPoints - anchor.yPoints) <= Self.recenterTolerancePoints {
            complete(token, success: true, at: now)
            return
        }
        if mode == .followWithCourse, let target = targetCoordinate, target.isValid {
            fitUserAndTarget(location, target, animated: durationNanoseconds != 0, token: token, at: now)
        } else if trackingState == .possible {
            firstFly(to: location, distanceFromOldMeters: distanceFromOldMeters, animated: durationNanoseconds != 0,
                     token: token, at: now)
        } else if trackingState == .changed {
            animateCamera(center: location.point, zoom: values.zoom, bearingDegrees: courseBearing(),
                          padding: followPadding, durationNanoseconds: durationNanoseconds, curve: .linear,
                          path: .flyLinearZoom, purpose: .followEase, token: token, at: now)
        } else {
            // BeginSignificantTransition: no incremental move until the fly ends. MapLibre drops the
            // completion here; we report it as not done.
            complete(token, success: false, at: now)
        }
        unrotateIfNeeded(at: now)
    }

    /// The bearing course tracking wants: the course (or the azimuth to the target) when valid,
    /// +180° with Top alignment; nil = keep the bearing (MapLibre `directionByFollowingWithCourse`).
    // `mutating` only so self is passed by address: a borrowed call would copy the whole core (≈ 9 KB).
    mutating func courseBearing() -> Double? {
        guard mode.behavior == .course, let location = userLocation else { return nil }
        var direction: Double?
        if mode == .followWithCourse, let target = targetCoordinate, target.isValid {
            let u = WebMercator.projectedMeters(location.coordinate), t = WebMercator.projectedMeters(target)
            direction = Angles.wrap360(atan2Degrees(t.eastingMeters - u.eastingMeters, t.northingMeters - u.northingMeters))
        } else {
            direction = location.courseDegrees
        }
        if var d = direction, mode == .followWithCourse, verticalAlignment == .top, anchorOverride == nil {
            d = Angles.wrap360(d + 180)
            direction = d
        }
        return direction
    }

    /// The first fly (spec 2.5, 2.6, 3.3; ArcGIS initial zoom scale, spec 11.5).
    mutating func firstFly(to location: LocationSample, distanceFromOldMeters: Double, animated: Bool,
                           token: UInt32, at now: Int64) {
        trackingState = distanceFromOldMeters >= Self.distanceThresholdForCameraPauseMeters
            ? .beginSignificantTransition : .began
        var zoom = values.zoom
        if mode.isArcGIS && arcGISInitialZoomPending {
            arcGISInitialZoomPending = false
            zoom = arcGISInitialZoom(latitudeDegrees: location.coordinate.latitudeDegrees)
        } else if values.zoom < configuration.trackingMinimumZoom {
            // Through camera altitude at the current pitch, as MapLibre does; the round trip gives 14.
            let altitude = WebMercator.altitudeMeters(zoom: configuration.trackingDefaultZoom,
                                                      pitchDegrees: values.pitchDegrees,
                                                      latitudeDegrees: location.coordinate.latitudeDegrees,
                                                      viewHeightPoints: viewSize.heightPoints)
            zoom = WebMercator.zoom(altitudeMeters: altitude, pitchDegrees: values.pitchDegrees,
                                    latitudeDegrees: location.coordinate.latitudeDegrees,
                                    viewHeightPoints: viewSize.heightPoints)
        }
        let padding = followPadding
        var duration: Int64 = 0
        if animated {
            var target = location.point
            if target.x - values.center.x > 0.5 { target.x -= 1 } else if target.x - values.center.x < -0.5 { target.x += 1 }
            let span = max(viewSize.widthPoints - padding.leftPoints - padding.rightPoints,
                           viewSize.heightPoints - padding.topPoints - padding.bottomPoints)
            let path = FlyToPath(start: values.center, end: target, startZoom: values.zoom,
                                 endZoom: min(max(zoom, minimumZoom), maximumZoom), viewportSpanPoints: span,
                                 linearZoom: false)
            duration = Self.nanoseconds(path.durationSeconds)
        }
        animateCamera(center: location.point, zoom: zoom, bearingDegrees: courseBearing(), padding: padding,
                      durationNanoseconds: duration, curve: .easeOut, path: .flyOptimal, purpose: .firstFly,
                      token: token, at: now)
    }

    /// Zoom for ArcGIS `initialZoomScale` at 96 points per inch (Q2 convention).
    // `mutating` only so self is passed by address: a borrowed call would copy the whole core (≈ 9 KB).
    mutating func arcGISInitialZoom(latitudeDegrees: Double) -> Double {
        let metersPerPoint = configuration.initialZoomScale * 0.0254 / 96
        let latitude = configuration.initialZoomScaleConvention == .trueScaleAtLatitude ? latitudeDegrees : 0
        return WebMercator.zoom(metersPerPoint: metersPerPoint, latitudeDegrees: latitude)
    }

    /// Course mode with a target: fit user and target (spec 3.6).
    mutating func fitUserAndTarget(_ location: LocationSample, _ target: GeoCoordinate, animated: Bool,
                                   token: UInt32, at now: Int64) {
        let firstUpdate = trackingState == .possible
        if animated && firstUpdate { trackingState = .began }
        var inset = EdgeInsets(topPoints: 50 + puckHeightPoints, bottomPoints: 50 + puckHeightPoints)
        if verticalAlignment == .center { inset.bottomPoints = viewSize.heightPoints - contentFrame.midY }
        let bearing = courseBearing() ?? values.bearingDegrees
        let a = location.point
        var b = WebMercator.project(target)
        if b.x - a.x > 0.5 { b.x -= 1 } else if b.x - a.x < -0.5 { b.x += 1 }
        let corners: InlineArray<4, MercatorPoint> = [a, b, a, b]
        let fit = CameraGeometry.fit(corners: corners, bearingDegrees: bearing, padding: inset + contentInsets,
                                     cameraPadding: contentInsets, size: viewSize, minZoom: minimumZoom,
                                     maxZoom: maximumZoom)
        animateCamera(center: fit.center, zoom: fit.zoom, bearingDegrees: bearing, padding: contentInsets,
                      durationNanoseconds: animated ? Self.nanoseconds(configuration.userLocationAnimationDurationSeconds) : 0,
                      curve: .linear, path: .flyLinearZoom, purpose: animated && firstUpdate ? .courseTargetFit : .followEase,
                      token: token, at: now)
    }

    /// Rotates back to north when zoomed out below the rotation minimum (MapLibre `unrotateIfNeeded`,
    /// spec 3.5): after 0.1 s, a 0.3 s ease to 0°.
    mutating func unrotateIfNeeded(at now: Int64) {
        guard values.bearingDegrees != 0, values.zoom < currentMinimumZoom, trackingState != .began else { return }
        animateCamera(bearingDegrees: 0, durationNanoseconds: 300_000_000, curve: .ease, path: .straight,
                      delayNanoseconds: 100_000_000, purpose: .unrotate, token: 0, at: now)
    }
}

@inline(__always)
func atan2Degrees(_ y: Double, _ x: Double) -> Double {
    atan2(y, x) * WebMercator.radiansToDegrees
}
