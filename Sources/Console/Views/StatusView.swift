import NMEA
import Heading
import Tracking

/// The `status` view: one screen (at most ~20 lines) with the fix, satellites, heading and its
/// source, tracking mode, viewport, camera, puck, authorization, sources, faults and uptime.
/// Allocation-free; the view `watch status` redraws.
public enum StatusView {
    /// Text.
    public static func appendText(_ state: borrowing ConsoleState, to out: inout OutputBuffer) {
        out.append("puckd "); out.append(state.device.version)
        if !state.device.board.isEmpty { out.append(", board "); out.append(text: state.device.board) }
        out.append(", up "); RenderFormat.duration(nanoseconds: state.device.uptimeNanoseconds, to: &out)
        out.append("\nfix           ")
        if let fix = state.fix {
            out.append(FixSummary.modeName(fix.mode)); out.append(UInt8(ascii: " ")); out.append(FixSummary.qualityName(fix.quality))
            if let lat = fix.latitudeDegrees, let lon = fix.longitudeDegrees, fix.hasPosition {
                out.append("  "); RenderFormat.position(latitude: lat, longitude: lon, to: &out)
            }
            if let h = fix.horizontalAccuracyMeters {
                out.append("  \u{00B1}"); out.append(h, decimals: 1); out.append(" m ("); out.append(GPSView.accuracySourceName(fix.accuracySource))
                out.append(")")
            }
            if let received = state.device.fixReceivedNanoseconds {
                out.append("  age "); RenderFormat.seconds(nanoseconds: state.device.nowNanoseconds &- received, decimals: 1, to: &out)
            }
            out.append("\ntime          ")
            if let utc = fix.utcNanoseconds { out.append(isoTime: utc, fractionDigits: 1) } else { out.append("date unknown") }
            out.append("\nmotion        "); RenderFormat.quantity(fix.speedMetersPerSecond, decimals: 2, unit: "m/s", to: &out)
            out.append(", course "); RenderFormat.degrees(fix.courseDegrees, to: &out)
            out.append(", alt "); RenderFormat.quantity(fix.altitudeMSLMeters, decimals: 1, unit: "m", to: &out)
        } else {
            out.append("none yet")
        }
        out.append("\nsatellites    ")
        appendSatellites(state.skyView, fix: state.fix, to: &out)
        out.append("\nreceiver      ")
        ReceiverView.appendSummary(state.receiver, to: &out)
        out.append("\nheading       ")
        if let h = state.heading {
            if let t = h.trueHeadingDegrees { RenderFormat.degrees(t, to: &out); out.append(" true, ") }
            RenderFormat.degrees(h.magneticHeadingDegrees, to: &out); out.append(" magnetic, ")
            if let accuracy = h.headingAccuracyDegrees {
                out.append("\u{00B1}"); RenderFormat.degrees(accuracy, to: &out)
            } else {
                out.append("invalid")
            }
            out.append(", "); out.append(h.calibrationState.name)
        } else {
            out.append("no IMU heading")
        }
        out.append("\nbearing       ")
        if let t = state.tracking {
            HeadingView.appendBearing(t.bearing, to: &out)
            out.append("\nmode          "); out.append(t.camera.trackingMode.name)
            out.append(" ("); out.append(TrackingNames.name(t.camera.trackingState)); out.append("), showsUserLocation ")
            RenderFormat.onOff(t.showsUserLocation, to: &out)
            out.append("\nviewport      "); CameraView.appendViewport(t.camera, to: &out)
            out.append("\ncamera        zoom "); out.append(t.camera.zoom, decimals: 2)
            out.append(", bearing "); RenderFormat.degrees(t.camera.bearingDegrees, to: &out)
            out.append(" ("); out.append(TrackingNames.name(t.camera.bearingSource)); out.append(")")
            out.append(", pitch "); RenderFormat.degrees(t.camera.pitchDegrees, to: &out)
            out.append("\npuck          "); out.append(t.puck.isVisible ? "visible, " : "hidden, ")
            out.append(TrackingNames.name(t.puck.style))
            if t.puck.horizontalAccuracyMeters >= 0 {
                out.append(", \u{00B1}"); out.append(t.puck.horizontalAccuracyMeters, decimals: 1); out.append(" m")
            }
            out.append(t.puck.isStale ? ", stale" : ", fresh")
            out.append("\nauthorization "); out.append(TrackingNames.name(t.authorizationStatus))
            out.append(", accuracy "); out.append(TrackingNames.name(t.accuracy))
        } else {
            out.append("-\nmode          tracking core not running")
        }
        out.append("\nsources       ")
        if state.device.sources.count == 0 { out.append("none reported") }
        var i = 0
        while i < state.device.sources.count {
            if i > 0 { out.append("\n              ") }
            let s = state.device.sources[i]
            out.append(s.name); out.append(": "); out.append(text: s.description)
            out.append(" ("); out.append(s.state); out.append(")")
            i += 1
        }
        out.append("\nfaults        ")
        if state.device.faults.count == 0 { out.append("none") }
        i = 0
        while i < state.device.faults.count {
            if i > 0 { out.append("\n              ") }
            out.append(state.device.faults[i].source); out.append(": "); out.append(text: state.device.faults[i].reason)
            i += 1
        }
        if state.device.faults.overflow > 0 { out.append("\n              (+"); out.append(int: state.device.faults.overflow); out.append(" more)") }
        out.append(UInt8(ascii: "\n"))
    }

