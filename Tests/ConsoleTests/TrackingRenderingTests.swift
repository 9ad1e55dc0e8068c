import Testing
import TestSupport
import Tracking
import NMEA
@testable import Console

/// JSON-lines and text rendering of the tracking outputs (`TrackingJSON`, `TrackingText`).
struct TrackingRenderingTests {
    /// A core following a user near Berlin with a heading, one second into tracking.
    func sampleCore() -> TrackingCore {
        var core = try! TrackingCore()
        let here = GeoCoordinate(latitudeDegrees: 52.5219, longitudeDegrees: 13.4132)
        core.setCamera(CameraOptions(center: here, zoom: 15), durationSeconds: 0, atNanoseconds: 0)
        core.updateLocation({
            var f = Fix(timeOfDayNanoseconds: 0)
            f.mode = .threeD
            f.latitudeDegrees = 52.5220
            f.longitudeDegrees = 13.4133
            f.horizontalAccuracyMeters = 8
            return f
        }(), atNanoseconds: 1_000_000)
        core.setTrackingMode(.followWithHeading, animated: false, atNanoseconds: 2_000_000)
        core.updateHeading(HeadingSample(timeNanoseconds: 3_000_000, trueHeadingDegrees: 45, magneticHeadingDegrees: 42,
                                         headingAccuracyDegrees: 30))
        core.tick(atNanoseconds: 2_000_000_000)
        return core
    }

    /// Parses JSON lines with python3 and prints the requested expressions, one per line.
    func python(_ json: String, _ expressions: [String]) -> [String]? {
        let script = "import json,sys\nrows=[json.loads(l) for l in sys.stdin if l.strip()]\n"
            + expressions.map { "print(\($0))" }.joined(separator: "\n")
        guard let r = runProcess(["python3", "-c", script], input: Array(json.utf8)), r.status == 0 else { return nil }
        return r.output.split(separator: "\n").map(String.init)
    }

    @Test func jsonLineIsValidJSONWithTheStateFieldNames() throws {
        var core = sampleCore()
        var out = OutputBuffer(capacity: 8192)
        TrackingJSON.appendLine(puck: core.puck, camera: core.camera, includeStyle: true, to: &out)
        while let e = core.popEvent() { TrackingJSON.appendEventLine(e, to: &out) }
        let overflowed = out.overflowed
        #expect(!overflowed)
        let values = try #require(python(out.string, [
            "rows[0]['puck']['coordinate']['latitudeDegrees']",
            "rows[0]['puck']['bearingSource']",
            "rows[0]['puck']['headingIndicator'], rows[0]['puck']['headingFanWidthDegrees']",
            "rows[0]['camera']['zoom'], rows[0]['camera']['bearingDegrees']",
            "rows[0]['camera']['trackingMode'], rows[0]['camera']['trackingState'], rows[0]['camera']['viewportStatus']",
            "rows[0]['puck']['properties']['approximateHaloOpacity']",
            "sorted(r['event'] for r in rows[1:])",
        ]))
        #expect(values[0] == "52.522")
        #expect(values[1] == "imuHeading")
        #expect(values[2] == "fan 60.0")
        #expect(values[3] == "15.0 45.0")
        #expect(values[4] == "followWithHeading changed idle")
        #expect(values[5] == "0.25")
        #expect(values[6].contains("'didChangeTrackingMode'") && values[6].contains("'willStartLocatingUser'"))
    }

    @Test func everyEventKindRendersAsJSON() throws {
        let events: [TrackingEvent] = [
            .willStartLocatingUser, .didStopLocatingUser, .didUpdateUserLocation,
            .didFailToLocateUser(.authorizationDenied), .didChangeTrackingMode(.navigation, animated: true),
            .didChangeAuthorization(.authorized, .reduced), .completed(CompletionToken(rawValue: 7), success: false),
            .didChangeViewportStatus(.transition(.default, to: .overview), reason: .transitionStarted),
        ]
        var out = OutputBuffer(capacity: 4096)
        for (i, e) in events.enumerated() {
            TrackingJSON.appendEventLine(TimedTrackingEvent(timeNanoseconds: Int64(i), event: e), to: &out)
        }
        let values = try #require(python(out.string, ["len(rows)", "rows[4]['mode'], rows[4]['animated']",
                                                     "rows[6]['token'], rows[6]['success']",
                                                     "rows[7]['viewportTransition'], rows[7]['viewportState'], rows[7]['reason']"]))
        #expect(values == ["8", "navigation True", "7 False", "default overview transitionStarted"])
    }

    @Test func textLineSaysWhatTheMapShows() {
        let core = sampleCore()
        var out = OutputBuffer(capacity: 1024)
        TrackingText.appendLine(puck: core.puck, camera: core.camera, to: &out)
        let line = out.string
        #expect(line.hasPrefix("t=2.000s puck 52.522000000,13.413300000 ±8.00m @400,240 pinned dot brg 45.0° imuHeading fan 60°"))
        #expect(line.contains("| cam ") && line.contains(" z15.0000 brg 45.0° imuHeading pitch 0.0° followWithHeading/changed viewport idle"))
        #expect(line.hasSuffix("\n"))
    }

    /// Rendering allocates nothing, and the counted loop's last round wrote the same four lines as a
    /// first render: JSON line, text line, JSON event, text event.
    @Test func renderingAllocatesNothing() {
        var core = sampleCore()
        var out = OutputBuffer(capacity: 8192)
        let event = core.popEvent()!
        TrackingJSON.appendLine(puck: core.puck, camera: core.camera, includeStyle: true, to: &out)
        TrackingText.appendLine(puck: core.puck, camera: core.camera, to: &out)
        TrackingJSON.appendEventLine(event, to: &out)
        TrackingText.appendEvent(event, to: &out)
        let expected = out.string
        let count = allocationCount {
            for _ in 0..<1000 {
                out.removeAll()
                TrackingJSON.appendLine(puck: core.puck, camera: core.camera, includeStyle: true, to: &out)
                TrackingText.appendLine(puck: core.puck, camera: core.camera, to: &out)
                TrackingJSON.appendEventLine(event, to: &out)
                TrackingText.appendEvent(event, to: &out)
            }
        }
        #expect(count == 0)
        #expect(out.string == expected)
        let lines = expected.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.first?.hasPrefix("{") == true && lines.first?.contains("\"puck\":") == true)
        #expect(lines.count > 1 && lines[1].hasPrefix("t=2.000s puck 52.522000000,13.413300000"))
    }
}
