import Console
import Tracking

/// The JSON lines `puckd scenario` writes (names fixed so scripts can rely on them; docs/scenarios.md):
///
/// `{"t":S,"camera":{"lat","lon","zoom","bearing","pitch","padding":[top,left,bottom,right]},
/// "puck":{"visible","x","y","ring","ringVisible","halo","bearing","bearingSource","style","stale",
/// "approximate"},"viewport":"idle|followPuck|overview|transition","mode":NAME}` per tick, and
/// `{"t":S,"event":NAME,…}` per tracking event (and `"input"` with its `line` per scenario input).
/// The puck's `x`, `y` (points from the view's top left) are null until it has a location.
/// Fixed decimals (t 4, coordinates 7, zoom 4, angles 2, points 1; the ring diameter is a whole
/// number of points), so equal runs give equal bytes. Allocation-free.
public enum ScenarioOutput {
    /// One tick line + newline.
    public static func appendTick(camera c: CameraState, puck p: PuckState, to out: inout OutputBuffer) {
        out.append("{\"t\":"); seconds(c.timeNanoseconds, &out)
        out.append(",\"camera\":{\"lat\":"); out.append(jsonNumber: c.center.latitudeDegrees, decimals: 7)
        out.append(",\"lon\":"); out.append(jsonNumber: c.center.longitudeDegrees, decimals: 7)
        out.append(",\"zoom\":"); out.append(jsonNumber: c.zoom, decimals: 4)
        out.append(",\"bearing\":"); out.append(jsonNumber: c.bearingDegrees, decimals: 2)
        out.append(",\"pitch\":"); out.append(jsonNumber: c.pitchDegrees, decimals: 2)
        out.append(",\"padding\":["); out.append(jsonNumber: c.padding.topPoints, decimals: 1)
        out.append(UInt8(ascii: ",")); out.append(jsonNumber: c.padding.leftPoints, decimals: 1)
        out.append(UInt8(ascii: ",")); out.append(jsonNumber: c.padding.bottomPoints, decimals: 1)
        out.append(UInt8(ascii: ",")); out.append(jsonNumber: c.padding.rightPoints, decimals: 1)
        out.append("]},\"puck\":{\"visible\":"); bool(p.isVisible, &out)
        if p.hasLocation {
            out.append(",\"x\":"); out.append(jsonNumber: p.screenPoint.xPoints, decimals: 1)
            out.append(",\"y\":"); out.append(jsonNumber: p.screenPoint.yPoints, decimals: 1)
        } else {
            out.append(",\"x\":null,\"y\":null")
        }
        out.append(",\"ring\":"); out.append(jsonNumber: p.accuracyRingDiameterPoints, decimals: 0)
        out.append(",\"ringVisible\":"); bool(p.accuracyRingVisible, &out)
        out.append(",\"halo\":"); bool(p.haloVisible, &out)
        out.append(",\"bearing\":")
        if let b = p.bearingDegrees { out.append(jsonNumber: b, decimals: 2) } else { out.append("null") }
        out.append(",\"bearingSource\":\""); out.append(TrackingNames.name(p.bearingSource))
        out.append("\",\"style\":\""); out.append(TrackingNames.name(p.style))
        out.append("\",\"stale\":"); bool(p.isStale, &out)
        out.append(",\"approximate\":"); bool(p.isReducedAccuracy, &out)
        out.append("},\"viewport\":\"")
        switch c.viewportStatus {
        case .idle: out.append("idle")
        case .state(let k): out.append(TrackingNames.name(k))
        case .transition: out.append("transition")
        }
        out.append("\",\"mode\":\""); out.append(c.trackingMode.name)
        out.append("\"}\n")
    }

    /// One tracking-event line + newline.
    public static func appendEvent(_ e: TimedTrackingEvent, to out: inout OutputBuffer) {
        out.append("{\"t\":"); seconds(e.timeNanoseconds, &out)
        out.append(UInt8(ascii: ","))
        TrackingJSON.appendEventFields(e.event, to: &out)
        out.append("}\n")
    }

    /// `{"t":S,"event":"input","line":N}` + newline: the scenario line applied at S.
    public static func appendInput(timeNanoseconds: Int64, line: Int, to out: inout OutputBuffer) {
        out.append("{\"t\":"); seconds(timeNanoseconds, &out)
        out.append(",\"event\":\"input\",\"line\":"); out.append(int: line)
        out.append("}\n")
    }

    private static func seconds(_ nanoseconds: Int64, _ out: inout OutputBuffer) {
        out.append(jsonNumber: Double(nanoseconds) / 1e9, decimals: 4)
    }

    private static func bool(_ v: Bool, _ out: inout OutputBuffer) { out.append(v ? "true" : "false") }
}
