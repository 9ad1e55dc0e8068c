import Console
import Hardware
import NMEA
import Tracking

/// The live status line (one per `[console] status_interval_s` on standard output), the short systemd
/// STATUS=, and the LED report of the `leds` command. Rendered into fixed buffers, no allocation
/// (except the simulated LED history, a diagnostic).
extension Device {
    /// `status 12.3 s | fix 3D dgps 10 sats 41.5749660 -93.7505720 ±1.2 m 1.47 m/s | heading 125.3° imuHeading ±30.0°
    /// | mode follow | viewport idle | camera zoom 14.00 bearing 125.0° pitch 0° | puck shown | track seq 41 durable 38
    /// | faults none`
    func writeStatusLine(nowNanoseconds now: Int64) {
        output.raw { out in
            appendStatus(nowNanoseconds: now, to: &out)
            out.append(UInt8(ascii: "\n"))
        }
    }

    /// The status line's text without its newline.
    func appendStatus(nowNanoseconds now: Int64, to out: inout OutputBuffer) {
        out.append("status ")
        out.append(Double(now - startNanoseconds) / 1e9, decimals: 1)
        out.append(" s | fix ")
        switch fixIndicator(nowNanoseconds: now) {
        case .noFix: out.append(gpsLink.lastFixNanoseconds == nil ? "none yet" : "none")
        case .fix2D: out.append("2D")
        case .fix3D: out.append("3D")
        case .stale: out.append("stale")
        }
        if let fix = gpsLink.lastFix, fix.hasPosition, let lat = fix.latitudeDegrees, let lon = fix.longitudeDegrees {
            out.append(UInt8(ascii: " "))
            out.append(FixSummary.qualityName(fix.quality))
            if let used = fix.satellitesUsed {
                out.append(UInt8(ascii: " "))
                out.append(int: used)
                out.append(" sats")
            }
            out.append(UInt8(ascii: " "))
            out.append(lat, decimals: 7)
            out.append(UInt8(ascii: " "))
            out.append(lon, decimals: 7)
            if let accuracy = fix.horizontalAccuracyMeters {
                out.append(" ±")
                out.append(accuracy, decimals: 1)
                out.append(" m")
            }
            if let speed = fix.speedMetersPerSecond {
                out.append(UInt8(ascii: " "))
                out.append(speed, decimals: 2)
                out.append(" m/s")
            }
        }
        out.append(" | heading ")
        if let selection = core.currentBearingSelection {
            out.append(selection.degrees, decimals: 1)
            out.append("° ")
            out.append(TrackingNames.name(selection.source))
            out.append(" ±")
            out.append(selection.accuracyDegrees, decimals: 1)
            out.append("°")
        } else {
            out.append("none")
        }
        if imuLink.calibration.isRunning {
            out.append(" (calibrating ")
            out.append(imuLink.calibration.coverageFraction * 100, decimals: 0)
            out.append(" %)")
        }
        out.append(" | mode ")
        out.append(core.trackingMode.name)
        out.append(" | viewport ")
        appendViewport(core.camera.viewportStatus, to: &out)
        let camera = core.camera
        out.append(" | camera zoom ")
        out.append(camera.zoom, decimals: 2)
        out.append(" bearing ")
        out.append(camera.bearingDegrees, decimals: 1)
        out.append("° pitch ")
        out.append(camera.pitchDegrees, decimals: 0)
        out.append("° | puck ")
        let puck = core.puck
        out.append(puck.isVisible ? "shown" : "hidden")
        if puck.isStale { out.append(" stale") }
        trackRecorder.appendStatus(to: &out)
        out.append(" | faults ")
        Self.appendFaults(faults, to: &out)
    }

    func appendViewport(_ status: ViewportStatus, to out: inout OutputBuffer) {
        out.append(status.word)
    }

    /// STATUS= for systemd: fix, heading source, mode, faults.
    func sendSystemdStatus(nowNanoseconds now: Int64) {
        statusScratch.removeAll()
        statusScratch.append("fix ")
        switch fixIndicator(nowNanoseconds: now) {
        case .noFix: statusScratch.append("none")
        case .fix2D: statusScratch.append("2D")
        case .fix3D: statusScratch.append("3D")
        case .stale: statusScratch.append("stale")
        }
        statusScratch.append(", heading ")
        statusScratch.append(core.currentBearingSelection.map { TrackingNames.name($0.source) } ?? "none")
        statusScratch.append(", mode ")
        statusScratch.append(core.trackingMode.name)
        statusScratch.append(", faults ")
        Self.appendFaults(faults, to: &statusScratch)
        statusScratch.withBytes { notifier.status($0, nowNanoseconds: now) }
    }
}
