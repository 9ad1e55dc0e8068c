import Console
import Tracking

/// puckd's own report classes on the gpsd-protocol socket, for a map renderer: `PUCK` (what to draw
/// for the user's location), `CAMERA` (where the map looks) and `EVENT` (tracking events), in gpsd's
/// style (short lower-case members, degrees and metres, unknown values left out). Their members are
/// documented in docs/gpsd-protocol.md §3. Allocation-free.
public enum PuckdReports {
    /// `{"class":"PUCK",…}` for the puck at one tick (`mono_ns`: the tick's monotonic time).
    public static func appendPuck(_ p: PuckState, to out: inout OutputBuffer) {
        out.append("{\"class\":\"PUCK\",\"mono_ns\":"); out.append(int: p.timeNanoseconds)
        out.append(",\"visible\":"); bool(p.isVisible, &out)
        if p.hasLocation {
            out.append(",\"lat\":"); out.append(jsonNumber: p.coordinate.latitudeDegrees, decimals: 9)
            out.append(",\"lon\":"); out.append(jsonNumber: p.coordinate.longitudeDegrees, decimals: 9)
        }
        if p.horizontalAccuracyMeters >= 0 {
            out.append(",\"accuracy\":"); out.append(jsonNumber: p.horizontalAccuracyMeters, decimals: 2)
        }
        out.append(",\"ring\":"); out.append(jsonNumber: p.accuracyRingDiameterPoints, decimals: 2)
        out.append(",\"ring_visible\":"); bool(p.accuracyRingVisible, &out)
        if let b = p.bearingDegrees { out.append(",\"bearing\":"); out.append(jsonNumber: b, decimals: 3) }
        out.append(",\"bearing_source\":\""); out.append(TrackingNames.name(p.bearingSource)); out.append(UInt8(ascii: "\""))
        if let b = p.bearingOnScreenDegrees { out.append(",\"screen_bearing\":"); out.append(jsonNumber: b, decimals: 3) }
        out.append(",\"style\":\""); out.append(TrackingNames.name(p.style))
        out.append("\",\"indicator\":\""); out.append(TrackingNames.name(p.headingIndicator)); out.append(UInt8(ascii: "\""))
        if p.headingIndicator == .fan { out.append(",\"fan\":"); out.append(jsonNumber: p.headingFanWidthDegrees, decimals: 2) }
        out.append(",\"x\":"); out.append(jsonNumber: p.screenPoint.xPoints, decimals: 2)
        out.append(",\"y\":"); out.append(jsonNumber: p.screenPoint.yPoints, decimals: 2)
        out.append(",\"stale\":"); bool(p.isStale, &out)
        out.append(",\"approximate\":"); bool(p.isReducedAccuracy, &out)
        out.append("}\r\n")
    }

    /// `{"class":"CAMERA",…}` for the camera at one tick.
    public static func appendCamera(_ c: CameraState, to out: inout OutputBuffer) {
        out.append("{\"class\":\"CAMERA\",\"mono_ns\":"); out.append(int: c.timeNanoseconds)
        out.append(",\"lat\":"); out.append(jsonNumber: c.center.latitudeDegrees, decimals: 9)
        out.append(",\"lon\":"); out.append(jsonNumber: c.center.longitudeDegrees, decimals: 9)
        out.append(",\"zoom\":"); out.append(jsonNumber: c.zoom, decimals: 4)
        out.append(",\"bearing\":"); out.append(jsonNumber: c.bearingDegrees, decimals: 3)
        out.append(",\"bearing_source\":\""); out.append(TrackingNames.name(c.bearingSource))
        out.append("\",\"pitch\":"); out.append(jsonNumber: c.pitchDegrees, decimals: 3)
        out.append(",\"padding\":["); out.append(jsonNumber: c.padding.topPoints, decimals: 2)
        out.append(UInt8(ascii: ",")); out.append(jsonNumber: c.padding.leftPoints, decimals: 2)
        out.append(UInt8(ascii: ",")); out.append(jsonNumber: c.padding.bottomPoints, decimals: 2)
        out.append(UInt8(ascii: ",")); out.append(jsonNumber: c.padding.rightPoints, decimals: 2)
        out.append("],\"anchor\":["); out.append(jsonNumber: c.anchor.xPoints, decimals: 2)
        out.append(UInt8(ascii: ",")); out.append(jsonNumber: c.anchor.yPoints, decimals: 2)
        out.append("],\"mpp\":"); out.append(jsonNumber: c.metersPerPoint, decimals: 5)
        out.append(",\"mode\":\""); out.append(c.trackingMode.name)
        out.append("\",\"viewport\":\"")
        switch c.viewportStatus {
        case .idle: out.append("idle\"")
        case .state(let k): out.append("state\",\"viewport_state\":\""); out.append(TrackingNames.name(k)); out.append(UInt8(ascii: "\""))
        case .transition(let kind, let k):
            out.append("transition\",\"viewport_state\":\""); out.append(TrackingNames.name(k))
            out.append("\",\"transition\":\""); out.append(TrackingNames.name(kind)); out.append(UInt8(ascii: "\""))
            out.append(",\"progress\":"); out.append(jsonNumber: c.viewportTransitionProgress, decimals: 4)
        }
        out.append(",\"animating\":"); bool(c.isAnimating, &out)
        out.append("}\r\n")
    }

    /// `{"class":"EVENT","mono_ns":…,"event":…}` with the event's own members (as `replay --json`).
    public static func appendEvent(_ e: TimedTrackingEvent, to out: inout OutputBuffer) {
        out.append("{\"class\":\"EVENT\",\"mono_ns\":"); out.append(int: e.timeNanoseconds)
        out.append(UInt8(ascii: ","))
        TrackingJSON.appendEventFields(e.event, to: &out)
        out.append("}\r\n")
    }

    static func bool(_ v: Bool, _ out: inout OutputBuffer) { out.append(v ? "true" : "false") }
}
