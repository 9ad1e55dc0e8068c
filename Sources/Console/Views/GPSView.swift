import NMEA

/// The `gps` view: every field of the last `Fix`, with units (degrees, metres, m/s, seconds).
/// Unknown values print as `-` (text) or `null` (JSON). Allocation-free.
public enum GPSView {
    /// Text, one field per line.
    public static func appendText(_ fix: Fix?, receivedNanoseconds: Int64?, nowNanoseconds: Int64,
                                  to out: inout OutputBuffer) {
        guard let fix else {
            out.append("gps: no fix received yet (check the GPS source with status)\n")
            return
        }
        RenderFormat.label("time", to: &out)
        if let utc = fix.utcNanoseconds {
            out.append(isoTime: utc, fractionDigits: 3)
        } else {
            out.append("date unknown, time of day ")
            out.append(Double(fix.timeOfDayNanoseconds) / 1e9, decimals: 3)
            out.append(" s")
        }
        if fix.isLeapSecond { out.append(" (leap second)") }
        if let received = receivedNanoseconds {
            out.append(", received ")
            RenderFormat.seconds(nanoseconds: nowNanoseconds &- received, decimals: 2, to: &out)
            out.append(" ago")
        }
        out.append("\nfix           "); out.append(FixSummary.modeName(fix.mode))
        out.append(", quality "); out.append(FixSummary.qualityName(fix.quality))
        out.append("\nposition      ")
        if let lat = fix.latitudeDegrees, let lon = fix.longitudeDegrees {
            RenderFormat.position(latitude: lat, longitude: lon, to: &out)
        } else {
            out.append(UInt8(ascii: "-"))
        }
        out.append("\naltitude      ")
        RenderFormat.quantity(fix.altitudeMSLMeters, decimals: 2, unit: "m MSL", to: &out)
        if fix.altitudeHeld { out.append(" (held from an earlier epoch)") }
        out.append(", "); RenderFormat.quantity(fix.altitudeEllipsoidMeters, decimals: 2, unit: "m ellipsoid", to: &out)
        out.append(", geoid separation "); RenderFormat.quantity(fix.geoidSeparationMeters, decimals: 2, unit: "m", to: &out)
        out.append("\nspeed         "); RenderFormat.quantity(fix.speedMetersPerSecond, decimals: 2, unit: "m/s", to: &out)
        if fix.speedAndCourseDerived { out.append(" (derived from positions)") }
        out.append("\ncourse        "); RenderFormat.degrees(fix.courseDegrees, to: &out)
        out.append(" true\ntrue heading  "); RenderFormat.degrees(fix.trueHeadingDegrees, to: &out)
        out.append(" (HDT/THS)\nmag variation "); RenderFormat.degrees(fix.magneticVariationDegrees, to: &out)
        out.append(" east\ndop           hdop "); RenderFormat.optional(fix.hdop, decimals: 2, to: &out)
        out.append("  vdop "); RenderFormat.optional(fix.vdop, decimals: 2, to: &out)
        out.append("  pdop "); RenderFormat.optional(fix.pdop, decimals: 2, to: &out)
        out.append("\naccuracy      horizontal ")
        RenderFormat.quantity(fix.horizontalAccuracyMeters, decimals: 2, unit: "m", to: &out)
        out.append(", vertical "); RenderFormat.quantity(fix.verticalAccuracyMeters, decimals: 2, unit: "m", to: &out)
        out.append(" (source "); out.append(accuracySourceName(fix.accuracySource)); out.append(")")
        out.append("\nerror ellipse ")
        if let e = fix.errorEllipse {
            out.append("major "); RenderFormat.quantity(e.semiMajorMeters, decimals: 2, unit: "m", to: &out)
            out.append(", minor "); RenderFormat.quantity(e.semiMinorMeters, decimals: 2, unit: "m", to: &out)
            out.append(", orientation "); RenderFormat.degrees(e.orientationDegrees, to: &out)
            out.append("\n              lat "); RenderFormat.quantity(e.latitudeSigmaMeters, decimals: 2, unit: "m", to: &out)
            out.append(", lon "); RenderFormat.quantity(e.longitudeSigmaMeters, decimals: 2, unit: "m", to: &out)
            out.append(", alt "); RenderFormat.quantity(e.altitudeSigmaMeters, decimals: 2, unit: "m", to: &out)
            out.append(", range rms "); RenderFormat.quantity(e.rangeRMSMeters, decimals: 2, unit: "m", to: &out)
            out.append(" (1 sigma)")
        } else {
            out.append("- (no GST)")
        }
        out.append("\nsatellites    "); RenderFormat.optional(fix.satellitesUsed, to: &out)
        out.append(" used / "); RenderFormat.optional(fix.satellitesInView, to: &out)
        out.append(" in view\ndifferential  age "); RenderFormat.quantity(fix.differentialAgeSeconds, decimals: 1, unit: "s", to: &out)
        out.append(", station "); RenderFormat.optional(fix.differentialStationID, to: &out)
        out.append(UInt8(ascii: "\n"))
    }

