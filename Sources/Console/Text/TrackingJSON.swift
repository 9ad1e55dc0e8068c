import Tracking

/// JSON-lines rendering of the tracking outputs (`puckd replay --json`, console `json` views).
/// Field names are the Swift property names of `PuckState` / `CameraState` (units in the names);
/// numbers are fixed-point with enough digits (coordinates 9, points 2, degrees 3, zoom 4);
/// nil is `null`. Allocation-free: everything goes through `OutputBuffer`.
public enum TrackingJSON {
    /// One line: `{"timeNanoseconds":…,"puck":{…},"camera":{…}}` + newline. With `includeStyle`
    /// the puck's `properties` object (colours, opacities, sizes) is included.
    public static func appendLine(puck: PuckState, camera: CameraState, includeStyle: Bool = false,
                                  to out: inout OutputBuffer) {
        out.append("{\"timeNanoseconds\":")
        out.append(int: camera.timeNanoseconds)
        out.append(",\"puck\":")
        appendPuck(puck, includeStyle: includeStyle, to: &out)
        out.append(",\"camera\":")
        appendCamera(camera, to: &out)
        out.append("}\n")
    }

    /// One event line: `{"timeNanoseconds":…,"event":"name",…}` + newline.
    public static func appendEventLine(_ e: TimedTrackingEvent, to out: inout OutputBuffer) {
        out.append("{\"timeNanoseconds\":")
        out.append(int: e.timeNanoseconds)
        out.append(UInt8(ascii: ","))
        appendEventFields(e.event, to: &out)
        out.append("}\n")
    }

    /// The fields of an event without braces: `"event":"name"` and the event's own fields
    /// (`mode`, `animated`, `status`, `accuracy`, `reason`, `token`, `success`, viewport status).
    public static func appendEventFields(_ event: TrackingEvent, to out: inout OutputBuffer) {
        out.append("\"event\":\"")
        switch event {
        case .willStartLocatingUser: out.append("willStartLocatingUser\"")
        case .didStopLocatingUser: out.append("didStopLocatingUser\"")
        case .didUpdateUserLocation: out.append("didUpdateUserLocation\"")
        case .didFailToLocateUser(let reason):
            out.append("didFailToLocateUser\",\"reason\":\""); out.append(TrackingNames.name(reason)); out.append("\"")
        case .didChangeTrackingMode(let mode, let animated):
            out.append("didChangeTrackingMode\",\"mode\":\""); out.append(mode.name)
            out.append("\",\"animated\":"); out.append(animated ? "true" : "false")
        case .didChangeAuthorization(let status, let accuracy):
            out.append("didChangeAuthorization\",\"status\":\""); out.append(TrackingNames.name(status))
            out.append("\",\"accuracy\":\""); out.append(TrackingNames.name(accuracy)); out.append("\"")
        case .completed(let token, let success):
            out.append("completed\",\"token\":"); out.append(uint: UInt64(token.rawValue))
            out.append(",\"success\":"); out.append(success ? "true" : "false")
        case .didChangeViewportStatus(let status, let reason):
            out.append("didChangeViewportStatus\",")
            appendViewportStatus(status, to: &out)
            out.append(",\"reason\":\""); out.append(TrackingNames.name(reason)); out.append("\"")
        }
    }

