extension TrackingCore {
    /// Advances animations to `time` and refreshes `puck` and `camera` (call at the display rate,
    /// e.g. 60 Hz). Allocation-free.
    public mutating func tick(atNanoseconds time: Int64) {
        let now = advance(to: time)
        camera = makeCameraState(at: now)
        puck = makePuckState(at: now)
    }

    /// Brings every time-dependent part to `time` (clamped to be monotonic): temporary authorization
    /// expiry, bearing-source timeouts, viewport states, MapLibre's delayed north checks (run at their
    /// due time), camera animations. Returns the time used.
    @discardableResult
    mutating func advance(to time: Int64) -> Int64 {
        let now = monotonic(time)
        clockNanoseconds = now
        if let until = temporaryFullAccuracyUntilNanoseconds, now >= until {
            temporaryFullAccuracyUntilNanoseconds = nil
            accuracyDidChange(at: now)
            emit(.didChangeAuthorization(authorizationStatus, .reduced), at: now)
        }
        if now >= bearingExpiryNanoseconds { refreshBearing(at: now) } else { updatePuckBearingTarget(at: now) }
        updateViewport(at: now)
        if let due = pendingResetNorthNanoseconds, now >= due {
            pendingResetNorthNanoseconds = nil
            resetNorth(at: due)
        }
        if let due = pendingGestureNorthCheckNanoseconds, now >= due {
            pendingGestureNorthCheckNanoseconds = nil
            unrotateIfNeededForGesture(at: due)
        }
        stepAnimations(at: now)
        return now
    }

    // `mutating` only so self is passed by address: a borrowed call would copy the whole core (≈ 9 KB).
    mutating func makeCameraState(at now: Int64) -> CameraState {
        let center = WebMercator.unproject(values.center)
        var transitionProgress = 1.0
        if case .transition = viewportStatus {
            transitionProgress = transitionPending ? 0 : animator.progress(of: transitionGroup, at: now)
        }
        var progress = 1.0
        if let id = animator.newestRunningID { progress = animator.progress(of: id, at: now) }
        return CameraState(center: center, zoom: values.zoom, bearingDegrees: values.bearingDegrees,
                           bearingSource: cameraBearingSource, pitchDegrees: values.pitchDegrees, padding: values.padding,
                           anchor: CameraGeometry.anchor(padding: values.padding, size: viewSize),
                           metersPerPoint: WebMercator.metersPerPoint(latitudeDegrees: center.latitudeDegrees,
                                                                      zoom: values.zoom),
                           trackingMode: mode, trackingState: trackingState, viewportStatus: viewportStatus,
                           viewportTransitionProgress: transitionProgress, animationProgress: progress,
                           isAnimating: animator.isAnimating, timeNanoseconds: now)
    }
}
