import Console
import NMEA
import Testing
import TestSupport

/// The fix renderers of `puckd replay` (and later the console's `gps` command).
@Suite struct ReplayRenderingTests {
    static var sample: Fix {
        var f = Fix(timeOfDayNanoseconds: (3 * 3600 + 14 * 60 + 15) * 1_000_000_000 + 250_000_000)
        f.utcNanoseconds = 1_555_038_855_250_000_000                   // 2019-04-12T03:14:15.250Z
        f.mode = .threeD
        f.quality = .dgps
        f.latitudeDegrees = -45.877591500
        f.longitudeDegrees = 170.500124833
        f.altitudeMSLMeters = 12.3
        f.speedMetersPerSecond = 0.051
        f.courseDegrees = 271.5
        f.horizontalAccuracyMeters = 2.1
        f.verticalAccuracyMeters = 3.4
        f.accuracySource = .dop
        f.satellitesUsed = 12
        f.satellitesInView = 31
        return f
    }

    func render(_ body: (inout OutputBuffer) -> Void) -> String {
        var out = OutputBuffer(capacity: 512)
        body(&out)
        return out.string
    }

    @Test func jsonLineInCompareFixesFormat() {
        #expect(render { FixJSON.append(Self.sample, to: &$0) } ==
            #"{"time":"2019-04-12T03:14:15.250Z","lat":-45.877591500,"lon":170.500124833,"alt":12.3000,"#
            + #""speed":0.0510,"track":271.5000,"mode":3,"eph":2.100,"epv":3.400}"# + "\n")
    }

    @Test func jsonLeavesOutUnknownsAndPositionOfNoFix() {
        var f = Fix(timeOfDayNanoseconds: 0)
        f.utcNanoseconds = 0
        #expect(render { FixJSON.append(f, to: &$0) } == #"{"time":"1970-01-01T00:00:00.000Z","mode":1}"# + "\n")
        f.utcNanoseconds = nil
        var wrote = true
        #expect(render { wrote = FixJSON.append(f, to: &$0) } == "" && !wrote)   // no date: no line
    }

    @Test func summaryLine() {
        #expect(render { FixSummary.append(Self.sample, to: &$0) } ==
            "2019-04-12T03:14:15.250Z  45.8775915 S 170.5001248 E  alt 12.3 m  0.05 m/s 271.5\u{00B0}  3D dgps"
            + "  sats 12/31  \u{00B1}2.1 m dop\n")
        var derived = Self.sample
        derived.speedAndCourseDerived = true
        derived.courseDegrees = nil
        derived.latitudeDegrees = 45.5
        derived.longitudeDegrees = -122.25
        #expect(render { FixSummary.append(derived, to: &$0) }.contains("45.5000000 N 122.2500000 W  alt 12.3 m  ~0.05 m/s -\u{00B0}"))
    }

    @Test func summaryOfUndatedLeapSecondAndNoFix() {
        var f = Fix(timeOfDayNanoseconds: 86_400_500_000_000)
        f.isLeapSecond = true
        #expect(render { FixSummary.append(f, to: &$0) } ==
            "date?T23:59:60.500Z (leap second)  no position  no fix invalid  sats -/-\n")
    }

    /// Rendering allocates nothing, and what the counted loop rendered is the full JSON and summary lines.
    @Test func renderingAllocatesNothing() {
        var out = OutputBuffer(capacity: 4096)
        let fix = Self.sample
        let expected = render { FixJSON.append(fix, to: &$0) } + render { FixSummary.append(fix, to: &$0) }
        FixJSON.append(fix, to: &out)
        FixSummary.append(fix, to: &out)
        let allocations = allocationCount {
            for _ in 0..<100 {
                out.removeAll()
                FixJSON.append(fix, to: &out)
                FixSummary.append(fix, to: &out)
            }
        }
        #expect(allocations == 0)
        #expect(out.string == expected)
        #expect(expected.hasPrefix(#"{"time":"2019-04-12T03:14:15.250Z","lat":-45.877591500,"#)
                && expected.hasSuffix("  sats 12/31  \u{00B1}2.1 m dop\n"))
    }
}
