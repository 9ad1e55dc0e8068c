import Angles

extension TrackingCore {
    /// Feeds one heading sample (time inside the sample). A sample with headingAccuracy < 0 makes its
    /// source invalid for the bearing fallback (the camera never turns to it); every sample is ignored
    /// while a pan gesture is in its Began state (tracking.md 4.3; counted in `ignoredHeadingCount`).
    public mutating func updateHeading(_ sample: HeadingSample) {
        let now = advance(to: sample.timeNanoseconds)
        if panBegan { ignoredHeadingCount &+= 1; return }
        var s = sample
        s.timeNanoseconds = now
        selector.record(s)
        refreshBearing(at: now)
    }

    /// Sets the heading filter (tracking.md 4.2; `[heading] heading_filter_deg`, a live setting):
    /// `degrees` clamped to 0...180, the configuration's range. Applies from the next heading change.
    public mutating func setHeadingFilterDegrees(_ degrees: Double) {
        configuration.headingFilterDegrees = degrees.isNaN ? 1 : min(180, max(0, degrees))
    }

    /// Re-evaluates the bearing fallback at `now`; on a change, turns the puck arrow (0.3 s for
    /// headings, the fix interval for course) and, in heading modes, the camera.
    mutating func refreshBearing(at now: Int64) {
        let preferMagnetic = mode == .compassNavigation && configuration.compassNavigationReference == .magneticNorth
        // Q17: the course stands in for a missing heading unless the SDK-strict setting is chosen.
        let newSelection = selector.select(at: now, includeCourse: !isCoarse && configuration.headingFallsBackToCourse,
                                           preferMagnetic: preferMagnetic)
        bearingExpiryNanoseconds = selector.nextExpiryNanoseconds
        if newSelection != selection {
            selection = newSelection
            // Mapbox's heading interpolator (0.3 s, shortest way) feeds the follow-puck `.heading` bearing.
            if let s = newSelection {
                viewportHeading.turn(to: s.degrees, at: now,
                                     durationNanoseconds: Self.nanoseconds(configuration.headingAnimationDurationSeconds))
            } else {
                viewportHeading.reset()
            }
            if let s = newSelection, showsUserLocation {
                if lastEventHeadingDegrees == nil
                    || abs(Angle.shortestDelta(from: lastEventHeadingDegrees!, to: s.degrees)) >= configuration.headingFilterDegrees {
                    lastEventHeadingDegrees = s.degrees
                    if s.source != .gpsCourse { emit(.didUpdateUserLocation, at: now) }
                }
            }
            if mode.behavior == .heading { applyHeadingToCamera(at: now) }
        }
        updatePuckBearingTarget(at: now)
    }

    /// Heading modes: ease the camera bearing to the selected heading over 0.3 s, linear, centre pinned
    /// to the user (tracking.md 4.4), when it moved at least `headingFilterDegrees` (tracking.md 4.2)
    /// since the last one applied. Skipped in state Began and during a pan's Began. As every MapLibre
    /// camera change it ends the running follow ease (tracking.md 3.8); unlike MapLibre's
    /// `_setDirection:center:` it carries the follow padding, so a heading sample never leaves the
    /// padding half-way (tracking.md 4.4).
    mutating func applyHeadingToCamera(at now: Int64) {
        guard mode.behavior == .heading, showsUserLocation, trackingState != .began, !panBegan,
              let s = selection, let location = userLocation else { return }
        if let last = lastCameraHeadingDegrees,
           abs(Angle.shortestDelta(from: last, to: s.degrees)) < configuration.headingFilterDegrees { return }
        lastCameraHeadingDegrees = s.degrees
        animateCamera(center: location.point, bearingDegrees: s.degrees, padding: followPadding,
                      bearingSource: CameraBearingSource(s.source),
                      durationNanoseconds: Self.nanoseconds(configuration.headingAnimationDurationSeconds),
                      curve: .linear, path: .flyLinearZoom, purpose: .headingEase, token: 0, at: now)
    }

    /// The bearing the puck should show and its source (tracking.md Q6 when none).
    // `mutating` only so self is passed by address: a borrowed call would copy the whole core (≈ 9 KB).
    mutating func desiredPuckBearing(at now: Int64) -> (degrees: Double?, source: BearingSource, isHeading: Bool) {
        if currentPuckStyle == .course {
            if let c = latest?.courseDegrees { return (c, .gpsCourse, false) }
        } else if let s = selection {
            return (s.degrees, s.source, s.source != .gpsCourse)
        }
        switch configuration.puckBearingWhenUnavailable {
        case .keepLast: return (nil, .none, false)
        case .north: return (0, .none, false)
        }
    }

    /// Turns the puck bearing toward its desired value when that changed: a heading at once with
    /// MapLibre's puck (its fan and arrow rotate without animation, tracking.md 8.5), over 0.3 s with
    /// Mapbox's (heading interpolator); a course over the fix interval (MapLibre) or 1.1 s (Mapbox).
    mutating func updatePuckBearingTarget(at now: Int64) {
        let desired = desiredPuckBearing(at: now)
        puckBearingSource = desired.source
        guard let degrees = desired.degrees else { return }
        if puckBearing.target == Angle.wrap360(degrees) { return }
        let duration: Int64
        if desired.isHeading {
            duration = configuration.puckSmoothing == .mapbox ? Self.nanoseconds(configuration.headingAnimationDurationSeconds) : 0
        } else {
            duration = configuration.puckSmoothing == .mapbox ? 1_100_000_000
                : Self.nanoseconds(configuration.userLocationAnimationDurationSeconds)
        }
        puckBearing.turn(to: degrees, at: now, durationNanoseconds: duration)
    }
}
