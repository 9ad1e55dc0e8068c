/// How a camera animation moves the centre and zoom.
enum CameraPath: Sendable {
    /// Straight interpolation of each property.
    case straight
    /// mbgl easeTo with a duration: van Wijk path with linear zoom (constant ground speed, spec 3.4).
    case flyLinearZoom
    /// mbgl flyTo: van Wijk optimal path, ρ 1.42 (spec 3.3).
    case flyOptimal
}

extension TrackingCore {
    /// The view rectangle minus the content insets (MapLibre `contentFrame`).
    @inline(__always)  // a call boundary would copy the whole core (≈ 9 KB)
    var contentFrame: ScreenRect {
        ScreenRect(minX: 0, minY: 0, width: viewSize.widthPoints, height: viewSize.heightPoints).inset(by: contentInsets)
    }

    /// Height of the puck view, points: 45 for the course puck, 22 for the dot (spec 5.1).
    @inline(__always)  // a call boundary would copy the whole core (≈ 9 KB)
    var puckHeightPoints: Double {
        currentPuckStyle == .course ? configuration.style.coursePuckDiameterPoints : configuration.style.dotDiameterPoints
    }

    /// Where the puck should sit on screen while tracking (MapLibre `userLocationAnnotationViewCenter`,
    /// spec 5.1; ArcGIS navigation point height, spec 11.4).
    @inline(__always)  // a call boundary would copy the whole core (≈ 9 KB)
    var trackingAnchorPoint: ScreenPoint {
        let frame = contentFrame
        if mode == .navigation {
            return ScreenPoint(xPoints: frame.midX,
                               yPoints: frame.maxY - configuration.navigationPointHeightFactor * frame.height)
        }
        if mode == .recenter || mode == .compassNavigation {
            return ScreenPoint(xPoints: frame.midX, yPoints: frame.midY)
        }
        if let p = anchorOverride {
            return ScreenPoint(xPoints: p.xPoints + contentInsets.leftPoints, yPoints: p.yPoints + contentInsets.topPoints)
        }
        let inset = 50 + puckHeightPoints
        var rect = frame.inset(by: EdgeInsets(topPoints: inset, bottomPoints: inset))
        if rect.isEmpty { rect = frame }
        switch verticalAlignment {
        case .center: return ScreenPoint(xPoints: rect.midX, yPoints: rect.midY)
        case .top: return ScreenPoint(xPoints: rect.midX, yPoints: rect.minY)
        case .bottom: return ScreenPoint(xPoints: rect.midX, yPoints: rect.maxY)
        }
    }

    /// Camera padding that puts the centre at the tracking anchor. MapLibre (spec 5.3): dx, dy = anchor −
    /// view centre → {top dy, left dx, bottom −dy, right −dx}. ArcGIS navigation **[derived]** (spec
    /// 11.4): top = content insets.top + H·(1 − 2f), others the content insets (same anchor).
    @inline(__always)  // a call boundary would copy the whole core (≈ 9 KB)
    var followPadding: EdgeInsets {
        if mode == .navigation {
            let frame = contentFrame
            return EdgeInsets(topPoints: contentInsets.topPoints + frame.height * (1 - 2 * configuration.navigationPointHeightFactor),
                              leftPoints: contentInsets.leftPoints, bottomPoints: contentInsets.bottomPoints,
                              rightPoints: contentInsets.rightPoints)
        }
        let a = trackingAnchorPoint
        let dx = a.xPoints - viewSize.widthPoints / 2, dy = a.yPoints - viewSize.heightPoints / 2
        return EdgeInsets(topPoints: dy, leftPoints: dx, bottomPoints: -dy, rightPoints: -dx)
    }

    /// Where a world point is on screen with the current camera.
    @inline(__always)  // a call boundary would copy the whole core (≈ 9 KB)
    func screenPoint(of point: MercatorPoint) -> ScreenPoint? {
        CameraGeometry.screenPoint(of: point, camera: values, size: viewSize)
    }

    /// The effective maximum pitch: configured maximum, lowered for asymmetric padding (spec 5.7).
    @inline(__always)  // a call boundary would copy the whole core (≈ 9 KB)
    func maximumPitch(for padding: EdgeInsets) -> Double {
        min(configuration.maximumPitchDegrees, CameraGeometry.maximumPitchDegrees(padding: padding, size: viewSize))
    }

