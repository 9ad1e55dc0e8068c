import NMEA

/// A one-line human-readable summary of a fix (replay output, and the console's `gps` command):
///
/// `2026-08-05T05:52:34.200Z  47.6455412 N 122.3037861 W  alt 21.4 m  1.23 m/s 271.5°  3D gps  sats 14/31  ±3.4 m dop`
///
/// Fields: UTC time (or `date?T` and the time of day while no date is known), latitude/longitude in degrees
/// with 7 decimals (1 cm), altitude above mean sea level, speed and course over ground (`~` marks
/// values derived from successive positions), fix mode and quality, satellites used/in view, and the
/// horizontal accuracy with its source (`gst` or `dop`). `-` stands for unknown. Allocation-free.
public enum FixSummary {
    /// Appends the summary line for `fix` with a trailing newline.
    public static func append(_ fix: borrowing Fix, to out: inout OutputBuffer) {
        if let utc = fix.utcNanoseconds {
            out.append(isoTime: utc, fractionDigits: 3)
        } else {
            // No date yet: the time of day only.
            let ms = fix.timeOfDayNanoseconds / 1_000_000
            let second = fix.isLeapSecond ? 60 : ms / 1000 % 60
            out.append("date?T")
            out.append(uint: UInt64(fix.isLeapSecond ? 23 : ms / 3_600_000), minimumDigits: 2)
            out.append(UInt8(ascii: ":"))
            out.append(uint: UInt64(fix.isLeapSecond ? 59 : ms / 60_000 % 60), minimumDigits: 2)
            out.append(UInt8(ascii: ":"))
            out.append(uint: UInt64(second), minimumDigits: 2)
            out.append(UInt8(ascii: "."))
            out.append(uint: UInt64(ms % 1000), minimumDigits: 3)
            out.append("Z")
        }
        if fix.isLeapSecond { out.append(" (leap second)") }
        out.append("  ")
        if fix.hasPosition, let lat = fix.latitudeDegrees, let lon = fix.longitudeDegrees {
            out.append(abs(lat), decimals: 7)
            out.append(lat < 0 ? " S " : " N ")
            out.append(abs(lon), decimals: 7)
            out.append(lon < 0 ? " W" : " E")
            out.append("  alt ")
            optional(fix.altitudeMSLMeters, decimals: 1, to: &out)
            out.append(" m  ")
            if fix.speedAndCourseDerived { out.append(UInt8(ascii: "~")) }
            optional(fix.speedMetersPerSecond, decimals: 2, to: &out)
            out.append(" m/s ")
            optional(fix.courseDegrees, decimals: 1, to: &out)
            out.append("\u{00B0}")
        } else {
            out.append("no position")
        }
        out.append("  ")
        out.append(modeName(fix.mode))
        out.append(UInt8(ascii: " "))
        out.append(qualityName(fix.quality))
        out.append("  sats ")
        optional(fix.satellitesUsed, to: &out)
        out.append(UInt8(ascii: "/"))
        optional(fix.satellitesInView, to: &out)
        if let h = fix.horizontalAccuracyMeters {
            out.append("  \u{00B1}")
            out.append(h, decimals: 1)
            out.append(fix.accuracySource == .gst ? " m gst" : " m dop")
        }
        if let heading = fix.trueHeadingDegrees {
            out.append("  hdg ")
            out.append(heading, decimals: 1)
            out.append("\u{00B0}")
        }
        out.append(UInt8(ascii: "\n"))
    }

    /// `no fix`, `2D` or `3D`.
    public static func modeName(_ mode: FixMode) -> StaticString {
        switch mode {
        case .noFix: "no fix"
        case .twoD: "2D"
        case .threeD: "3D"
        }
    }

    /// Short name of a fix quality (`gps`, `dgps`, `rtk-fixed` …).
    public static func qualityName(_ quality: FixQuality) -> StaticString {
        switch quality {
        case .invalid: "invalid"
        case .gps: "gps"
        case .dgps: "dgps"
        case .pps: "pps"
        case .rtkFixed: "rtk-fixed"
        case .rtkFloat: "rtk-float"
        case .deadReckoning: "dead-reckoning"
        case .manual: "manual"
        case .simulator: "simulator"
        }
    }

    private static func optional(_ value: Double?, decimals: Int, to out: inout OutputBuffer) {
        if let value, value.isFinite { out.append(value, decimals: decimals) } else { out.append(UInt8(ascii: "-")) }
    }

    private static func optional(_ value: Int?, to out: inout OutputBuffer) {
        if let value { out.append(int: value) } else { out.append(UInt8(ascii: "-")) }
    }
}
