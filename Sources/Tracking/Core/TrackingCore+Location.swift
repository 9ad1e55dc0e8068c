import Angles
import Glibc
import NMEA

extension TrackingCore {
    /// MapLibre's threshold between the two first-fly sub-states, metres (tracking.md 2.5): **500**.
    public static let distanceThresholdForCameraPauseMeters = 500.0
    /// The camera does not move when the puck is within this of its anchor, points (tracking.md 3.2): **±1**.
    public static let recenterTolerancePoints = 1.0

    /// Feeds one fix that arrived at `time` (monotonic nanoseconds).
    ///
    /// A fix without a position, with an invalid coordinate or exactly (0, 0), or (Q21) reporting 0 m
    /// horizontal accuracy is ignored (tracking.md 1.4) and counted; losing the position after having
    /// one emits didFailToLocateUser(locationUnknown).
    /// A fix 0 m from the previous one with the same course only refreshes the stale timer and the
    /// bearing sources (MapLibre ignores it, tracking.md 1.4; Android counts it as fresh, tracking.md 9.1).
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
        var accuracy = fix.horizontalAccuracyMeters
        if accuracy == 0 {
            if configuration.ignoresZeroAccuracyFixes {
                rejectedFixCount &+= 1
                zeroAccuracyFixCount &+= 1
                return
            }
            accuracy = nil
        }
        hadPosition = true
        lastFreshFixNanoseconds = now
        selector.record(fix, at: now)
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
        moveViewportCourse(to: sample.courseDegrees, previous: previous?.courseDegrees, at: now)
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

    /// Follow-ease duration: 1.0 s, or min(Δt, 1.0 s) with dynamicCameraAnimationDuration (tracking.md 3.4).
    // `mutating` only so self is passed by address: a borrowed call would copy the whole core (≈ 9 KB).
    mutating func cameraDuration(new: LocationSample, old: LocationSample?) -> Int64 {
        let full = Self.nanoseconds(configuration.userLocationAnimationDurationSeconds)
        guard configuration.dynamicCameraAnimationDuration, let old else { return full }
        return min(Self.fixIntervalNanoseconds(new, old), full)
    }

