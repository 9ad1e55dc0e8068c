import Tracking

/// Human-readable rendering of the tracking outputs for the serial console and `puckd replay`
/// without `--json`: one line per tick, one per event. Allocation-free (`OutputBuffer`).
///
/// Tick line, e.g.:
/// `t=12.350s puck 52.521900000,13.413200000 ±5.00m @400,240 pinned dot brg 45.0° imuHeading ring 69pt
/// halo | cam 52.521900000,13.413200000 z16.3500 brg 45.0° imuHeading pitch 45.0° followWithHeading/changed
/// viewport idle` (the camera's bearing is followed by what turned the map).
public enum TrackingText {
    /// One tick line + newline.
    public static func appendLine(puck p: PuckState, camera c: CameraState, to out: inout OutputBuffer) {
        out.append("t=")
        out.append(Double(c.timeNanoseconds) / 1e9, decimals: 3)
        out.append("s puck ")
        if p.hasLocation {
            out.append(p.coordinate.latitudeDegrees, decimals: 9)
            out.append(UInt8(ascii: ","))
            out.append(p.coordinate.longitudeDegrees, decimals: 9)
            if p.horizontalAccuracyMeters >= 0 {
                out.append(" ±"); out.append(p.horizontalAccuracyMeters, decimals: 2); out.append("m")
            }
            out.append(" @")
            out.append(p.screenPoint.xPoints, decimals: 0)
            out.append(UInt8(ascii: ","))
            out.append(p.screenPoint.yPoints, decimals: 0)
            if p.isPinnedToAnchor { out.append(" pinned") }
            if !p.isVisible { out.append(" hidden") }
        } else {
            out.append("none")
        }
        out.append(" ")
        out.append(TrackingNames.name(p.style))
        if let b = p.bearingDegrees {
            out.append(" brg "); out.append(b, decimals: 1); out.append("° ")
            out.append(TrackingNames.name(p.bearingSource))
        }
        if p.headingIndicator == .fan { out.append(" fan "); out.append(p.headingFanWidthDegrees, decimals: 0); out.append("°") }
        if p.accuracyRingVisible { out.append(" ring "); out.append(p.accuracyRingDiameterPoints, decimals: 1); out.append("pt") }
        if p.haloVisible { out.append(" halo") }
        if p.isStale { out.append(" stale") }
        if p.isReducedAccuracy { out.append(" reduced") }
        out.append(" | cam ")
        out.append(c.center.latitudeDegrees, decimals: 9)
        out.append(UInt8(ascii: ","))
        out.append(c.center.longitudeDegrees, decimals: 9)
        out.append(" z"); out.append(c.zoom, decimals: 4)
        out.append(" brg "); out.append(c.bearingDegrees, decimals: 1)
        out.append("° "); out.append(TrackingNames.name(c.bearingSource))
        out.append(" pitch "); out.append(c.pitchDegrees, decimals: 1)
        out.append("° "); out.append(c.trackingMode.name)
        out.append(UInt8(ascii: "/")); out.append(TrackingNames.name(c.trackingState))
        out.append(" viewport ")
        switch c.viewportStatus {
        case .idle: out.append(ViewportStatus.idleWord)
        case .state(let k): out.append(TrackingNames.name(k))
        case .transition(let kind, let k):
            out.append(TrackingNames.name(kind)); out.append("→"); out.append(TrackingNames.name(k))
            out.append(" "); out.append(c.viewportTransitionProgress * 100, decimals: 0); out.append("%")
        }
        if c.isAnimating { out.append(" animating "); out.append(c.animationProgress * 100, decimals: 0); out.append("%") }
        out.append(UInt8(ascii: "\n"))
    }

    /// One event line + newline, e.g. `t=3.000s event didChangeTrackingMode follow animated`.
    public static func appendEvent(_ e: TimedTrackingEvent, to out: inout OutputBuffer) {
        out.append("t=")
        out.append(Double(e.timeNanoseconds) / 1e9, decimals: 3)
        out.append("s event ")
        switch e.event {
        case .willStartLocatingUser: out.append("willStartLocatingUser")
        case .didStopLocatingUser: out.append("didStopLocatingUser")
        case .didUpdateUserLocation: out.append("didUpdateUserLocation")
        case .didFailToLocateUser(let r): out.append("didFailToLocateUser "); out.append(TrackingNames.name(r))
        case .didChangeTrackingMode(let m, let animated):
            out.append("didChangeTrackingMode "); out.append(m.name); out.append(animated ? " animated" : " immediate")
        case .didChangeAuthorization(let s, let a):
            out.append("didChangeAuthorization "); out.append(TrackingNames.name(s)); out.append(" ")
            out.append(TrackingNames.name(a))
        case .completed(let token, let success):
            out.append("completed #"); out.append(uint: UInt64(token.rawValue)); out.append(success ? " ok" : " interrupted")
        case .didChangeViewportStatus(let s, let reason):
            out.append("didChangeViewportStatus ")
            switch s {
            case .idle: out.append(ViewportStatus.idleWord)
            case .state(let k): out.append(TrackingNames.name(k))
            case .transition(let kind, let k):
                out.append(TrackingNames.name(kind)); out.append("→"); out.append(TrackingNames.name(k))
            }
            out.append(" "); out.append(TrackingNames.name(reason))
        }
        out.append(UInt8(ascii: "\n"))
    }
}
