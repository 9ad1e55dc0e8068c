extension TrackingCore {
    /// MapLibre `setUserTrackingMode:animated:completionHandler:` (tracking.md 2.4), ArcGIS `autoPanMode`.
    ///
    /// Same mode → only completes. `none`/`off` → sub-state Possible. follow/course → Possible when
    /// animated (first fly), else Changed (1.0 s ease, no zoom-14 step: Q14 as built); turns
    /// showsUserLocation on. Heading → sub-state reset only from `none`; eases to zoom 3 in 0.3 s
    /// when below. With a stored location the location pipeline runs at once; the returned token
    /// completes when its camera move ends (or at once), before `didChangeTrackingMode` when immediate.
    /// A tracking mode sends the Mapbox viewport to idle.
    @discardableResult
    public mutating func setTrackingMode(_ newMode: TrackingMode, animated: Bool, atNanoseconds time: Int64) -> CompletionToken {
        let now = advance(to: time)
        let token = newToken()
        changeMode(to: newMode, animated: animated, token: token, at: now)
        return CompletionToken(rawValue: token)
    }

    mutating func changeMode(to newMode: TrackingMode, animated: Bool, token: UInt32, at now: Int64) {
        if newMode == mode {
            complete(token, success: true, at: now)
            return
        }
        if newMode.isTracking && viewportStatus != .idle { goIdle(reason: .idleRequested, at: now) }
        let old = mode
        mode = newMode
        if newMode.isArcGIS && newMode.isTracking && !old.isTracking { arcGISInitialZoomPending = true }
        if !newMode.isTracking { arcGISInitialZoomPending = false }
        lastCameraHeadingDegrees = nil
        switch newMode.behavior {
        case .none:
            trackingState = .possible
        case .follow, .course:
            trackingState = animated ? .possible : .changed
            setShowsUserLocationInternal(true, at: now)
        case .heading:
            if old.behavior == .none { trackingState = animated ? .possible : .changed }
            setShowsUserLocationInternal(true, at: now)
            if values.zoom < currentMinimumZoom {
                // `setZoomLevel:animated:YES`: 0.3 s on mbgl's default curve (tracking.md 3.9).
                animateCamera(zoom: currentMinimumZoom, durationNanoseconds: 300_000_000, curve: .easeOut,
                              path: .flyLinearZoom, purpose: .zoomFloor, token: 0, at: now)
            }
        }
        if newMode.isTracking, let location = userLocation {
            runLocationPipeline(location, token: token,
                                durationNanoseconds: Self.nanoseconds(configuration.userLocationAnimationDurationSeconds),
                                at: now)
        } else {
            complete(token, success: true, at: now)
        }
        emit(.didChangeTrackingMode(newMode, animated: animated), at: now)
        // The heading reference may depend on the mode (Q11): re-select, then turn the camera.
        let before = selection
        refreshBearing(at: now)
        if newMode.behavior == .heading && selection == before { applyHeadingToCamera(at: now) }
    }

    /// Turns the user location (puck and location pipeline) on or off (tracking.md 7.1, 7.2).
    /// Off: didStopLocatingUser, mode → none (animated), the stored location is forgotten.
    public mutating func setShowsUserLocation(_ shows: Bool, atNanoseconds time: Int64) {
        let now = advance(to: time)
        setShowsUserLocationInternal(shows, at: now)
    }

    mutating func setShowsUserLocationInternal(_ shows: Bool, at now: Int64) {
        if shows == showsUserLocation { return }
        if shows {
            if authorizationStatus == .denied { return }
            showsUserLocation = true
            emit(.willStartLocatingUser, at: now)
            // ArcGIS: the first location update after the display starts zooms to initialZoomScale (tracking.md 11.5).
            if mode.isArcGIS && mode.isTracking { arcGISInitialZoomPending = true }
            puckEpochNanoseconds = nil
            // A known location is shown at once (the next fix animates from it).
            if let l = latest {
                puckEpochNanoseconds = now
                puckMotion.move(to: l.point, accuracyMeters: l.horizontalAccuracyMeters, at: now, durationNanoseconds: 0)
                userLocation = l
                emit(.didUpdateUserLocation, at: now)
            }
        } else {
            showsUserLocation = false
            emit(.didStopLocatingUser, at: now)
            changeMode(to: mode.isArcGIS ? .off : .none, animated: true, token: 0, at: now)
            userLocation = nil
            shownScreenRotationDegrees = nil
        }
    }

    /// `showsUserHeadingIndicator`: the arrow on the dot outside heading mode (turns the location on).
    public mutating func setShowsUserHeadingIndicator(_ shows: Bool, atNanoseconds time: Int64) {
        let now = advance(to: time)
        showsUserHeadingIndicator = shows
        if shows { setShowsUserLocationInternal(true, at: now) }
    }

    /// Content insets (tracking.md 5.5): while tracking, tracking re-runs with the new anchor (1.0 s ease when
    /// animated, else a jump); otherwise the camera padding eases to the insets (0.3 s when animated),
    /// keeping centre, zoom and bearing.
    public mutating func setContentInsets(_ insets: EdgeInsets, animated: Bool, atNanoseconds time: Int64) {
        let now = advance(to: time)
        contentInsets = insets
        if mode.isTracking && userLocation != nil {
            let d = animated ? Self.nanoseconds(configuration.userLocationAnimationDurationSeconds) : 0
            trackCamera(durationNanoseconds: d, distanceFromOldMeters: 0, token: 0, at: now)
        } else if viewportStatus == .idle {
            animateCamera(padding: insets, durationNanoseconds: animated ? 300_000_000 : 0, curve: .ease,
                          path: .straight, purpose: .contentInset, token: 0, at: now)
        }
    }

    /// The view size, points (e.g. after a display change). Tracking re-anchors at once; an overview refits.
    public mutating func setViewportSize(_ size: ScreenSize, atNanoseconds time: Int64) {
        let now = advance(to: time)
        guard size.widthPoints >= 1, size.heightPoints >= 1, size != viewSize else { return }
        viewSize = size
        if mode.isTracking && userLocation != nil {
            trackCamera(durationNanoseconds: 0, distanceFromOldMeters: 0, token: 0, at: now)
        }
        updateViewport(at: now)
        stepAnimations(at: now)
    }

    /// MapLibre `userLocationVerticalAlignment` (tracking.md 5.1); re-runs tracking with the stored location.
    public mutating func setUserLocationVerticalAlignment(_ alignment: VerticalAlignment, animated: Bool,
                                                          atNanoseconds time: Int64) {
        let now = advance(to: time)
        verticalAlignment = alignment
        if mode.isTracking, let location = userLocation {
            runLocationPipeline(location, token: 0,
                                durationNanoseconds: animated ? Self.nanoseconds(configuration.userLocationAnimationDurationSeconds) : 0,
                                at: now)
        }
    }

    /// MapLibre `mapViewUserLocationAnchorPoint:` (tracking.md 5.1): the puck point while tracking, relative to
    /// the content frame; nil = use the alignment.
    public mutating func setUserLocationAnchorPoint(_ point: ScreenPoint?, atNanoseconds time: Int64) {
        let now = advance(to: time)
        anchorOverride = point
        if mode.isTracking && userLocation != nil {
            trackCamera(durationNanoseconds: 0, distanceFromOldMeters: 0, token: 0, at: now)
        }
    }

    /// MapLibre `setTargetCoordinate:animated:completionHandler:` (tracking.md 2.2, 3.6): in followWithCourse the
    /// camera keeps user and target in view, course-up toward the target. Nil clears it.
    @discardableResult
    public mutating func setTargetCoordinate(_ target: GeoCoordinate?, animated: Bool,
                                             atNanoseconds time: Int64) -> CompletionToken {
        let now = advance(to: time)
        let token = newToken()
        if target != targetCoordinate {
            targetCoordinate = target
            if mode == .followWithCourse {
                trackingState = .possible
                if let location = userLocation {
                    runLocationPipeline(location, token: token,
                                        durationNanoseconds: animated ? Self.nanoseconds(configuration.userLocationAnimationDurationSeconds) : 0,
                                        at: now)
                    return CompletionToken(rawValue: token)
                }
            }
        }
        complete(token, success: true, at: now)
        return CompletionToken(rawValue: token)
    }

    /// A programmatic camera change (MapLibre `setCamera`/`setCenterCoordinate`/`setZoomLevel`/
    /// `setDirection`, tracking.md 6): a centre ends tracking (→ none); a bearing drops heading/course
    /// to follow; zoom and pitch keep the mode. ArcGIS modes turn off on any change; the Mapbox viewport
    /// goes idle. Duration 0 jumps. Otherwise it eases on Core Animation's default curve
    /// (0.25, 0.1, 0.25, 1), except a zoom-only or bearing-only change (`setZoomLevel`, `setDirection`),
    /// which mbgl eases on its own default (0, 0, 0.25, 1) (tracking.md 3.9).
    @discardableResult
    public mutating func setCamera(_ options: CameraOptions, durationSeconds: Double, atNanoseconds time: Int64) -> CompletionToken {
        let now = advance(to: time)
        let token = newToken()
        if viewportStatus != .idle { goIdle(reason: .idleRequested, at: now) }
        if mode.isArcGIS && mode.isTracking {
            changeMode(to: .off, animated: false, token: 0, at: now)
        } else if options.center != nil && mode.isTracking {
            changeMode(to: .none, animated: false, token: 0, at: now)
        } else if options.bearingDegrees != nil && (mode.behavior == .heading || mode.behavior == .course) {
            changeMode(to: .follow, animated: false, token: 0, at: now)
        }
        let duration = durationSeconds.isFinite && durationSeconds > 0 ? Self.nanoseconds(durationSeconds) : 0
        let zoomOnly = options.center == nil && options.bearingDegrees == nil && options.pitchDegrees == nil
            && options.padding == nil
        let bearingOnly = options.center == nil && options.zoom == nil && options.pitchDegrees == nil
            && options.padding == nil
        animateCamera(center: options.center.map { WebMercator.project($0) }, zoom: options.zoom,
                      bearingDegrees: options.bearingDegrees, pitchDegrees: options.pitchDegrees,
                      padding: options.padding, durationNanoseconds: duration,
                      curve: zoomOnly || bearingOnly ? .easeOut : .ease,
                      path: duration > 0 ? .flyLinearZoom : .straight, purpose: .command, token: token, at: now)
        return CompletionToken(rawValue: token)
    }
}
