/// A configuration value outside its allowed range: names the field, the value and the range.
public struct TrackingConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field (configuration key below `tracking.`), e.g. `wanderExtentFactor`.
    public var field: String
    /// The rejected value.
    public var value: Double
    /// Smallest allowed value.
    public var minimum: Double
    /// Largest allowed value.
    public var maximum: Double
    /// Extra constraint text, if the range depends on another field.
    public var note: String

    /// One sentence: what is wrong and how to fix it.
    public var description: String {
        let extra = note.isEmpty ? "" : " (\(note))"
        return "tracking.\(field) = \(value) is outside the allowed range \(minimum)...\(maximum)\(extra); "
            + "set it to a value in that range"
    }
}

extension TrackingConfiguration {
    /// The first field outside its range, or nil when the configuration is valid.
    public func validationError() -> TrackingConfigurationError? {
        func check(_ field: String, _ value: Double, _ lo: Double, _ hi: Double,
                   _ note: String = "") -> TrackingConfigurationError? {
            if value.isNaN || value < lo || value > hi {
                return TrackingConfigurationError(field: field, value: value, minimum: lo, maximum: hi, note: note)
            }
            return nil
        }
        let checks: [TrackingConfigurationError?] = [
            check("viewportWidthPoints", viewportWidthPoints, 1, 16384),
            check("viewportHeightPoints", viewportHeightPoints, 1, 16384),
            check("initialLatitudeDegrees", initialLatitudeDegrees, -90, 90),
            check("initialLongitudeDegrees", initialLongitudeDegrees, -180, 180),
            check("minimumZoom", minimumZoom, WebMercator.minimumZoom, WebMercator.maximumZoomLimit),
            check("maximumZoom", maximumZoom, minimumZoom, WebMercator.maximumZoomLimit, "at least minimumZoom"),
            check("initialZoom", initialZoom, minimumZoom, maximumZoom, "between minimumZoom and maximumZoom"),
            check("initialBearingDegrees", initialBearingDegrees, -360, 360),
            check("minimumPitchDegrees", minimumPitchDegrees, 0, WebMercator.pitchLimitDegrees),
            check("maximumPitchDegrees", maximumPitchDegrees, minimumPitchDegrees, WebMercator.pitchLimitDegrees,
                  "at least minimumPitchDegrees"),
            check("initialPitchDegrees", initialPitchDegrees, minimumPitchDegrees, maximumPitchDegrees,
                  "between minimumPitchDegrees and maximumPitchDegrees"),
            check("userLocationAnimationDurationSeconds", userLocationAnimationDurationSeconds, 0.05, 10),
            check("headingAnimationDurationSeconds", headingAnimationDurationSeconds, 0, 5),
            check("trackingMinimumZoom", trackingMinimumZoom, 0, WebMercator.maximumZoomLimit),
            check("trackingDefaultZoom", trackingDefaultZoom, 0, WebMercator.maximumZoomLimit),
            check("snapToNorthToleranceDegrees", snapToNorthToleranceDegrees, 0, 45),
            check("headingFilterDegrees", headingFilterDegrees, 0, 180),
            check("courseMinimumSpeedMetersPerSecond", courseMinimumSpeedMetersPerSecond, 0, 100),
            check("imuHeadingTimeoutSeconds", imuHeadingTimeoutSeconds, 0.01, 3600),
            check("gpsBearingMaxAgeSeconds", gpsBearingMaxAgeSeconds, 0.01, 3600),
            check("assumedGPSBearingAccuracyDegrees", assumedGPSBearingAccuracyDegrees, 0, 180),
            check("snapDistancePoints", snapDistancePoints, 1, 1e9),
            check("staleTimeoutSeconds", staleTimeoutSeconds, 0.1, 86400),
            check("style.puckShadowOpacity", style.puckShadowOpacity, 0, 1),
            check("style.accuracyRingOpacity", style.accuracyRingOpacity, 0, 1),
            check("style.approximateHaloOpacity", style.approximateHaloOpacity, 0, 1),
            check("style.approximateHaloBorderWidthPoints", style.approximateHaloBorderWidthPoints, 0, 100),
            check("style.dotDiameterPoints", style.dotDiameterPoints, 1, 1000),
            check("style.coursePuckDiameterPoints", style.coursePuckDiameterPoints, 1, 1000),
            check("style.courseArrowSizePoints", style.courseArrowSizePoints, 1, 1000),
            check("style.haloDiameterPoints", style.haloDiameterPoints, 1, 10000),
            check("wanderExtentFactor", wanderExtentFactor, 0, 1),
            check("navigationPointHeightFactor", navigationPointHeightFactor, 0, 1),
            check("initialZoomScale", initialZoomScale, 1, 1e9),
            check("defaultTransitionMaxDurationSeconds", defaultTransitionMaxDurationSeconds, 0, 60),
            check("overviewTrackSpacingMeters", overviewTrackSpacingMeters, 0, 100_000),
            check("reducedAccuracyGridMeters", reducedAccuracyGridMeters, 100, 100_000),
            check("temporaryFullAccuracyDurationSeconds", temporaryFullAccuracyDurationSeconds, 1, 86400),
        ]
        for index in checks.indices { if let error = checks[index] { return error } }
        let colors: [(String, RGBAColor)] = [
            ("style.tintColor", style.tintColor), ("style.puckFillColor", style.puckFillColor),
            ("style.puckShadowColor", style.puckShadowColor), ("style.puckArrowFillColor", style.puckArrowFillColor),
            ("style.haloFillColor", style.haloFillColor), ("style.accuracyRingFillColor", style.accuracyRingFillColor),
            ("style.approximateHaloFillColor", style.approximateHaloFillColor),
            ("style.approximateHaloBorderColor", style.approximateHaloBorderColor),
        ]
        for index in colors.indices {
            let (name, c) = colors[index]
            let parts: [(String, Double)] = [("red", c.red), ("green", c.green), ("blue", c.blue), ("alpha", c.alpha)]
            for p in parts.indices {
                if let error = check("\(name).\(parts[p].0)", parts[p].1, 0, 1) { return error }
            }
        }
        return nil
    }

    /// Throws the first out-of-range field (see `validationError()`).
    public func validate() throws(TrackingConfigurationError) {
        if let error = validationError() { throw error }
    }
}