    /// The puck object.
    public static func appendPuck(_ p: PuckState, includeStyle: Bool, to out: inout OutputBuffer) {
        out.append("{\"isVisible\":"); bool(p.isVisible, &out)
        out.append(",\"hasLocation\":"); bool(p.hasLocation, &out)
        out.append(",\"coordinate\":"); coordinate(p.coordinate, &out)
        out.append(",\"screenPoint\":"); point(p.screenPoint, &out)
        out.append(",\"isPinnedToAnchor\":"); bool(p.isPinnedToAnchor, &out)
        out.append(",\"horizontalAccuracyMeters\":")
        if p.horizontalAccuracyMeters >= 0 { out.append(jsonNumber: p.horizontalAccuracyMeters, decimals: 2) } else { out.append("null") }
        out.append(",\"bearingDegrees\":"); optional(p.bearingDegrees, 3, &out)
        out.append(",\"bearingSource\":\""); out.append(TrackingNames.name(p.bearingSource))
        out.append("\",\"bearingOnScreenDegrees\":"); optional(p.bearingOnScreenDegrees, 3, &out)
        out.append(",\"style\":\""); out.append(TrackingNames.name(p.style))
        out.append("\",\"accuracyRingDiameterPoints\":"); out.append(jsonNumber: p.accuracyRingDiameterPoints, decimals: 2)
        out.append(",\"accuracyRingVisible\":"); bool(p.accuracyRingVisible, &out)
        out.append(",\"approximateBorderWidthPoints\":"); out.append(jsonNumber: p.approximateBorderWidthPoints, decimals: 2)
        out.append(",\"haloVisible\":"); bool(p.haloVisible, &out)
        out.append(",\"haloDiameterPoints\":"); out.append(jsonNumber: p.haloDiameterPoints, decimals: 2)
        out.append(",\"haloScale\":"); out.append(jsonNumber: p.haloScale, decimals: 4)
        out.append(",\"haloOpacity\":"); out.append(jsonNumber: p.haloOpacity, decimals: 4)
        out.append(",\"pulsePhase\":"); out.append(jsonNumber: p.pulsePhase, decimals: 4)
        out.append(",\"dotBreathScale\":"); out.append(jsonNumber: p.dotBreathScale, decimals: 4)
        out.append(",\"dotBreathOpacity\":"); out.append(jsonNumber: p.dotBreathOpacity, decimals: 4)
        out.append(",\"headingIndicator\":\""); out.append(TrackingNames.name(p.headingIndicator))
        out.append("\",\"headingFanWidthDegrees\":"); out.append(jsonNumber: p.headingFanWidthDegrees, decimals: 2)
        out.append(",\"shadowOffsetPoints\":"); out.append(jsonNumber: p.shadowOffsetPoints, decimals: 3)
        out.append(",\"shadowRadiusPoints\":"); out.append(jsonNumber: p.shadowRadiusPoints, decimals: 3)
        out.append(",\"isStale\":"); bool(p.isStale, &out)
        out.append(",\"isReducedAccuracy\":"); bool(p.isReducedAccuracy, &out)
        if includeStyle {
            out.append(",\"properties\":")
            appendStyle(p.properties, to: &out)
        }
        out.append("}")
    }

    /// The camera object.
    public static func appendCamera(_ c: CameraState, to out: inout OutputBuffer) {
        out.append("{\"center\":"); coordinate(c.center, &out)
        out.append(",\"zoom\":"); out.append(jsonNumber: c.zoom, decimals: 4)
        out.append(",\"bearingDegrees\":"); out.append(jsonNumber: c.bearingDegrees, decimals: 3)
        out.append(",\"bearingSource\":\""); out.append(TrackingNames.name(c.bearingSource))
        out.append("\",\"pitchDegrees\":"); out.append(jsonNumber: c.pitchDegrees, decimals: 3)
        out.append(",\"padding\":{\"topPoints\":"); out.append(jsonNumber: c.padding.topPoints, decimals: 2)
        out.append(",\"leftPoints\":"); out.append(jsonNumber: c.padding.leftPoints, decimals: 2)
        out.append(",\"bottomPoints\":"); out.append(jsonNumber: c.padding.bottomPoints, decimals: 2)
        out.append(",\"rightPoints\":"); out.append(jsonNumber: c.padding.rightPoints, decimals: 2)
        out.append("},\"anchor\":"); point(c.anchor, &out)
        out.append(",\"metersPerPoint\":"); out.append(jsonNumber: c.metersPerPoint, decimals: 5)
        out.append(",\"trackingMode\":\""); out.append(c.trackingMode.name)
        out.append("\",\"trackingState\":\""); out.append(TrackingNames.name(c.trackingState))
        out.append("\",")
        appendViewportStatus(c.viewportStatus, to: &out)
        out.append(",\"viewportTransitionProgress\":"); out.append(jsonNumber: c.viewportTransitionProgress, decimals: 4)
        out.append(",\"animationProgress\":"); out.append(jsonNumber: c.animationProgress, decimals: 4)
        out.append(",\"isAnimating\":"); bool(c.isAnimating, &out)
        out.append("}")
    }

