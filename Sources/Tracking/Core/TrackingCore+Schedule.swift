extension TrackingCore {
    /// True while the camera or the puck animates, so the device ticks at the display rate: a camera
    /// animation or request (state only ticks advance: a request whose properties stay put still
    /// completes on a tick), a viewport transition waiting to start, the puck gliding to its latest
    /// fix, the puck's or the follow-puck heading's bearing turning (functions of time, counted
    /// because a reader of frames sees them move). The halo pulse and the dot's breathing are not
    /// counted: a reader that wants them asks for ticks at its own rate (docs/power.md).
    public var animates: Bool {
        let now = clockNanoseconds
        if cameraAnimates { return true }
        return puckMotion.isMoving(at: now) || puckBearing.isMoving(at: now) || viewportHeading.isMoving(at: now)
    }

    /// True while the camera animates: the part of `animates` that is state only ticks advance
    /// (skipping its ticks changes the output, OnDemandTickTests), so the device ticks at the full
    /// rate for it even with no reader of frames.
    public var cameraAnimates: Bool { animator.isAnimating || animator.newestRunningID != nil || transitionPending }

    /// With nothing animating, the next monotonic time (ns) at which a tick changes the state
    /// without an input: temporary full accuracy ending, a bearing source timing out, a delayed
    /// north check falling due, the puck turning stale. nil: none pending. A tick at an input and
    /// one at this time give the same puck and camera as ticking at the full rate (docs/power.md).
    public var nextChangeNanoseconds: Int64? {
        let now = clockNanoseconds
        var next = Int64.max
        if let t = temporaryFullAccuracyUntilNanoseconds, t > now { next = min(next, t) }
        if bearingExpiryNanoseconds > now { next = min(next, bearingExpiryNanoseconds) }
        if let t = pendingResetNorthNanoseconds, t > now { next = min(next, t) }
        if let t = pendingGestureNorthCheckNanoseconds, t > now { next = min(next, t) }
        if configuration.staleStateEnabled, let fresh = lastFreshFixNanoseconds {
            let t = fresh &+ Self.nanoseconds(configuration.staleTimeoutSeconds)
            if t > now { next = min(next, t) }
        }
        return next == .max ? nil : next
    }
}
