extension TrackingCore {
    /// MapLibre's purpose key for temporary full accuracy (tracking.md 7.4).
    public static let mapLibreAccuracyPurposeKey = "MLNAccuracyAuthorizationDescription"

    /// An authorization change (MapLibre `locationManagerDidChangeAuthorization`, tracking.md 7.4, 6).
    ///
    /// Denied: the mode goes to none (animated), showsUserLocation off (didStopLocatingUser), the
    /// stored locations are forgotten and didFailToLocateUser(authorizationDenied) fires. Authorized
    /// with reduced accuracy while tracking: temporary full accuracy is requested with MapLibre's
    /// key when `requestsTemporaryFullAccuracyWhileTracking` and the key is configured (Q12: we
    /// implement the evident intent — the status clause checks "authorized" — not the always-true
    /// clause as built). didChangeAuthorization fires on every real change.
    public mutating func changeAuthorization(status: AuthorizationStatus, accuracy: AccuracyAuthorization,
                                             atNanoseconds time: Int64) {
        let now = advance(to: time)
        let before = authorization
        let rawChanged = status != authorizationStatus || accuracy != accuracyAuthorization
        // Reduced while tracking with the request configured: the temporary grant is decided at once, so
        // the positions never go coarse in between (the camera would start easing to the grid cell).
        if status == .authorized && accuracy == .reduced && accuracyAuthorization == .full && before.accuracy == .full
            && mode.isTracking && configuration.requestsTemporaryFullAccuracyWhileTracking
            && isConfiguredPurposeKey(Self.mapLibreAccuracyPurposeKey) {
            authorizationStatus = status
            accuracyAuthorization = accuracy
            temporaryFullAccuracyUntilNanoseconds = now + Self.nanoseconds(configuration.temporaryFullAccuracyDurationSeconds)
            emit(.didChangeAuthorization(status, .reduced), at: now)
            emit(.didChangeAuthorization(status, .full), at: now)
            return
        }
        authorizationStatus = status
        accuracyAuthorization = accuracy
        if accuracy == .full { temporaryFullAccuracyUntilNanoseconds = nil }
        if status == .denied {
            changeMode(to: mode.isArcGIS ? .off : .none, animated: true, token: 0, at: now)
            setShowsUserLocationInternal(false, at: now)
            forgetLocation()
            emit(.didFailToLocateUser(.authorizationDenied), at: now)
        }
        if authorization != before { accuracyDidChange(at: now) }
        if rawChanged || authorization != before {
            emit(.didChangeAuthorization(authorization.status, authorization.accuracy), at: now)
        }
        if status == .authorized && mode.isTracking && isCoarse && configuration.requestsTemporaryFullAccuracyWhileTracking {
            _ = grantTemporaryFullAccuracy(purposeKey: Self.mapLibreAccuracyPurposeKey, at: now)
        }
    }

    /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:)`: succeeds only for a configured
    /// purpose key while authorized; full accuracy then lasts `temporaryFullAccuracyDurationSeconds`
    /// (each change emits didChangeAuthorization). Returns true when full accuracy applies afterwards.
    @discardableResult
    public mutating func requestTemporaryFullAccuracy(purposeKey: String, atNanoseconds time: Int64) -> Bool {
        let now = advance(to: time)
        return grantTemporaryFullAccuracy(purposeKey: purposeKey, at: now)
    }

    mutating func grantTemporaryFullAccuracy(purposeKey: String, at now: Int64) -> Bool {
        guard authorizationStatus == .authorized else { return false }
        if accuracyAuthorization == .full { return true }
        guard isConfiguredPurposeKey(purposeKey) else { return false }
        let wasCoarse = isCoarse
        temporaryFullAccuracyUntilNanoseconds = now + Self.nanoseconds(configuration.temporaryFullAccuracyDurationSeconds)
        if wasCoarse {
            accuracyDidChange(at: now)
            emit(.didChangeAuthorization(authorizationStatus, .full), at: now)
        }
        return true
    }

    /// True when `purposeKey` is one of `temporaryFullAccuracyPurposeKeys` (an index loop: no iterator).
    // `mutating` only so self is passed by address: a borrowed call would copy the whole core (≈ 9 KB).
    mutating func isConfiguredPurposeKey(_ purposeKey: String) -> Bool {
        let keys = configuration.temporaryFullAccuracyPurposeKeys
        var i = 0
        while i < keys.count { if keys[i] == purposeKey { return true }; i += 1 }
        return false
    }

    /// Re-derives every stored position for the new effective accuracy; the puck jumps to it.
    /// Going coarse also forgets the recent track (it holds precise positions).
    mutating func accuracyDidChange(at now: Int64) {
        if isCoarse { track.removeAll() }
        if let l = latest {
            latest = makeSample(raw: l.rawCoordinate, accuracyMeters: l.rawAccuracyMeters, courseDegrees: l.rawCourseDegrees,
                                at: l.timeNanoseconds, utcNanoseconds: l.utcNanoseconds)
            if puckMotion.hasValue, let fresh = latest {
                puckMotion.move(to: fresh.point, accuracyMeters: fresh.horizontalAccuracyMeters, at: now, durationNanoseconds: 0)
            }
        }
        if let l = userLocation {
            userLocation = makeSample(raw: l.rawCoordinate, accuracyMeters: l.rawAccuracyMeters,
                                      courseDegrees: l.rawCourseDegrees, at: l.timeNanoseconds,
                                      utcNanoseconds: l.utcNanoseconds)
        }
        selection = nil
        refreshBearing(at: now)
        if mode.isTracking, userLocation != nil {
            trackCamera(durationNanoseconds: Self.nanoseconds(configuration.userLocationAnimationDurationSeconds),
                        distanceFromOldMeters: 0, token: 0, at: now)
        }
    }

    /// Forgets every location (authorization denied).
    mutating func forgetLocation() {
        latest = nil
        userLocation = nil
        lastFreshFixNanoseconds = nil
        hadPosition = false
        puckMotion.reset()
        puckBearing.reset()
        viewportCourse.reset()
        viewportHeading.reset()
        selector.reset()
        selection = nil
        track.removeAll()
    }
}
