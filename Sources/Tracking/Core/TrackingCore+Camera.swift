import Angles

/// How a camera animation moves the centre and zoom.
enum CameraPath: Sendable {
    /// Straight interpolation of each property (jumps, eases during gestures, Mapbox's animators):
    /// its frames keep the pitch inside the padding limit (tracking.md 5.7).
    case straight
    /// mbgl easeTo with a duration: van Wijk path with linear zoom (constant ground speed, tracking.md 3.4).
    case flyLinearZoom
    /// mbgl flyTo: van Wijk optimal path, ρ 1.42 (tracking.md 3.3).
    case flyOptimal
}

extension TrackingCore {
    /// The view rectangle minus the content insets (MapLibre `contentFrame`).
    @inline(__always)  // a call boundary would copy the whole core (≈ 9 KB)
    var contentFrame: ScreenRect {
        ScreenRect(minX: 0, minY: 0, width: viewSize.widthPoints, height: viewSize.heightPoints).inset(by: contentInsets)
    }

    /// Height of the puck view, points: 45 for the course puck, 22 for the dot (tracking.md 5.1).
    @inline(__always)  // a call boundary would copy the whole core (≈ 9 KB)
    var puckHeightPoints: Double {
        currentPuckStyle == .course ? configuration.style.coursePuckDiameterPoints : configuration.style.dotDiameterPoints
    }

    /// Where the puck should sit on screen while tracking (MapLibre `userLocationAnnotationViewCenter`,
    /// tracking.md 5.1; ArcGIS navigation point height, tracking.md 11.4).
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

    /// Camera padding that puts the centre at the tracking anchor. MapLibre (tracking.md 5.3): dx, dy =
    /// anchor − view centre → {top dy, left dx, bottom −dy, right −dx}. ArcGIS navigation **[derived]**
    /// (tracking.md 11.4): top = content insets.top + H·(1 − 2f), others the content insets (same anchor).
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

    /// The effective maximum pitch for a padding (tracking.md 5.7).
    @inline(__always)  // a call boundary would copy the whole core (≈ 9 KB)
    func maximumPitch(for padding: EdgeInsets) -> Double {
        CameraGeometry.maximumPitchDegrees(padding: padding, size: viewSize, maximumPitch: configuration.maximumPitchDegrees,
                                           minimumPitch: configuration.minimumPitchDegrees)
    }

    /// Starts a camera transition (mbgl easeTo / flyTo / jumpTo). mbgl runs one transition at a time:
    /// the running request is finished where it is (its completion fires, interrupted) and every given
    /// property animates from its current value; properties not given stay where they are
    /// (tracking.md 3.8). An anchor keeps its ground point under it when no centre is given. Duration 0
    /// jumps. Returns the request id.
    @discardableResult
    mutating func animateCamera(center: MercatorPoint? = nil, zoom: Double? = nil, bearingDegrees: Double? = nil,
                                pitchDegrees: Double? = nil, padding: EdgeInsets? = nil, anchor: ScreenPoint? = nil,
                                bearingSource: CameraBearingSource = .command, durationNanoseconds: Int64,
                                curve: TimingCurve, path: CameraPath, purpose: AnimationPurpose, token: UInt32,
                                at now: Int64) -> UInt32 {
        animator.cancelAll()
        let group = animator.begin(purpose, token: token, at: now, durationNanoseconds: durationNanoseconds,
                                   clampsPitch: path == .straight || durationNanoseconds == 0)
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
        if center == nil, let anchor, let ground = CameraGeometry.worldPoint(at: anchor, camera: values, size: viewSize) {
            animator.setAnchor(of: group, anchor: anchor, ground: ground)
        }
        if center != nil {
            animator.animate(.center, group: group, at: now, durationNanoseconds: durationNanoseconds, curve: curve,
                             fromCenter: values.center, toCenter: targetCenter, fly: fly)
        }
        if zoom != nil {
            animator.animate(.zoom, group: group, at: now, durationNanoseconds: durationNanoseconds, curve: curve,
                             fromScalar: values.zoom, toScalar: targetZoom, fly: fly)
        }
        if let b = bearingDegrees {
            cameraBearingSource = bearingSource
            animator.animate(.bearing, group: group, at: now, durationNanoseconds: durationNanoseconds, curve: curve,
                             fromScalar: values.bearingDegrees,
                             toScalar: values.bearingDegrees + Angle.shortestDelta(from: values.bearingDegrees, to: b))
        }
        if let p = pitchDegrees {
            animator.animate(.pitch, group: group, at: now, durationNanoseconds: durationNanoseconds, curve: curve,
                             fromScalar: values.pitchDegrees,
                             toScalar: min(max(p, configuration.minimumPitchDegrees), configuration.maximumPitchDegrees))
        }
        if padding != nil {
            animator.animate(.padding, group: group, at: now, durationNanoseconds: durationNanoseconds, curve: curve,
                             fromPadding: values.padding, toPadding: targetPadding)
        }
        if durationNanoseconds == 0 { stepAnimations(at: now) }
        return group
    }

    /// Evaluates the animations at `now` and acts on finished requests. Frames of jumps and eases keep
    /// the pitch inside its padding limit; flights do not (tracking.md 5.7).
    mutating func stepAnimations(at now: Int64) {
        let clamps = animator.runsPitchClampingRequest   // read first: a request ending now clamps its last frame
        animator.evaluate(at: now, into: &values, size: viewSize)
        if clamps { clampPitchToPadding() }
        values.center.y = min(max(values.center.y, 0), 1)
        if values.center.x >= 1 || values.center.x < 0 {
            // Keep the centre on the canonical world copy once no centre animation depends on it.
            if !animator.isActive(.center) { values.center.x -= values.center.x.rounded(.down) }
        }
        processFinishedAnimations(at: now)
    }

    /// mbgl's jump/ease frame rule: a pitch above the limit for the current padding is lowered to it.
    mutating func clampPitchToPadding() {
        if values.padding != pitchLimitPadding || viewSize != pitchLimitSize {
            pitchLimitPadding = values.padding
            pitchLimitSize = viewSize
            pitchLimitDegrees = maximumPitch(for: values.padding)
        }
        if values.pitchDegrees > pitchLimitDegrees { values.pitchDegrees = pitchLimitDegrees }
    }

    /// Reacts to finished animation requests (tracking sub-state, viewport transitions, completions).
    mutating func processFinishedAnimations(at now: Int64) {
        while let f = animator.popFinished() {
            switch f.purpose {
            case .firstFly:
                // MapLibre's completion block runs even when the fly is interrupted (tracking.md 2.5, Q15 fixed).
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
