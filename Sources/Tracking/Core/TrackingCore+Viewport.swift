import Angles

/// A camera a viewport state asks for; nil fields are left untouched (tracking.md 10.7).
struct StateCamera: Sendable {
    var center: MercatorPoint?
    var zoom: Double?
    var bearingDegrees: Double?
    var pitchDegrees: Double?
    var padding: EdgeInsets?
    /// What the bearing comes from.
    var bearingSource: CameraBearingSource = .command
}

extension TrackingCore {
    /// Mapbox `viewport.transition(to:transition:completion:)` (tracking.md 10.9–10.11).
    ///
    /// Going to the state already shown completes(true) at once; to the state already being
    /// transitioned to completes(false) at once (that transition continues). Otherwise a running
    /// transition is cancelled (its request completes false), a MapLibre/ArcGIS tracking mode is set
    /// to none/off, and the status becomes `transition`. The default transition waits until the
    /// state can produce a camera (e.g. the first location), then animates each property with its own
    /// delay and duration while following the moving target; success hands the camera to the state.
    @discardableResult
    public mutating func transitionViewport(to target: ViewportTarget, transition kind: ViewportTransitionKind,
                                            atNanoseconds time: Int64) -> CompletionToken {
        let now = advance(to: time)
        let token = newToken()
        switch viewportStatus {
        case .state(let k) where k == target.kind && viewportTarget == target:
            complete(token, success: true, at: now)
            return CompletionToken(rawValue: token)
        case .transition(_, let k) where k == target.kind && viewportTarget == target:
            complete(token, success: false, at: now)
            return CompletionToken(rawValue: token)
        default:
            break
        }
        if mode.isTracking { changeMode(to: mode.isArcGIS ? .off : .none, animated: false, token: 0, at: now) }
        cancelTransition(at: now)
        stopOverviewRefit()
        processFinishedAnimations(at: now)
        viewportTarget = target
        viewportTransitionKind = kind
        transitionToken = token
        setViewportStatus(.transition(kind, to: target.kind), reason: .transitionStarted, at: now)
        overviewFittedVersion = UInt64.max
        transitionPending = true
        startTransitionIfPossible(at: now)
        return CompletionToken(rawValue: token)
    }

    /// Mapbox `viewport.idle()`: stops any transition (completes false) and leaves the camera where it is.
    public mutating func idleViewport(atNanoseconds time: Int64) {
        let now = advance(to: time)
        goIdle(reason: .idleRequested, at: now)
    }

    mutating func goIdle(reason: ViewportChangeReason, at now: Int64) {
        guard viewportStatus != .idle else { return }
        cancelTransition(at: now)
        stopOverviewRefit()
        viewportTarget = nil
        setViewportStatus(.idle, reason: reason, at: now)
        processFinishedAnimations(at: now)
    }

    /// Stops the overview state's own refit animation (the state stops updating the camera).
    mutating func stopOverviewRefit() {
        if overviewRefitGroup != 0 {
            animator.cancelGroup(overviewRefitGroup)
            overviewRefitGroup = 0
        }
    }

    /// Cancels a running or pending transition; its request completes false.
    mutating func cancelTransition(at now: Int64) {
        guard case .transition = viewportStatus else { return }
        let token = transitionToken
        transitionToken = 0
        if transitionPending {
            transitionPending = false
        } else if transitionGroup != 0 {
            let group = transitionGroup
            transitionGroup = 0
            animator.cancelGroup(group)
            processFinishedAnimations(at: now)
        }
        complete(token, success: false, at: now)
    }

    mutating func setViewportStatus(_ status: ViewportStatus, reason: ViewportChangeReason, at now: Int64) {
        if status == viewportStatus { return }
        viewportStatus = status
        emit(.didChangeViewportStatus(status, reason: reason), at: now)
    }

    /// Called when the transition's animation request ends.
    mutating func finishViewportTransition(success: Bool, at now: Int64) {
        guard case .transition(_, let kind) = viewportStatus else { return }
        transitionGroup = 0
        let token = transitionToken
        transitionToken = 0
        if success {
            setViewportStatus(.state(kind), reason: .transitionSucceeded, at: now)
            applyStateCamera(at: now)
        } else {
            viewportTarget = nil
            setViewportStatus(.idle, reason: .transitionFailed, at: now)
        }
        complete(token, success: success, at: now)
    }