    /// `14 used / 31 in view (GPS 9/12, GLONASS 5/10)`: per constellation, used/listed signals.
    static func appendSatellites(_ sky: borrowing SkyView, fix: Fix?, to out: inout OutputBuffer) {
        let (used, inView) = satelliteCounts(sky, fix: fix)
        RenderFormat.optional(used, to: &out); out.append(" used / "); RenderFormat.optional(inView, to: &out)
        out.append(" in view")
        guard sky.count > 0 else { return }
        out.append(" (")
        let table = SatelliteTable(sky)
        var first = true
        var c = 0
        while c < SatellitesView.order.count {
            let constellation = SatellitesView.order[c]
            let signals = table.signals[c], usedSignals = table.used[c]
            c += 1
            if signals == 0 { continue }
            if !first { out.append(", ") }
            first = false
            out.append(constellation.name); out.append(UInt8(ascii: " "))
            out.append(int: usedSignals); out.append(UInt8(ascii: "/")); out.append(int: signals)
        }
        out.append(")")
    }

    /// Satellites used (the fix's count, else the sky view's) and in view (the sky view's distinct
    /// count, else the fix's).
    static func satelliteCounts(_ sky: borrowing SkyView, fix: Fix?) -> (used: Int?, inView: Int?) {
        var used = fix?.satellitesUsed
        var inView = fix?.satellitesInView
        if sky.count > 0 {
            if used == nil { used = sky.usedSatellites }
            inView = sky.distinctSatellites
        }
        return (used, inView)
    }

