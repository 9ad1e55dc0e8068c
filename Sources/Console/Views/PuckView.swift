import Tracking

/// The `puck` view: `PuckState` as the map draws it (coordinates in degrees, sizes in points, angles
/// in degrees, accuracy in metres). JSON reuses `TrackingJSON.appendPuck`. Allocation-free.
public enum PuckView {
    /// Text, one field per line.
    public static func appendText(_ tracking: ConsoleTrackingSnapshot?, to out: inout OutputBuffer) {
        guard let t = tracking else {
            out.append("puck: the tracking core is not running yet\n")
            return
        }
        let p = t.puck
        RenderFormat.label("visible", to: &out); RenderFormat.yesNo(p.isVisible, to: &out)
        out.append(", showsUserLocation "); RenderFormat.onOff(t.showsUserLocation, to: &out)
        out.append("\nlocation      ")
        if p.hasLocation {
            RenderFormat.position(latitude: p.coordinate.latitudeDegrees, longitude: p.coordinate.longitudeDegrees, to: &out)
        } else {
            out.append("none yet")
        }
        out.append("\nscreen point  "); out.append(p.screenPoint.xPoints, decimals: 1); out.append(", ")
        out.append(p.screenPoint.yPoints, decimals: 1); out.append(" points")
        if p.isPinnedToAnchor { out.append(" (pinned to the anchor)") }
        out.append("\naccuracy      ")
        if p.horizontalAccuracyMeters >= 0 {
            out.append("\u{00B1}"); out.append(p.horizontalAccuracyMeters, decimals: 2); out.append(" m")
        } else {
            out.append(UInt8(ascii: "-"))
        }
        out.append("\nbearing       "); RenderFormat.degrees(p.bearingDegrees, to: &out)
        out.append(" from "); out.append(TrackingNames.name(p.bearingSource))
        out.append(", on screen "); RenderFormat.degrees(p.bearingOnScreenDegrees, to: &out)
        out.append("\nstyle         "); out.append(TrackingNames.name(p.style))
        out.append(", heading indicator "); out.append(TrackingNames.name(p.headingIndicator))
        if p.headingIndicator == .fan { out.append(UInt8(ascii: " ")); RenderFormat.degrees(p.headingFanWidthDegrees, decimals: 0, to: &out) }
        out.append("\naccuracy ring "); out.append(p.accuracyRingDiameterPoints, decimals: 1); out.append(" points")
        out.append(p.accuracyRingVisible ? " (visible)" : " (hidden)")
        if p.style == .approximate {
            out.append(", border "); out.append(p.approximateBorderWidthPoints, decimals: 1); out.append(" points")
        }
        out.append("\nhalo          ")
        if p.haloVisible {
            out.append(p.haloDiameterPoints, decimals: 1); out.append(" points, scale ")
            out.append(p.haloScale, decimals: 2); out.append(", opacity "); out.append(p.haloOpacity, decimals: 2)
            out.append(", phase "); out.append(p.pulsePhase, decimals: 2)
        } else {
            out.append("hidden")
        }
        out.append("\ndot breath    scale "); out.append(p.dotBreathScale, decimals: 2)
        out.append(", opacity "); out.append(p.dotBreathOpacity, decimals: 2)
        if p.style == .course {
            out.append("\nshadow        offset "); out.append(p.shadowOffsetPoints, decimals: 2)
            out.append(" points, radius "); out.append(p.shadowRadiusPoints, decimals: 2); out.append(" points")
        }
        out.append("\nflags         "); out.append(p.isStale ? "stale" : "fresh")
        out.append(p.isReducedAccuracy ? ", reduced accuracy" : ", full accuracy")
        out.append("\ntick          "); RenderFormat.seconds(nanoseconds: p.timeNanoseconds, decimals: 3, to: &out)
        out.append(UInt8(ascii: "\n"))
    }

    /// `{"reply":"puck","showsUserLocation":…,"puck":{…}|null}`.
    public static func appendJSON(_ tracking: ConsoleTrackingSnapshot?, to out: inout OutputBuffer) {
        var o = JSONWriter.begin(&out)
        o.string("reply", "puck", &out)
        if let t = tracking {
            o.bool("showsUserLocation", t.showsUserLocation, &out)
            o.key("puck", &out)
            TrackingJSON.appendPuck(t.puck, includeStyle: false, to: &out)
        } else {
            o.null("showsUserLocation", &out)
            o.null("puck", &out)
        }
        o.end(&out)
    }
}
