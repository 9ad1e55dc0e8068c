import Tracking

/// The `camera` view: `CameraState` (centre in degrees, zoom in 512-pt tiles, bearing and pitch in
/// degrees, padding in points) and the viewport. JSON reuses `TrackingJSON.appendCamera`.
public enum CameraView {
    /// Text, one field per line.
    public static func appendText(_ tracking: ConsoleTrackingSnapshot?, to out: inout OutputBuffer) {
        guard let t = tracking else {
            out.append("camera: the tracking core is not running yet\n")
            return
        }
        let c = t.camera
        RenderFormat.label("center", to: &out)
        RenderFormat.position(latitude: c.center.latitudeDegrees, longitude: c.center.longitudeDegrees, to: &out)
        out.append("\nzoom          "); out.append(c.zoom, decimals: 2)
        out.append(" ("); out.append(c.metersPerPoint, decimals: 3); out.append(" m per point)")
        out.append("\nbearing       "); RenderFormat.degrees(c.bearingDegrees, to: &out)
        out.append(" true, turned by "); out.append(TrackingNames.name(c.bearingSource))
        out.append("\npitch         "); RenderFormat.degrees(c.pitchDegrees, to: &out)
        out.append("\npadding       top "); out.append(c.padding.topPoints, decimals: 0)
        out.append(", left "); out.append(c.padding.leftPoints, decimals: 0)
        out.append(", bottom "); out.append(c.padding.bottomPoints, decimals: 0)
        out.append(", right "); out.append(c.padding.rightPoints, decimals: 0); out.append(" points")
        out.append("\nanchor        "); out.append(c.anchor.xPoints, decimals: 1); out.append(", ")
        out.append(c.anchor.yPoints, decimals: 1); out.append(" points")
        out.append("\nmode          "); out.append(c.trackingMode.name)
        out.append(" ("); out.append(TrackingNames.name(c.trackingState)); out.append(")")
        out.append("\nviewport      "); appendViewport(c, to: &out)
        out.append("\nanimation     ")
        if c.isAnimating {
            out.append("running, "); RenderFormat.percent(c.animationProgress, to: &out)
        } else {
            out.append("none")
        }
        out.append(UInt8(ascii: "\n"))
    }

    /// `idle`, `followPuck`, or `default→overview 40 %`.
    public static func appendViewport(_ c: CameraState, to out: inout OutputBuffer) {
        switch c.viewportStatus {
        case .idle: out.append(ViewportStatus.idleWord)
        case .state(let k): out.append(TrackingNames.name(k))
        case .transition(let kind, let k):
            out.append(TrackingNames.name(kind)); out.append(" transition to "); out.append(TrackingNames.name(k))
            out.append(", "); RenderFormat.percent(c.viewportTransitionProgress, to: &out)
        }
    }

    /// `{"reply":"camera","camera":{…}|null}`.
    public static func appendJSON(_ tracking: ConsoleTrackingSnapshot?, to out: inout OutputBuffer) {
        var o = JSONWriter.begin(&out)
        o.string("reply", "camera", &out)
        o.key("camera", &out)
        if let t = tracking { TrackingJSON.appendCamera(t.camera, to: &out) } else { out.append("null") }
        o.end(&out)
    }
}