    /// Starts the puck's move to a new fix (tracking.md 8.9 / 10.5, Q8).
    mutating func movePuck(to sample: LocationSample, previous: LocationSample?, at now: Int64) {
        var duration: Int64
        switch configuration.puckSmoothing {
        case .mapLibre:
            // The first placement is instant: MapLibre's 0.3 s first move only applies to a view that
            // was already on screen without a location, which this core never has (tracking.md 8.9).
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

    /// Mapbox's location interpolator eases the course over 1.1 s, the shortest way, from the value it
    /// shows; a course after none jumps; no course is nil (tracking.md 10.7).
    mutating func moveViewportCourse(to course: Double?, previous: Double?, at now: Int64) {
        guard let course else { viewportCourse.reset(); return }
        if previous == nil { viewportCourse.reset() }
        viewportCourse.turn(to: course, at: now, durationNanoseconds: 1_100_000_000)
    }

    /// MapLibre `locationManager:didUpdateLocations:animated:completionHandler:` (tracking.md 3.1).
    mutating func runLocationPipeline(_ new: LocationSample, token: UInt32, durationNanoseconds: Int64, at now: Int64) {
        let old = userLocation
        let distance = old.map { WebMercator.distanceMeters($0.coordinate, new.coordinate) } ?? 0
        if old == nil || distance != 0 || old?.courseDegrees != new.courseDegrees {
            if old == nil || trackingState != .began { userLocation = new }
            emit(.didUpdateUserLocation, at: now)
        }
        trackCamera(durationNanoseconds: durationNanoseconds, distanceFromOldMeters: distance, token: token, at: now)
    }

    /// MapLibre `didUpdateLocationWithUserTrackingDuration` (tracking.md 3.2–3.6) with the ArcGIS rules.
    mutating func trackCamera(durationNanoseconds: Int64, distanceFromOldMeters: Double, token: UInt32, at now: Int64) {
        guard showsUserLocation, let location = userLocation, mode.isTracking, trackingState != .began else {
            complete(token, success: true, at: now)
            return
        }
        let anchor = trackingAnchorPoint
        let current = screenPoint(of: location.point)
        let initialZoom = mode.isArcGIS && arcGISInitialZoomPending
        if mode == .recenter && trackingState == .changed && !initialZoom {
            // ArcGIS wander extent (tracking.md 11.3): re-centre only when the puck leaves the view rect
            // scaled about its centre by the factor.
            let frame = contentFrame
            let f = configuration.wanderExtentFactor
            if let p = current, abs(p.xPoints - frame.midX) <= f * frame.width / 2,
               abs(p.yPoints - frame.midY) <= f * frame.height / 2, f > 0 {
                complete(token, success: true, at: now)
                return
            }
        } else if mode.behavior != .course && !initialZoom, let p = current,
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
            var zoom = values.zoom
            if initialZoom {
                // ArcGIS: the first location update after leaving off zooms to initialZoomScale, also
                // when the mode was set without animation (tracking.md 11.5).
                arcGISInitialZoomPending = false
                zoom = arcGISInitialZoom(latitudeDegrees: location.coordinate.latitudeDegrees)
            }
            animateCamera(center: location.point, zoom: zoom, bearingDegrees: courseBearing(), padding: followPadding,
                          bearingSource: courseBearingSource, durationNanoseconds: durationNanoseconds, curve: .linear,
                          path: .flyLinearZoom, purpose: .followEase, token: token, at: now)
        } else {
            // BeginSignificantTransition: no incremental move until the fly ends. MapLibre drops the
            // completion here; we report it as not done.
            complete(token, success: false, at: now)
        }
        unrotateIfNeeded(at: now)
    }

    /// The bearing course tracking wants: the course (or the azimuth to the target) when valid,
    /// +180° with Top alignment (also when the anchor point is overridden); nil = keep the bearing
    /// (MapLibre `directionByFollowingWithCourse`, tracking.md 2.2).
    // `mutating` only so self is passed by address: a borrowed call would copy the whole core (≈ 9 KB).
    mutating func courseBearing() -> Double? {
        guard mode.behavior == .course, let location = userLocation else { return nil }
        var direction: Double?
        if mode == .followWithCourse, let target = targetCoordinate, target.isValid {
            let u = WebMercator.projectedMeters(location.coordinate), t = WebMercator.projectedMeters(target)
            direction = Angle.wrap360(atan2Degrees(t.eastingMeters - u.eastingMeters, t.northingMeters - u.northingMeters))
        } else {
            direction = location.courseDegrees
        }
        if var d = direction, mode == .followWithCourse, verticalAlignment == .top {
            d = Angle.wrap360(d + 180)
            direction = d
        }
        return direction
    }

    /// What `courseBearing()` turns the map to.
    @inline(__always)  // a call boundary would copy the whole core (≈ 9 KB)
    var courseBearingSource: CameraBearingSource {
        mode == .followWithCourse && targetCoordinate?.isValid == true ? .targetAzimuth : .gpsCourse
    }

    /// The first fly (tracking.md 2.5, 2.6, 3.3; ArcGIS initial zoom scale, 11.5). Below zoom 10.5 it
    /// goes to zoom 14; otherwise it keeps the camera's altitude: the altitude at the camera centre's
    /// latitude becomes a zoom at the user's latitude (MapLibre `MLNAltitudeForZoomLevel` /
    /// `MLNZoomLevelForAltitude`), so zoom′ = zoom + log2(cos φ_user / cos φ_camera).
    mutating func firstFly(to location: LocationSample, distanceFromOldMeters: Double, animated: Bool,
                           token: UInt32, at now: Int64) {
        trackingState = distanceFromOldMeters >= Self.distanceThresholdForCameraPauseMeters
            ? .beginSignificantTransition : .began
        let userLatitude = location.coordinate.latitudeDegrees
        var zoom: Double
        if mode.isArcGIS && arcGISInitialZoomPending {
            arcGISInitialZoomPending = false
            zoom = arcGISInitialZoom(latitudeDegrees: userLatitude)
        } else {
            let below = values.zoom < configuration.trackingMinimumZoom
            let altitude = WebMercator.altitudeMeters(
                zoom: below ? configuration.trackingDefaultZoom : values.zoom, pitchDegrees: values.pitchDegrees,
                latitudeDegrees: below ? userLatitude : WebMercator.unproject(values.center).latitudeDegrees,
                viewHeightPoints: viewSize.heightPoints)
            zoom = WebMercator.zoom(altitudeMeters: altitude, pitchDegrees: values.pitchDegrees,
                                    latitudeDegrees: userLatitude, viewHeightPoints: viewSize.heightPoints)
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
                      bearingSource: courseBearingSource, durationNanoseconds: duration, curve: .easeOut,
                      path: .flyOptimal, purpose: .firstFly, token: token, at: now)
    }

    /// Zoom for ArcGIS `initialZoomScale` at 96 points per inch (Q2 convention).
    // `mutating` only so self is passed by address: a borrowed call would copy the whole core (≈ 9 KB).
    mutating func arcGISInitialZoom(latitudeDegrees: Double) -> Double {
        let metersPerPoint = configuration.initialZoomScale * 0.0254 / 96
        let latitude = configuration.initialZoomScaleConvention == .trueScaleAtLatitude ? latitudeDegrees : 0
        return WebMercator.zoom(metersPerPoint: metersPerPoint, latitudeDegrees: latitude)
    }

    /// Course mode with a target: fit user and target at the current pitch (MapLibre
    /// `didUpdateLocationWithTargetAnimated` → mbgl `cameraForLatLngs`, tracking.md 3.6). The insets are
    /// (50 + puck height) top and bottom (bottom = view bottom − content-frame middle with Center
    /// alignment); the camera's padding becomes those insets + the content insets.
    mutating func fitUserAndTarget(_ location: LocationSample, _ target: GeoCoordinate, animated: Bool,
                                   token: UInt32, at now: Int64) {
        let firstUpdate = trackingState == .possible
        if animated && firstUpdate { trackingState = .began }
        var inset = EdgeInsets(topPoints: 50 + puckHeightPoints, bottomPoints: 50 + puckHeightPoints)
        if verticalAlignment == .center { inset.bottomPoints = viewSize.heightPoints - contentFrame.midY }
        let padding = inset + contentInsets
        let bearing = courseBearing() ?? values.bearingDegrees
        let a = location.point
        var b = WebMercator.project(target)
        if b.x - a.x > 0.5 { b.x -= 1 } else if b.x - a.x < -0.5 { b.x += 1 }
        var probe = values
        probe.bearingDegrees = Angle.wrap360(bearing)
        let fit = CameraGeometry.fitAtCamera(a, b, padding: padding, camera: probe, size: viewSize,
                                             minZoom: minimumZoom, maxZoom: maximumZoom)
        animateCamera(center: fit.center, zoom: fit.zoom, bearingDegrees: bearing, padding: padding,
                      bearingSource: courseBearingSource,
                      durationNanoseconds: animated ? Self.nanoseconds(configuration.userLocationAnimationDurationSeconds) : 0,
                      curve: .linear, path: .flyLinearZoom, purpose: animated && firstUpdate ? .courseTargetFit : .followEase,
                      token: token, at: now)
    }

    /// MapLibre `unrotateIfNeededAnimated:YES` (tracking.md 3.5): when zoomed out below the rotation
    /// minimum with a bearing (and not in state Began), north is restored 0.1 s later.
    mutating func unrotateIfNeeded(at now: Int64) {
        guard values.bearingDegrees != 0, values.zoom < currentMinimumZoom, trackingState != .began,
              pendingResetNorthNanoseconds == nil else { return }
        pendingResetNorthNanoseconds = now + 100_000_000
    }

    /// MapLibre `resetNorth` = `setDirection:0 animated:YES` (tracking.md 3.5, 3.9): heading and course
    /// modes drop to follow; a 0.3 s ease on (0, 0, 0.25, 1) turns the map to 0°, about the puck's anchor
    /// while tracking.
    mutating func resetNorth(at now: Int64) {
        if mode.behavior == .heading || mode.behavior == .course { changeMode(to: .follow, animated: false, token: 0, at: now) }
        guard values.bearingDegrees != 0 else { return }
        animateCamera(bearingDegrees: 0, anchor: mode.isTracking ? trackingAnchorPoint : nil, bearingSource: .north,
                      durationNanoseconds: 300_000_000, curve: .easeOut, path: .flyLinearZoom, purpose: .unrotate,
                      token: 0, at: now)
    }
}

@inline(__always)
func atan2Degrees(_ y: Double, _ x: Double) -> Double {
    atan2(y, x) * Angle.degreesPerRadian
}