    /// Starts a camera animation (mbgl easeTo / flyTo semantics): each given property animates from
    /// its current value; a property already animating is replaced only when its target differs
    /// (spec 3.4, mbgl per-property animations). Returns the request id. Duration 0 jumps.
    @discardableResult
    mutating func animateCamera(center: MercatorPoint? = nil, zoom: Double? = nil, bearingDegrees: Double? = nil,
                                pitchDegrees: Double? = nil, padding: EdgeInsets? = nil,
                                durationNanoseconds: Int64, curve: TimingCurve, path: CameraPath,
                                delayNanoseconds: Int64 = 0, purpose: AnimationPurpose, token: UInt32,
                                at now: Int64) -> UInt32 {
        let group = animator.begin(purpose, token: token, at: now, durationNanoseconds: delayNanoseconds + durationNanoseconds)
        let targetZoom = zoom.map { min(max($0, minimumZoom), maximumZoom) } ?? values.zoom
        var targetCenter = center ?? values.center
        if targetCenter.x - values.center.x > 0.5 { targetCenter.x -= 1 } else if targetCenter.x - values.center.x < -0.5 { targetCenter.x += 1 }
        let targetPadding = padding ?? values.padding
        var fly: FlyToPath? = nil
        if path != .straight && durationNanoseconds > 0 && (center != nil || zoom != nil) {
            let span = max(viewSize.widthPoints - targetPadding.leftPoints - targetPadding.rightPoints,
                           viewSize.heightPoints - targetPadding.topPoints - targetPadding.bottomPoints)
            fly = FlyToPath(start: values.center, end: targetCenter, startZoom: values.zoom, endZoom: targetZoom,
                            viewportSpanPoints: span, linearZoom: path == .flyLinearZoom)
        }
        let centerChanges = center != nil && targetCenter != values.center
        let zoomChanges = zoom != nil && targetZoom != values.zoom
        // The optimal fly couples centre and zoom (the zoom dips mid-flight even when the end zoom is
        // unchanged): both animate when either changes. Otherwise mbgl's rule: a running property
        // animation is replaced only when its target differs.
        let coupled = path == .flyOptimal && fly != nil
        if center != nil && (!animator.isActive(.center) || centerChanges || (coupled && zoomChanges)) {
            animator.animate(.center, group: group, at: now, delayNanoseconds: delayNanoseconds,
                             durationNanoseconds: durationNanoseconds, curve: curve,
                             fromCenter: values.center, toCenter: targetCenter, fly: fly)
        }
        if zoom != nil && (!animator.isActive(.zoom) || zoomChanges || (coupled && centerChanges)) {
            animator.animate(.zoom, group: group, at: now, delayNanoseconds: delayNanoseconds,
                             durationNanoseconds: durationNanoseconds, curve: curve,
                             fromScalar: values.zoom, toScalar: targetZoom, fly: fly)
        }
        if let b = bearingDegrees {
            let delta = Angles.shortestDelta(from: values.bearingDegrees, to: b)
            if !animator.isActive(.bearing) || delta != 0 {
                animator.animate(.bearing, group: group, at: now, delayNanoseconds: delayNanoseconds,
                                 durationNanoseconds: durationNanoseconds, curve: curve,
                                 fromScalar: values.bearingDegrees, toScalar: values.bearingDegrees + delta)
            }
        }
        if let p = pitchDegrees {
            let target = min(max(p, configuration.minimumPitchDegrees), configuration.maximumPitchDegrees)
            if !animator.isActive(.pitch) || target != values.pitchDegrees {
                animator.animate(.pitch, group: group, at: now, delayNanoseconds: delayNanoseconds,
                                 durationNanoseconds: durationNanoseconds, curve: curve,
                                 fromScalar: values.pitchDegrees, toScalar: target)
            }
        }
        if padding != nil && (!animator.isActive(.padding) || targetPadding != values.padding) {
            animator.animate(.padding, group: group, at: now, delayNanoseconds: delayNanoseconds,
                             durationNanoseconds: durationNanoseconds, curve: curve,
                             fromPadding: values.padding, toPadding: targetPadding)
        }
        if durationNanoseconds == 0 && delayNanoseconds == 0 { stepAnimations(at: now) }
        return group
    }

    /// Evaluates the animations at `now`, keeps the pitch inside its padding-dependent limit, and
    /// acts on finished requests.
    mutating func stepAnimations(at now: Int64) {
        animator.evaluate(at: now, into: &values)
        if values.padding != pitchLimitPadding || viewSize != pitchLimitSize {
            pitchLimitPadding = values.padding
            pitchLimitSize = viewSize
            pitchLimitDegrees = maximumPitch(for: values.padding)
        }
        let maxPitch = pitchLimitDegrees
        if values.pitchDegrees > maxPitch { values.pitchDegrees = max(configuration.minimumPitchDegrees, maxPitch) }
        values.center.y = min(max(values.center.y, 0), 1)
        if values.center.x >= 1 || values.center.x < 0 {
            // Keep the centre on the canonical world copy once no centre animation depends on it.
            if !animator.isActive(.center) { values.center.x -= values.center.x.rounded(.down) }
        }
        processFinishedAnimations(at: now)
    }

    /// Reacts to finished animation requests (tracking sub-state, viewport transitions, completions).
    mutating func processFinishedAnimations(at now: Int64) {
        while let f = animator.popFinished() {
            switch f.purpose {
            case .firstFly:
                // MapLibre's completion block runs even when the fly is interrupted (spec 2.5, Q15 fixed).
                if trackingState == .began || trackingState == .beginSignificantTransition { trackingState = .changed }
            case .courseTargetFit:
                if trackingState == .began { trackingState = .changed }
            case .viewportTransition:
                if f.id == transitionGroup { finishViewportTransition(success: f.success, at: now) }
            default:
                break
            }
            complete(f.token, success: f.success, at: now)
        }
    }
}