    mutating func startTransitionIfPossible(at now: Int64) {
        guard transitionPending, case .transition(let kind, _) = viewportStatus, let target = stateCamera(at: now) else { return }
        transitionPending = false
        if kind == .immediate {
            // One jump to the state's first camera, then success (tracking.md 10.10).
            animator.cancelAll()
            processFinishedAnimations(at: now)
            finishViewportTransition(success: true, at: now)
            return
        }
        var distance = 0.0
        if let c = target.center {
            let a = CameraGeometry.anchor(padding: values.padding, size: viewSize)
            if let p = screenPoint(of: c) {
                distance = ((p.xPoints - a.xPoints) * (p.xPoints - a.xPoints) + (p.yPoints - a.yPoints) * (p.yPoints - a.yPoints)).squareRoot()
            } else {
                var dx = abs(c.x - values.center.x)
                if dx > 0.5 { dx = 1 - dx }
                let dy = c.y - values.center.y
                distance = (dx * dx + dy * dy).squareRoot() * WebMercator.worldSizePoints(zoom: values.zoom)
            }
        }
        let plan = DefaultTransitionPlan(centerDistancePoints: distance, currentZoom: values.zoom,
                                         targetZoom: target.zoom ?? values.zoom,
                                         maxDurationSeconds: configuration.defaultTransitionMaxDurationSeconds)
        // The viewport takes the camera: a MapLibre-side transition still running stops where it is.
        animator.cancelAll()
        processFinishedAnimations(at: now)
        let group = animator.begin(.viewportTransition, token: 0, at: now,
                                   durationNanoseconds: Self.nanoseconds(plan.totalSeconds), clampsPitch: true)
        transitionGroup = group
        transitionChannels = (target.center != nil ? 1 : 0) | (target.zoom != nil ? 2 : 0)
            | (target.bearingDegrees != nil ? 4 : 0) | (target.pitchDegrees != nil ? 8 : 0) | (target.padding != nil ? 16 : 0)
        if target.bearingDegrees != nil { cameraBearingSource = target.bearingSource }
        if var c = target.center {
            if c.x - values.center.x > 0.5 { c.x -= 1 } else if c.x - values.center.x < -0.5 { c.x += 1 }
            animator.animate(.center, group: group, at: now, delayNanoseconds: Self.nanoseconds(plan.centerDelaySeconds),
                             durationNanoseconds: Self.nanoseconds(plan.centerDurationSeconds), curve: .easeInOut,
                             fromCenter: values.center, toCenter: c)
        }
        if let z = target.zoom {
            animator.animate(.zoom, group: group, at: now, delayNanoseconds: Self.nanoseconds(plan.zoomDelaySeconds),
                             durationNanoseconds: Self.nanoseconds(plan.zoomDurationSeconds), curve: .easeInOut,
                             fromScalar: values.zoom, toScalar: min(max(z, minimumZoom), maximumZoom))
        }
        if let b = target.bearingDegrees {
            animator.animate(.bearing, group: group, at: now, delayNanoseconds: Self.nanoseconds(plan.bearingDelaySeconds),
                             durationNanoseconds: Self.nanoseconds(plan.bearingDurationSeconds), curve: .easeInOut,
                             fromScalar: values.bearingDegrees,
                             toScalar: values.bearingDegrees + Angle.shortestDelta(from: values.bearingDegrees, to: b))
        }
        if let p = target.pitchDegrees {
            animator.animate(.pitch, group: group, at: now, delayNanoseconds: Self.nanoseconds(plan.pitchDelaySeconds),
                             durationNanoseconds: Self.nanoseconds(plan.pitchDurationSeconds), curve: .easeInOut,
                             fromScalar: values.pitchDegrees,
                             toScalar: min(max(p, configuration.minimumPitchDegrees), configuration.maximumPitchDegrees))
        }
        if let p = target.padding {
            animator.animate(.padding, group: group, at: now, delayNanoseconds: Self.nanoseconds(plan.paddingDelaySeconds),
                             durationNanoseconds: Self.nanoseconds(plan.paddingDurationSeconds), curve: .easeInOut,
                             fromPadding: values.padding, toPadding: p)
        }
    }

    /// The camera the target state wants now, or nil when it cannot produce one yet.
    // `mutating` only so self is passed by address: a borrowed call would copy the whole core (≈ 9 KB).
    mutating func stateCamera(at now: Int64) -> StateCamera? {
        guard let target = viewportTarget else { return nil }
        switch target {
        case .followPuck(let o):
            guard puckMotion.hasValue else { return nil }
            // The bearing of the interpolated puck (Mapbox `onPuckRender`): the heading eased over 0.3 s,
            // the course over 1.1 s with the location; nil leaves the bearing alone (tracking.md 10.7).
            var bearing: Double? = nil
            var source = CameraBearingSource.command
            switch o.bearing {
            case .constant(let b): bearing = b
            case .heading:
                bearing = viewportHeading.value(at: now)
                source = CameraBearingSource(selection?.source ?? .none)
            case .course:
                bearing = viewportCourse.value(at: now)
                source = .gpsCourse
            case nil: bearing = nil
            }
            return StateCamera(center: puckMotion.value(at: now).point, zoom: o.zoom, bearingDegrees: bearing,
                               pitchDegrees: o.pitchDegrees, padding: o.padding, bearingSource: source)
        case .overview(let o):
            var corners: InlineArray<4, MercatorPoint>
            switch o.geometry {
            case .recentTrack:
                let current: MercatorPoint? = puckMotion.hasValue ? latest?.point : nil
                guard let b = track.bounds(including: current) else { return nil }
                corners = [b.min, b.max, MercatorPoint(x: b.min.x, y: b.max.y), MercatorPoint(x: b.max.x, y: b.min.y)]
            case .boundingBox(let sw, let ne):
                let a = WebMercator.project(sw)
                var b = WebMercator.project(ne)
                if b.x < a.x { b.x += 1 }   // box crossing the antimeridian
                corners = [a, b, MercatorPoint(x: a.x, y: b.y), MercatorPoint(x: b.x, y: a.y)]
            }
            let cameraPadding = o.padding ?? values.padding
            let bearing = o.bearingDegrees ?? values.bearingDegrees
            let fit = CameraGeometry.fit(corners: corners, bearingDegrees: bearing,
                                         padding: cameraPadding + o.geometryPadding, cameraPadding: cameraPadding,
                                         size: viewSize, minZoom: minimumZoom,
                                         maxZoom: min(o.maxZoom ?? maximumZoom, maximumZoom))
            var center = fit.center
            center.x -= center.x.rounded(.down)
            return StateCamera(center: center, zoom: fit.zoom, bearingDegrees: o.bearingDegrees,
                               pitchDegrees: o.pitchDegrees, padding: o.padding)
        }
    }

