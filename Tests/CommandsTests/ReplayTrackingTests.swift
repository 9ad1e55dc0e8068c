import Testing
import TestSupport
@testable import Commands
@testable import Puckd
@testable import Tracking

/// `puckd replay FILE --track TARGET`: the log drives the tracking core at 60 Hz of log time.
@Suite struct ReplayTrackingTests {
    @Test func targetsParse() {
        if case .success(let o) = ReplayOptions.parse(["x.nmea", "--track", "navigation"]) {
            #expect(o.track == .mode(.navigation))
        } else { Issue.record("navigation did not parse") }
        if case .success(let o) = ReplayOptions.parse(["--track", "overview"]) { #expect(o.track == .overview) }
        else { Issue.record("overview did not parse") }
        #expect(ReplayOptions.parse(["--track"]) == .failure("--track needs a target (\(ReplayTrackTarget.allowedNames))"))
        #expect(ReplayOptions.parse(["--track", "sideways"])
                == .failure("unknown --track target 'sideways'; allowed: \(ReplayTrackTarget.allowedNames)"))
    }

    /// The bundled drive (nmea-rtk) in course mode: ticks at 60 Hz of log time, the first fly to
    /// zoom 14 (tracking.md 2.6), the camera turning course-up, and the 10.5-minute gap capped at 300 ticks.
    @Test func bundledDriveInCourseModeAsJSON() throws {
        let r = try puckd(["replay", "--track", "followWithCourse", "--json"])
        #expect(r.status == 0)
        let lines = r.output.split(separator: "\n")
        let ticks = lines.filter { $0.hasPrefix("{\"timeNanoseconds\"") && $0.contains("\"camera\"") }
        let events = lines.filter { $0.contains("\"event\":") }
        #expect(events.first?.contains("willStartLocatingUser") == true)
        #expect(events.contains { $0.contains("\"didChangeTrackingMode\",\"mode\":\"followWithCourse\"") })
        // 60 Hz of log time: consecutive ticks are 1/60 s apart.
        #expect(ticks.count > 1000)
        #expect(ticks[1].hasPrefix("{\"timeNanoseconds\":16666666,"))
        // After the first fly the camera sits at zoom 14 with the puck pinned.
        let settled = ticks[ticks.count / 2]
        #expect(settled.contains("\"zoom\":14.0000"))
        #expect(settled.contains("\"isPinnedToAnchor\":true"))
        // The summary on standard error reports the gap capped to 300 ticks (5 s).
        #expect(r.errorOutput.contains("skipped across 1 gaps"))
        // Every line is JSON.
        let check = runProcess(["python3", "-c", "import json,sys\nfor l in sys.stdin: json.loads(l)\nprint('ok')"],
                               input: r.standardOutput)
        #expect(check?.output == "ok\n")
    }

    /// Course-up: while walking, the camera bearing follows the recorded course (within the 1 s ease),
    /// and ignores courses recorded below the course speed threshold.
    @Test func cameraBearingFollowsTheCourse() throws {
        let r = try puckd(["replay", "--track", "followWithCourse"])
        #expect(r.status == 0)
        let bearings = r.output.split(separator: "\n").filter { $0.contains("followWithCourse/changed") }
            .compactMap { line -> Double? in
                let camera = line.split(separator: "| cam ")
                guard camera.count == 2 else { return nil }
                let parts = camera[1].split(separator: " brg ")
                guard parts.count == 2 else { return nil }
                return Double(parts[1].prefix(while: { $0 != "°" }))
            }
        #expect(bearings.count > 300)
        // The walk turns through north and back: courses 78° → 22° → 348° → 292° → 260° while walking
        // at ≥ 0.5 m/s; the camera follows them across 0°. At 10 Hz every fix starts a new 1 s ease from
        // where the camera is (one transition at a time, tracking.md 3.8), and a fix without a valid
        // course stops the turn where it is: the last leg ends near 305°.
        #expect(bearings.contains { $0 >= 45 && $0 < 90 })
        #expect(bearings.contains { $0 >= 0 && $0 < 30 })
        #expect(bearings.contains { $0 >= 330 && $0 < 360 })
        #expect(bearings.contains { $0 >= 290 && $0 < 330 })
        // Courses of 118°–176° were recorded only below 0.5 m/s (course not valid, tracking.md Q10 choice):
        // the camera never turns there.
        #expect(!bearings.contains { $0 > 100 && $0 < 200 })
    }
}
