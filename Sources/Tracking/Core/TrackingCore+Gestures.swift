import Angles

extension TrackingCore {
    /// Applies a user gesture (rules in `Gesture`'s documentation; tracking.md 6, 3.7, 3.8, 5.6, 6.1,
    /// 10.11, 11.2). Every gesture event, the touch included, first stops the running camera transition
    /// (MapLibre `touchesBegan` and every gesture handler call `cancelTransitions`).
    public mutating func handleGesture(_ gesture: Gesture, atNanoseconds time: Int64) {
        let now = advance(to: time)
        if configuration.transitionsToIdleUponUserInteraction && Self.isInteractionStart(gesture) {
            goIdle(reason: .userInteraction, at: now)
        }
        if mode.isArcGIS && mode.isTracking && Self.changesViewpoint(gesture) {
            changeMode(to: .off, animated: false, token: 0, at: now)
        }
        if case .twoFingerTap = gesture, values.zoom == minimumZoom { return }   // MapLibre: nothing to zoom out
        animator.cancelAll()
        let tracking = mode.isTracking
        switch gesture {
        case .touchDown:
            if tracking && trackingState == .began { changeMode(to: .none, animated: false, token: 0, at: now) }
        case .pan(let phase, let dx, let dy):
            panBegan = phase == .began
            if phase == .began && tracking { changeMode(to: .none, animated: false, token: 0, at: now) }
            let a = CameraGeometry.anchor(padding: values.padding, size: viewSize)
            if let p = CameraGeometry.worldPoint(at: ScreenPoint(xPoints: a.xPoints - dx, yPoints: a.yPoints - dy),
                                                 camera: values, size: viewSize) {
                values.center = MercatorPoint(x: p.x - p.x.rounded(.down), y: min(max(p.y, 0), 1))
            }
        case .pinch(let phase, let zoomDelta, let focus):
            panBegan = false
            zoom(by: zoomDelta, about: tracking ? trackingAnchorPoint : focus)
            if phase == .ended { unrotateIfNeededForGesture(at: now) }
        case .rotate(let phase, let rotation, let focus):
            panBegan = false
            if phase == .began {
                rotationSinceBeganDegrees = 0
                if mode.behavior == .heading || mode.behavior == .course {
                    changeMode(to: .follow, animated: false, token: 0, at: now)
                }
            }
            var delta = rotation
            if values.zoom < currentMinimumZoom {
                // Below the rotation minimum rotation is limited to ±30° (tracking.md 6.1).
                let total = min(max(rotationSinceBeganDegrees + delta, -30), 30)
                delta = total - rotationSinceBeganDegrees
            }
            rotationSinceBeganDegrees += delta
            if delta != 0 { cameraBearingSource = .gesture }
            rotate(by: delta, about: mode.isTracking ? trackingAnchorPoint : focus)
            if phase == .ended { unrotateIfNeededForGesture(at: now) }
        case .tilt(let phase, let pitchDelta):
            panBegan = false
            values.pitchDegrees = min(max(values.pitchDegrees + pitchDelta, configuration.minimumPitchDegrees),
                                      configuration.maximumPitchDegrees)
            if phase == .ended { unrotateIfNeededForGesture(at: now) }
        case .doubleTap(let point):
            panBegan = false
            tapZoom(to: values.zoom.rounded() + 1, about: mode.isTracking ? trackingAnchorPoint : point, at: now)
        case .twoFingerTap(let point):
            panBegan = false
            tapZoom(to: values.zoom.rounded() - 1, about: mode.isTracking ? trackingAnchorPoint : point, at: now)
        }
        clampPitchToPadding()   // the gesture's change is a jump (mbgl jumpTo)
        processFinishedAnimations(at: now)
    }

    /// Double tap / two-finger tap (MapLibre): zoom to round(zoom) ± 1 about the point in 0.3 s on mbgl's
    /// default curve (0, 0, 0.25, 1) (tracking.md 3.7, 3.9), then the gesture's north check 0.3 s later.
    mutating func tapZoom(to zoom: Double, about point: ScreenPoint, at now: Int64) {
        animateCamera(zoom: zoom, anchor: point, durationNanoseconds: 300_000_000, curve: .easeOut, path: .flyLinearZoom,
                      purpose: .gesture, token: 0, at: now)
        if pendingGestureNorthCheckNanoseconds == nil { pendingGestureNorthCheckNanoseconds = now + 300_000_000 }
    }

    /// Gestures that send the Mapbox viewport idle (tracking.md 10.11): any continuous gesture's start,
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

    /// Gestures that change the viewpoint (ArcGIS: → off, tracking.md 11.2).
    static func changesViewpoint(_ gesture: Gesture) -> Bool {
        if case .touchDown = gesture { return false }
        return true
    }

    /// Zooms by `delta` at once, keeping the ground point under `anchor` fixed (a pinch step).
    mutating func zoom(by delta: Double, about anchor: ScreenPoint) {
        let newZoom = min(max(values.zoom + delta, minimumZoom), maximumZoom)
        guard let ground = CameraGeometry.worldPoint(at: anchor, camera: values, size: viewSize) else { return }
        var probe = values
        probe.zoom = newZoom
        let center = CameraGeometry.center(keeping: ground, at: anchor, camera: probe, size: viewSize) ?? values.center
        values.zoom = newZoom
        values.center = MercatorPoint(x: center.x - center.x.rounded(.down), y: min(max(center.y, 0), 1))
    }

    /// Rotates the map by `rotation` degrees clockwise on screen about `anchor` (bearing decreases).
    mutating func rotate(by rotation: Double, about anchor: ScreenPoint) {
        guard let ground = CameraGeometry.worldPoint(at: anchor, camera: values, size: viewSize) else { return }
        var probe = values
        probe.bearingDegrees = Angle.wrap360(values.bearingDegrees - rotation)
        let center = CameraGeometry.center(keeping: ground, at: anchor, camera: probe, size: viewSize) ?? values.center
        values.bearingDegrees = probe.bearingDegrees
        values.center = MercatorPoint(x: center.x - center.x.rounded(.down), y: min(max(center.y, 0), 1))
    }

    /// MapLibre `unrotateIfNeededForGesture` after a pinch, rotation or tilt ends (and 0.3 s after a tap
    /// zoom): the unrotate check, and a snap to north (`resetNorth`) within
    /// `snapToNorthToleranceDegrees` (7°) except in heading/course modes (tracking.md 3.7).
    mutating func unrotateIfNeededForGesture(at now: Int64) {
        guard values.bearingDegrees != 0 else { return }
        unrotateIfNeeded(at: now)
        let tolerance = configuration.snapToNorthToleranceDegrees
        if (values.bearingDegrees < tolerance || values.bearingDegrees > 360 - tolerance)
            && mode.behavior != .heading && mode.behavior != .course {
            resetNorth(at: now)
        }
    }
}