    /// Per-advance viewport work: start a waiting transition, move a running transition's targets,
    /// keep the camera on the state (follow puck: set directly; overview: refit on change).
    mutating func updateViewport(at now: Int64) {
        switch viewportStatus {
        case .idle:
            return
        case .transition:
            if transitionPending { startTransitionIfPossible(at: now); return }
            guard let target = stateCamera(at: now) else { return }
            // Mapbox `DefaultViewportTransitionAnimation.updateTargetCamera` (tracking.md 10.9): a running
            // property is retargeted; a property whose animation has completed is set to the new target.
            if let c = target.center, transitionChannels & 1 != 0 {
                if let ch = animator.target(.center), ch.groupID == transitionGroup {
                    var to = c
                    if to.x - ch.fromCenter.x > 0.5 { to.x -= 1 } else if to.x - ch.fromCenter.x < -0.5 { to.x += 1 }
                    animator.retarget(.center, center: to)
                } else {
                    values.center = c
                }
            }
            if let z = target.zoom, transitionChannels & 2 != 0 {
                let zoom = min(max(z, minimumZoom), maximumZoom)
                if let ch = animator.target(.zoom), ch.groupID == transitionGroup {
                    animator.retarget(.zoom, scalar: zoom)
                } else {
                    values.zoom = zoom
                }
            }
            if let b = target.bearingDegrees, transitionChannels & 4 != 0 {
                cameraBearingSource = target.bearingSource
                if let ch = animator.target(.bearing), ch.groupID == transitionGroup {
                    animator.retarget(.bearing, scalar: ch.fromScalar + Angle.shortestDelta(from: ch.fromScalar, to: b))
                } else {
                    values.bearingDegrees = Angle.wrap360(b)
                }
            }
            if let p = target.pitchDegrees, transitionChannels & 8 != 0 {
                let pitch = min(max(p, configuration.minimumPitchDegrees), configuration.maximumPitchDegrees)
                if let ch = animator.target(.pitch), ch.groupID == transitionGroup {
                    animator.retarget(.pitch, scalar: pitch)
                } else {
                    values.pitchDegrees = pitch
                }
            }
            if let p = target.padding, transitionChannels & 16 != 0 {
                if let ch = animator.target(.padding), ch.groupID == transitionGroup {
                    animator.retarget(.padding, padding: p)
                } else {
                    values.padding = p
                }
            }
        case .state(.followPuck):
            applyStateCamera(at: now)
        case .state(.overview):
            guard case .overview(let o)? = viewportTarget else { return }
            let version = o.geometry == .recentTrack ? track.version : 0
            if version != overviewFittedVersion || viewSize != overviewFittedSize, let target = stateCamera(at: now) {
                overviewFittedVersion = version
                overviewFittedSize = viewSize
                overviewRefitGroup = animateCamera(
                    center: target.center, zoom: target.zoom, bearingDegrees: target.bearingDegrees,
                    pitchDegrees: target.pitchDegrees, padding: target.padding, bearingSource: target.bearingSource,
                    durationNanoseconds: Self.nanoseconds(max(0, o.animationDurationSeconds)),
                    curve: .linear, path: .straight, purpose: .overviewRefit, token: 0, at: now)
            }
        }
    }

    /// Sets the camera straight to the state's camera (follow puck: every frame, no animation, tracking.md 10.7).
    mutating func applyStateCamera(at now: Int64) {
        guard let target = stateCamera(at: now) else { return }
        if case .overview(let o)? = viewportTarget {
            overviewFittedVersion = o.geometry == .recentTrack ? track.version : 0
            overviewFittedSize = viewSize
        }
        if let c = target.center { values.center = c }
        if let z = target.zoom { values.zoom = min(max(z, minimumZoom), maximumZoom) }
        if let b = target.bearingDegrees {
            values.bearingDegrees = Angle.wrap360(b)
            cameraBearingSource = target.bearingSource
        }
        if let p = target.pitchDegrees {
            values.pitchDegrees = min(max(p, configuration.minimumPitchDegrees), configuration.maximumPitchDegrees)
        }
        if let p = target.padding { values.padding = p }
        clampPitchToPadding()   // a jump (Mapbox setCamera)
    }
}
