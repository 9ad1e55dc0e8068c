import Heading
import Tracking

/// The `heading` view: the IMU `HeadingEstimate` (magnetic/true heading, declination, accuracy,
/// roll, pitch, degrees), the magnetometer calibration state, the stored calibration and a running
/// calibration's coverage, and the bearing the tracking core uses. Allocation-free.
public enum HeadingView {
    /// Text, one field per line.
    public static func appendText(_ heading: HeadingEstimate?, calibration: MagnetometerCalibration?,
                                  bearing: BearingSelection?, device: borrowing ConsoleDeviceState,
                                  to out: inout OutputBuffer) {
        if let h = heading {
            RenderFormat.label("magnetic", to: &out); RenderFormat.degrees(h.magneticHeadingDegrees, to: &out)
            out.append("\ntrue          "); RenderFormat.degrees(h.trueHeadingDegrees, to: &out)
            out.append("\ndeclination   "); RenderFormat.degrees(h.declinationDegrees, to: &out)
            out.append(" east (WMM2025)\naccuracy      ")
            if let accuracy = h.headingAccuracyDegrees {
                out.append("\u{00B1}"); RenderFormat.degrees(accuracy, to: &out)
            } else {
                out.append("invalid (no absolute reference yet)")
            }
            out.append("\nroll          "); RenderFormat.degrees(h.rollDegrees, to: &out)
            out.append(" (right side down positive)\npitch         "); RenderFormat.degrees(h.pitchDegrees, to: &out)
            out.append(" (nose up positive)\ncalibration   "); out.append(h.calibrationState.name)
            out.append(h.calibrationNeeded ? ", calibration needed (calibrate mag)" : ", no calibration needed")
            out.append("\nmagnetometer  "); out.append(decisionName(h.magnetometer))
            out.append("\nsample age    ")
            RenderFormat.seconds(nanoseconds: device.nowNanoseconds &- h.timestampNanoseconds, decimals: 2, to: &out)
            out.append(UInt8(ascii: "\n"))
        } else {
            out.append("heading: no IMU heading (no IMU, or not running yet; see status for faults)\n")
        }
        RenderFormat.label("stored cal", to: &out)
        if let c = calibration {
            out.append("coverage "); RenderFormat.percent(c.coverageFraction, to: &out)
            out.append(", field "); out.append(c.fieldMicrotesla, decimals: 1); out.append(" \u{00B5}T, ")
            out.append(int: c.sampleCount); out.append(" samples, residual "); RenderFormat.percent(c.residualFraction, to: &out)
            if let utc = c.utcNanoseconds { out.append(", made "); out.append(isoTime: utc, fractionDigits: 0) }
        } else {
            out.append("none")
        }
        out.append("\nrunning       ")
        appendActivity(device.calibration, to: &out)
        if !device.lastCalibrationResult.isEmpty {
            out.append("\nlast result   "); out.append(text: device.lastCalibrationResult)
        }
        out.append("\nbearing used  ")
        appendBearing(bearing, to: &out)
        out.append(UInt8(ascii: "\n"))
    }

    /// `{"reply":"heading","heading":{…}|null,"storedCalibration":{…}|null,"calibrationActivity":{…},
    /// "lastCalibrationResult":…,"bearing":{…}|null}`.
    public static func appendJSON(_ heading: HeadingEstimate?, calibration: MagnetometerCalibration?,
                                  bearing: BearingSelection?, device: borrowing ConsoleDeviceState,
                                  to out: inout OutputBuffer) {
        var o = JSONWriter.begin(&out)
        o.string("reply", "heading", &out)
        o.key("heading", &out)
        if let h = heading {
            var g = JSONWriter.begin(&out)
            g.number("magneticHeadingDegrees", h.magneticHeadingDegrees, decimals: 2, &out)
            g.number("trueHeadingDegrees", h.trueHeadingDegrees, decimals: 2, &out)
            g.number("declinationDegrees", h.declinationDegrees, decimals: 2, &out)
            g.number("headingAccuracyDegrees", h.headingAccuracyDegrees, decimals: 2, &out)
            g.bool("isValid", h.isValid, &out)
            g.number("rollDegrees", h.rollDegrees, decimals: 2, &out)
            g.number("pitchDegrees", h.pitchDegrees, decimals: 2, &out)
            g.string("calibrationState", h.calibrationState.name, &out)
            g.bool("calibrationNeeded", h.calibrationNeeded, &out)
            g.string("magnetometer", decisionName(h.magnetometer), &out)
            g.number("sampleAgeSeconds", Double(device.nowNanoseconds &- h.timestampNanoseconds) / 1e9, decimals: 3, &out)
            g.end(&out)
        } else {
            out.append("null")
        }
        o.key("storedCalibration", &out)
        if let c = calibration {
            var g = JSONWriter.begin(&out)
            g.number("coverageFraction", c.coverageFraction, decimals: 3, &out)
            g.number("fieldMicrotesla", c.fieldMicrotesla, decimals: 2, &out)
            g.integer("sampleCount", c.sampleCount, &out)
            g.number("residualFraction", c.residualFraction, decimals: 4, &out)
            g.integer("utcNanoseconds", c.utcNanoseconds, &out)
            g.end(&out)
        } else {
            out.append("null")
        }
        o.key("calibrationActivity", &out)
        appendActivityJSON(device.calibration, to: &out)
        o.text("lastCalibrationResult", device.lastCalibrationResult, &out)
        o.key("bearing", &out)
        appendBearingJSON(bearing, to: &out)
        o.end(&out)
    }