    /// One JSON object with the same content (field names with units).
    public static func appendJSON(_ state: borrowing ConsoleState, to out: inout OutputBuffer) {
        var o = JSONWriter.begin(&out)
        o.string("reply", "status", &out)
        o.string("version", state.device.version, &out)
        o.text("board", state.device.board, &out)
        o.number("uptimeSeconds", Double(state.device.uptimeNanoseconds) / 1e9, decimals: 3, &out)
        o.key("fix", &out)
        if let fix = state.fix {
            var g = JSONWriter.begin(&out)
            g.string("mode", FixSummary.modeName(fix.mode), &out)
            g.string("quality", FixSummary.qualityName(fix.quality), &out)
            g.number("latitudeDegrees", fix.hasPosition ? fix.latitudeDegrees : nil, decimals: 9, &out)
            g.number("longitudeDegrees", fix.hasPosition ? fix.longitudeDegrees : nil, decimals: 9, &out)
            g.number("horizontalAccuracyMeters", fix.horizontalAccuracyMeters, decimals: 3, &out)
            g.string("accuracySource", GPSView.accuracySourceName(fix.accuracySource), &out)
            var age: Double?
            if let received = state.device.fixReceivedNanoseconds { age = Double(state.device.nowNanoseconds &- received) / 1e9 }
            g.number("ageSeconds", age, decimals: 3, &out)
            g.integer("utcNanoseconds", fix.utcNanoseconds, &out)
            g.number("speedMetersPerSecond", fix.speedMetersPerSecond, decimals: 3, &out)
            g.number("courseDegrees", fix.courseDegrees, decimals: 2, &out)
            g.number("altitudeMSLMeters", fix.altitudeMSLMeters, decimals: 2, &out)
            g.end(&out)
        } else {
            out.append("null")
        }
        let (used, inView) = satelliteCounts(state.skyView, fix: state.fix)
        o.integer("satellitesUsed", used, &out)
        o.integer("satellitesInView", inView, &out)
        o.key("receiver", &out)
        ReceiverView.appendJSON(state.receiver, to: &out)
        o.key("heading", &out)
        if let h = state.heading {
            var g = JSONWriter.begin(&out)
            g.number("trueHeadingDegrees", h.trueHeadingDegrees, decimals: 2, &out)
            g.number("magneticHeadingDegrees", h.magneticHeadingDegrees, decimals: 2, &out)
            g.number("headingAccuracyDegrees", h.headingAccuracyDegrees, decimals: 2, &out)
            g.string("calibrationState", h.calibrationState.name, &out)
            g.end(&out)
        } else {
            out.append("null")
        }
        if let t = state.tracking {
            o.key("bearing", &out); HeadingView.appendBearingJSON(t.bearing, to: &out)
            o.string("trackingMode", t.camera.trackingMode.name, &out)
            o.string("trackingState", TrackingNames.name(t.camera.trackingState), &out)
            o.bool("showsUserLocation", t.showsUserLocation, &out)
            o.key("viewport", &out)
            out.append(UInt8(ascii: "{"))
            TrackingJSON.appendViewportStatus(t.camera.viewportStatus, to: &out)
            out.append(UInt8(ascii: "}"))
            o.number("zoom", t.camera.zoom, decimals: 4, &out)
            o.number("cameraBearingDegrees", t.camera.bearingDegrees, decimals: 2, &out)
            o.string("cameraBearingSource", TrackingNames.name(t.camera.bearingSource), &out)
            o.number("pitchDegrees", t.camera.pitchDegrees, decimals: 2, &out)
            o.bool("puckVisible", t.puck.isVisible, &out)
            o.string("puckStyle", TrackingNames.name(t.puck.style), &out)
            o.bool("puckStale", t.puck.isStale, &out)
            o.string("authorization", TrackingNames.name(t.authorizationStatus), &out)
            o.string("accuracy", TrackingNames.name(t.accuracy), &out)
        } else {
            o.null("trackingMode", &out)
        }
        o.key("sources", &out)
        out.append(UInt8(ascii: "["))
        var i = 0
        while i < state.device.sources.count {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            let s = state.device.sources[i]
            var g = JSONWriter.begin(&out)
            g.string("name", s.name, &out)
            g.text("description", s.description, &out)
            g.string("state", s.state, &out)
            g.bool("isHealthy", s.isHealthy, &out)
            g.end(&out)
            i += 1
        }
        out.append("]")
        o.key("faults", &out)
        out.append(UInt8(ascii: "["))
        i = 0
        while i < state.device.faults.count {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            var g = JSONWriter.begin(&out)
            g.string("source", state.device.faults[i].source, &out)
            g.text("reason", state.device.faults[i].reason, &out)
            g.end(&out)
            i += 1
        }
        out.append("]")
        o.end(&out)
    }
}
