extension TrackingCore {
    /// Applies a user gesture (rules in `Gesture`'s documentation; spec §6, 3.7, 5.6, 6.1, 10.11, 11.2).
    public mutating func handleGesture(_ gesture: Gesture, atNanoseconds time: Int64) {
        let now = advance(to: time)
        if configuration.transitionsToIdleUponUserInteraction && Self.isInteractionStart(gesture) {
            goIdle(reason: .userInteraction, at: now)
        }
        if mode.isArcGIS && mode.isTracking && Self.changesViewpoint(gesture) {
            changeMode(to: .off, animated: false, token: 0, at: now)
        }
        let tracking = mode.isTracking
        switch gesture {
        case .touchDown:
            if tracking && trackingState == .began { changeMode(to: .none, animated: false, token: 0, at: now) }
        case .pan(let phase, let dx, let dy):
            panBegan = phase == .began
            if phase == .began {
                animator.cancelAll()
                if tracking { changeMode(to: .none, animated: false, token: 0, at: now) }
            }
            let a = CameraGeometry.anchor(padding: values.padding, size: viewSize)
            if let p = CameraGeometry.worldPoint(at: ScreenPoint(xPoints: a.xPoints - dx, yPoints: a.yPoints - dy),
                                                 camera: values, size: viewSize) {
                values.center = MercatorPoint(x: p.x - p.x.rounded(.down), y: min(max(p.y, 0), 1))
            }
        case .pinch(let phase, let zoomDelta, let focus):
            panBegan = false
            if phase == .began { animator.cancelAll() }
            zoom(by: zoomDelta, about: tracking ? trackingAnchorPoint : focus, durationNanoseconds: 0, at: now)
            if phase == .ended { unrotateIfNeededForGesture(at: now) }
        case .rotate(let phase, let rotation, let focus):
            panBegan = false
            if phase == .began {
                animator.cancelAll()
                rotationSinceBeganDegrees = 0
                if mode.behavior == .heading || mode.behavior == .course {
                    changeMode(to: .follow, animated: false, token: 0, at: now)
                }
            }
            var delta = rotation
            if values.zoom < currentMinimumZoom {
                // Below the rotation minimum rotation is limited to ±30° (spec 6.1).
                let total = min(max(rotationSinceBeganDegrees + delta, -30), 30)
                delta = total - rotationSinceBeganDegrees
            }
            rotationSinceBeganDegrees += delta
            rotate(by: delta, about: mode.isTracking ? trackingAnchorPoint : focus)
            if phase == .ended { unrotateIfNeededForGesture(at: now) }
        case .tilt(let phase, let pitchDelta):
            panBegan = false
            if phase == .began { animator.cancelAll() }
            let limit = maximumPitch(for: values.padding)
            values.pitchDegrees = min(max(values.pitchDegrees + pitchDelta, configuration.minimumPitchDegrees), limit)
        case .doubleTap(let point):
            panBegan = false
            animator.cancelAll()
            zoom(by: 1, about: mode.isTracking ? trackingAnchorPoint : point, durationNanoseconds: 300_000_000, at: now)
        case .twoFingerTap(let point):
            panBegan = false
            animator.cancelAll()
            zoom(by: -1, about: mode.isTracking ? trackingAnchorPoint : point, durationNanoseconds: 300_000_000, at: now)
        }
        processFinishedAnimations(at: now)
    }

    /// Gestures that send the Mapbox viewport idle (spec 10.11): any continuous gesture's start,
    /// double tap, two-finger tap.
    static func isInteractionStart(_ gesture: Gesture) -> Bool {
        switch gesture {
        case .touchDown: return false
        case .pan(let p, _, _): return p == .began
        case .pinch(let p, _, _): return p == .began
        case .rotate(let p, _, _): return p == .began
        case .tilt(let p, _): return p == .began
        case .doubleTap, .twoFingerTap: return true
        }
    }

    /// Gestures that change the viewpoint (ArcGIS: → off, spec 11.2).
    static func changesViewpoint(_ gesture: Gesture) -> Bool {
        if case .touchDown = gesture { return false }
        return true
    }

    /// Zooms by `delta` keeping the ground point under `anchor` fixed (animated when duration > 0).
    mutating func zoom(by delta: Double, about anchor: ScreenPoint, durationNanoseconds: Int64, at now: Int64) {
        let newZoom = min(max(values.zoom + delta, minimumZoom), maximumZoom)
        guard let ground = CameraGeometry.worldPoint(at: anchor, camera: values, size: viewSize) else { return }
        var probe = values
        probe.zoom = newZoom
        let center = CameraGeometry.center(keeping: ground, at: anchor, camera: probe, size: viewSize) ?? values.center
        if durationNanoseconds == 0 {
            values.zoom = newZoom
            values.center = MercatorPoint(x: center.x - center.x.rounded(.down), y: min(max(center.y, 0), 1))
        } else {
            animateCamera(center: center, zoom: newZoom, durationNanoseconds: durationNanoseconds, curve: .ease,
                          path: .straight, purpose: .gesture, token: 0, at: now)
        }
    }

    /// Rotates the map by `rotation` degrees clockwise on screen about `anchor` (bearing decreases).
    mutating func rotate(by rotation: Double, about anchor: ScreenPoint) {
        guard let ground = CameraGeometry.worldPoint(at: anchor, camera: values, size: viewSize) else { return }
        var probe = values
        probe.bearingDegrees = Angles.wrap360(values.bearingDegrees - rotation)
        let center = CameraGeometry.center(keeping: ground, at: anchor, camera: probe, size: viewSize) ?? values.center
        values.bearingDegrees = probe.bearingDegrees
        values.center = MercatorPoint(x: center.x - center.x.rounded(.down), y: min(max(center.y, 0), 1))
    }

    /// After a pinch or rotation ends: unrotate when zoomed out, and snap to north within
    /// `snapToNorthToleranceDegrees` (7°) except in heading/course modes (spec 3.7).
    mutating func unrotateIfNeededForGesture(at now: Int64) {
        guard values.bearingDegrees != 0 else { return }
        unrotateIfNeeded(at: now)
        let tolerance = configuration.snapToNorthToleranceDegrees
        if (values.bearingDegrees < tolerance || values.bearingDegrees > 360 - tolerance)
            && mode.behavior != .heading && mode.behavior != .course {
            animateCamera(bearingDegrees: 0, durationNanoseconds: 300_000_000, curve: .ease, path: .straight,
                          purpose: .gesture, token: 0, at: now)
        }
    }
}