    /// `none`, `magnetometer run: coverage 34 %, 120 samples, 12.0 s`, `gyroscope bias: still 1.2 of 2.0 s`.
    public static func appendActivity(_ activity: ConsoleCalibrationActivity, to out: inout OutputBuffer) {
        switch activity {
        case .idle:
            out.append("none")
        case .magnetometer(let coverage, let samples, let elapsed):
            out.append("magnetometer run: coverage "); RenderFormat.percent(coverage, to: &out)
            out.append(" (need 50 %), "); out.append(int: samples); out.append(" samples, ")
            RenderFormat.seconds(nanoseconds: elapsed, to: &out)
        case .gyroscope(let still, let required):
            out.append("gyroscope bias: still "); out.append(still, decimals: 1); out.append(" of ")
            out.append(required, decimals: 1); out.append(" s (keep the board still)")
        }
    }

    /// `{"activity":"idle|magnetometer|gyroscope",…}`.
    public static func appendActivityJSON(_ activity: ConsoleCalibrationActivity, to out: inout OutputBuffer) {
        var g = JSONWriter.begin(&out)
        switch activity {
        case .idle:
            g.string("activity", "idle", &out)
        case .magnetometer(let coverage, let samples, let elapsed):
            g.string("activity", "magnetometer", &out)
            g.number("coverageFraction", coverage, decimals: 3, &out)
            g.integer("samples", samples, &out)
            g.number("elapsedSeconds", Double(elapsed) / 1e9, decimals: 2, &out)
        case .gyroscope(let still, let required):
            g.string("activity", "gyroscope", &out)
            g.number("stillSeconds", still, decimals: 2, &out)
            g.number("requiredSeconds", required, decimals: 2, &out)
        }
        g.end(&out)
    }

    /// `imuHeading 271.3° ±4.0°` or `none`.
    public static func appendBearing(_ bearing: BearingSelection?, to out: inout OutputBuffer) {
        guard let b = bearing else { out.append("none"); return }
        out.append(TrackingNames.name(b.source)); out.append(UInt8(ascii: " "))
        RenderFormat.degrees(b.degrees, to: &out)
        out.append(" \u{00B1}"); RenderFormat.degrees(b.accuracyDegrees, to: &out)
    }

    /// `{"source":…,"degrees":…,"accuracyDegrees":…}` or `null`.
    public static func appendBearingJSON(_ bearing: BearingSelection?, to out: inout OutputBuffer) {
        guard let b = bearing else { out.append("null"); return }
        var g = JSONWriter.begin(&out)
        g.string("source", TrackingNames.name(b.source), &out)
        g.number("degrees", b.degrees, decimals: 2, &out)
        g.number("accuracyDegrees", b.accuracyDegrees, decimals: 2, &out)
        g.end(&out)
    }

    /// What the filter did with the last magnetometer reading.
    public static func decisionName(_ d: MagnetometerDecision) -> StaticString {
        switch d {
        case .accepted: "accepted"
        case .recovering: "recovering"
        case .rejectedField: "rejected (field disturbed)"
        case .rejectedInnovation: "rejected (heading jump)"
        case .absent: "absent"
        }
    }
}