    /// `"viewportStatus":"idle|state|transition","viewportState":"…"|null,"viewportTransition":"…"|null`.
    public static func appendViewportStatus(_ s: ViewportStatus, to out: inout OutputBuffer) {
        switch s {
        case .idle:
            out.append("\"viewportStatus\":\"idle\",\"viewportState\":null,\"viewportTransition\":null")
        case .state(let k):
            out.append("\"viewportStatus\":\"state\",\"viewportState\":\""); out.append(TrackingNames.name(k))
            out.append("\",\"viewportTransition\":null")
        case .transition(let kind, let k):
            out.append("\"viewportStatus\":\"transition\",\"viewportState\":\""); out.append(TrackingNames.name(k))
            out.append("\",\"viewportTransition\":\""); out.append(TrackingNames.name(kind)); out.append("\"")
        }
    }

    /// The style properties object.
    public static func appendStyle(_ s: PuckStyleProperties, to out: inout OutputBuffer) {
        out.append("{\"tintColor\":"); color(s.tintColor, &out)
        out.append(",\"puckFillColor\":"); color(s.puckFillColor, &out)
        out.append(",\"puckShadowColor\":"); color(s.puckShadowColor, &out)
        out.append(",\"puckShadowOpacity\":"); out.append(jsonNumber: s.puckShadowOpacity, decimals: 3)
        out.append(",\"puckArrowFillColor\":"); color(s.puckArrowFillColor, &out)
        out.append(",\"haloFillColor\":"); color(s.haloFillColor, &out)
        out.append(",\"accuracyRingFillColor\":"); color(s.accuracyRingFillColor, &out)
        out.append(",\"accuracyRingOpacity\":"); out.append(jsonNumber: s.accuracyRingOpacity, decimals: 3)
        out.append(",\"approximateHaloFillColor\":"); color(s.approximateHaloFillColor, &out)
        out.append(",\"approximateHaloBorderColor\":"); color(s.approximateHaloBorderColor, &out)
        out.append(",\"approximateHaloBorderWidthPoints\":"); out.append(jsonNumber: s.approximateHaloBorderWidthPoints, decimals: 2)
        out.append(",\"approximateHaloOpacity\":"); out.append(jsonNumber: s.approximateHaloOpacity, decimals: 3)
        out.append(",\"dotDiameterPoints\":"); out.append(jsonNumber: s.dotDiameterPoints, decimals: 2)
        out.append(",\"coursePuckDiameterPoints\":"); out.append(jsonNumber: s.coursePuckDiameterPoints, decimals: 2)
        out.append(",\"courseArrowSizePoints\":"); out.append(jsonNumber: s.courseArrowSizePoints, decimals: 2)
        out.append(",\"haloDiameterPoints\":"); out.append(jsonNumber: s.haloDiameterPoints, decimals: 2)
        out.append("}")
    }

    // MARK: pieces

    private static func bool(_ v: Bool, _ out: inout OutputBuffer) { out.append(v ? "true" : "false") }

    private static func optional(_ v: Double?, _ decimals: Int, _ out: inout OutputBuffer) {
        if let v { out.append(jsonNumber: v, decimals: decimals) } else { out.append("null") }
    }

    private static func coordinate(_ c: GeoCoordinate, _ out: inout OutputBuffer) {
        out.append("{\"latitudeDegrees\":"); out.append(jsonNumber: c.latitudeDegrees, decimals: 9)
        out.append(",\"longitudeDegrees\":"); out.append(jsonNumber: c.longitudeDegrees, decimals: 9)
        out.append("}")
    }

    private static func point(_ p: ScreenPoint, _ out: inout OutputBuffer) {
        out.append("{\"xPoints\":"); out.append(jsonNumber: p.xPoints, decimals: 2)
        out.append(",\"yPoints\":"); out.append(jsonNumber: p.yPoints, decimals: 2)
        out.append("}")
    }

    private static func color(_ c: RGBAColor, _ out: inout OutputBuffer) {
        out.append("{\"red\":"); out.append(jsonNumber: c.red, decimals: 4)
        out.append(",\"green\":"); out.append(jsonNumber: c.green, decimals: 4)
        out.append(",\"blue\":"); out.append(jsonNumber: c.blue, decimals: 4)
        out.append(",\"alpha\":"); out.append(jsonNumber: c.alpha, decimals: 4)
        out.append("}")
    }
}