    /// `{"reply":"gps","ageSeconds":…,"receivedMonotonicNanoseconds":…,"fix":{…}|null}`: the age of
    /// the fix, and when the device applied it (CLOCK_MONOTONIC, the clock other programs on the board
    /// can compare with: `make bench` measures the latency from a receiver's last byte with it).
    public static func appendJSON(_ fix: Fix?, receivedNanoseconds: Int64?, nowNanoseconds: Int64,
                                  to out: inout OutputBuffer) {
        var o = JSONWriter.begin(&out)
        o.string("reply", "gps", &out)
        o.number("ageSeconds", receivedNanoseconds.map { Double(nowNanoseconds &- $0) / 1e9 }, decimals: 3, &out)
        o.integer("receivedMonotonicNanoseconds", receivedNanoseconds, &out)
        o.key("fix", &out)
        if let fix { appendFixObject(fix, to: &out) } else { out.append("null") }
        o.end(&out)
    }

    /// The fix as a JSON object (field names are `Fix`'s, with units).
    public static func appendFixObject(_ fix: Fix, to out: inout OutputBuffer) {
        var o = JSONWriter.begin(&out)
        o.key("utcTime", &out)
        if let utc = fix.utcNanoseconds {
            out.append(UInt8(ascii: "\"")); out.append(isoTime: utc, fractionDigits: 3); out.append(UInt8(ascii: "\""))
        } else {
            out.append("null")
        }
        o.integer("utcNanoseconds", fix.utcNanoseconds, &out)
        o.number("timeOfDaySeconds", Double(fix.timeOfDayNanoseconds) / 1e9, decimals: 3, &out)
        o.bool("isLeapSecond", fix.isLeapSecond, &out)
        o.string("mode", FixSummary.modeName(fix.mode), &out)
        o.string("quality", FixSummary.qualityName(fix.quality), &out)
        o.number("latitudeDegrees", fix.latitudeDegrees, decimals: 9, &out)
        o.number("longitudeDegrees", fix.longitudeDegrees, decimals: 9, &out)
        o.number("altitudeMSLMeters", fix.altitudeMSLMeters, decimals: 3, &out)
        o.bool("altitudeHeld", fix.altitudeHeld, &out)
        o.number("altitudeEllipsoidMeters", fix.altitudeEllipsoidMeters, decimals: 3, &out)
        o.number("geoidSeparationMeters", fix.geoidSeparationMeters, decimals: 3, &out)
        o.number("speedMetersPerSecond", fix.speedMetersPerSecond, decimals: 3, &out)
        o.number("courseDegrees", fix.courseDegrees, decimals: 3, &out)
        o.bool("speedAndCourseDerived", fix.speedAndCourseDerived, &out)
        o.number("magneticVariationDegrees", fix.magneticVariationDegrees, decimals: 3, &out)
        o.number("trueHeadingDegrees", fix.trueHeadingDegrees, decimals: 3, &out)
        o.number("hdop", fix.hdop, decimals: 2, &out)
        o.number("vdop", fix.vdop, decimals: 2, &out)
        o.number("pdop", fix.pdop, decimals: 2, &out)
        o.number("horizontalAccuracyMeters", fix.horizontalAccuracyMeters, decimals: 3, &out)
        o.number("verticalAccuracyMeters", fix.verticalAccuracyMeters, decimals: 3, &out)
        o.string("accuracySource", accuracySourceName(fix.accuracySource), &out)
        o.key("errorEllipse", &out)
        if let e = fix.errorEllipse {
            var g = JSONWriter.begin(&out)
            g.number("rangeRMSMeters", e.rangeRMSMeters, decimals: 3, &out)
            g.number("semiMajorMeters", e.semiMajorMeters, decimals: 3, &out)
            g.number("semiMinorMeters", e.semiMinorMeters, decimals: 3, &out)
            g.number("orientationDegrees", e.orientationDegrees, decimals: 2, &out)
            g.number("latitudeSigmaMeters", e.latitudeSigmaMeters, decimals: 3, &out)
            g.number("longitudeSigmaMeters", e.longitudeSigmaMeters, decimals: 3, &out)
            g.number("altitudeSigmaMeters", e.altitudeSigmaMeters, decimals: 3, &out)
            g.end(&out)
        } else {
            out.append("null")
        }
        o.integer("satellitesUsed", fix.satellitesUsed, &out)
        o.integer("satellitesInView", fix.satellitesInView, &out)
        o.number("differentialAgeSeconds", fix.differentialAgeSeconds, decimals: 1, &out)
        o.integer("differentialStationID", fix.differentialStationID, &out)
        o.end(&out)
    }

    /// `none`, `gst` or `dop`.
    public static func accuracySourceName(_ source: AccuracySource) -> StaticString {
        switch source {
        case .none: "none"
        case .gst: "gst"
        case .dop: "dop"
        }
    }
}
