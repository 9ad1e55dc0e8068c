import Console
import NMEA
import TestSupport
import Testing
import Tracking
@testable import TrackingScenario

@Suite struct ScenarioParserTests {
    func parsed(_ text: String) -> Scenario? {
        if case .success(let s) = ScenarioParser.parse(text) { return s }
        return nil
    }

    func errors(_ text: String) -> [ScenarioError] {
        if case .failure(let e) = ScenarioParser.parse(text) { return e.errors }
        return []
    }

    @Test func theIssueExampleParses() throws {
        let s = try #require(parsed("""
            view 800 480                      # map view size in points (optional first line)
            0    camera 52.52 13.405 zoom=10 bearing=0 pitch=0
            0    fix 52.52 13.405 acc=5 speed=10 course=90 alt=35 heading=91
            0.5  heading 90 acc=25            # a compass sample: degrees true, accuracy
            1    mode followWithCourse immediate
            2    viewport follow zoom=16.35 pitch=45 bearing=course
            2.5  viewport overview immediate
            2.6  viewport idle
            3    pan 100 0
            3.1  rotate 30
            3.2  zoom 15
            3.3  pitch 50
            3.4  touch
            4    accuracy reduced
            4.1  show off
            4.2  precise MLNAccuracyAuthorizationDescription
            10   end
            """))
        #expect(s.configuration.viewportWidthPoints == 800 && s.configuration.viewportHeightPoints == 480)
        #expect(s.events.count == 15)
        #expect(s.endNanoseconds == 10_000_000_000 && s.hasEndLine)
        #expect(s.events[0].input == .camera(CameraOptions(center: GeoCoordinate(latitudeDegrees: 52.52, longitudeDegrees: 13.405),
                                                            zoom: 10, bearingDegrees: 0, pitchDegrees: 0), durationSeconds: 0))
        guard case .fix(let fix) = s.events[1].input else { Issue.record("not a fix"); return }
        #expect(fix.mode == .threeD && fix.latitudeDegrees == 52.52 && fix.horizontalAccuracyMeters == 5
                && fix.speedMetersPerSecond == 10 && fix.courseDegrees == 90 && fix.altitudeMSLMeters == 35
                && fix.trueHeadingDegrees == 91)
        #expect(s.events[2].timeNanoseconds == 500_000_000)
        #expect(s.events[2].input == .heading(HeadingSample(timeNanoseconds: 0, trueHeadingDegrees: 90,
                                                            magneticHeadingDegrees: -1, headingAccuracyDegrees: 25)))
        #expect(s.events[3].input == .console(.mode(.set(.followWithCourse, animated: false))))
        #expect(s.events[4].input == .console(.viewport(.follow(zoom: 16.35, pitchDegrees: 45, bearing: .course, immediate: false))))
        #expect(s.events[11].input == .touch)
        #expect(s.events[12].input == .console(.accuracy(.reduced)))
        #expect(s.events[3].line == 5)
    }

    @Test func withoutEndTheRunDrainsFourSecondsAfterTheLastInput() throws {
        let s = try #require(parsed("0 fix 52.52 13.405\n2.5 mode follow\n"))
        #expect(!s.hasEndLine && s.endNanoseconds == 6_500_000_000)
    }

    @Test func everyBadLineIsReportedWithItsNumber() {
        let e = errors("""
            0 fix 52.52                       # line 1: longitude missing
            0 frobnicate 3                    # line 2: unknown input
            view 640 480                      # line 3: untimed view after a timed line
            -1 mode follow                    # line 4: negative time
            2 mode follow
            1 mode none                       # line 6: earlier than line 5
            3 zoom 99                         # line 7: console range check
            4 status                          # line 8: a view, not a tracking change
            5 heading 90                      # line 9: accuracy missing
            6 camera                          # line 10: nothing to change
            """)
        #expect(e.map(\.line) == [1, 2, 3, 4, 6, 7, 8, 9, 10])
        #expect(e[0].message.contains("longitude"))
        #expect(e[1].message.contains("'frobnicate' is not an input"))
        #expect(e[4].message.contains("earlier than the line before"))
        #expect(e[5].message == "zoom: 99 is out of range, allowed 0…25.5")
        #expect(e[6].message.contains("does not change the tracking"))
        #expect(e[7].message.contains("acc="))
        #expect(e[0].formatted(file: "a.scenario").hasPrefix("a.scenario:1: "))
    }

    @Test func setChangesTheCoreConfigurationBeforeTheRun() throws {
        let s = try #require(parsed("set headingFallsBackToCourse false\nset maximumPitchDegrees 85\n0 mode follow\n"))
        #expect(s.configuration.headingFallsBackToCourse == false && s.configuration.maximumPitchDegrees == 85)
        let e = errors("set maximumPitchDegrees 90\nset bogus 1\n0 mode follow\n1 set puckSmoothing mapbox\n")
        #expect(e.map(\.line) == [1, 2, 4])
        #expect(e[0].message.contains("maximumPitchDegrees"))
    }

    @Test func garbageBytesGiveErrorsNotACrash() {
        var random = SeededRandom(seed: 16)
        for _ in 0..<300 {
            var bytes = [UInt8](repeating: 0, count: Int(random.next() % 300))
            for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: random.next()) }
            if random.next() % 2 == 0 { bytes.insert(contentsOf: Array("0 fix 1 2\n".utf8), at: 0) }
            _ = ScenarioParser.parse(bytes)
        }
        #expect(errors(String(repeating: "x", count: 2000)).first?.message.contains("at most 1024") == true)
        #expect(errors("").first?.message.contains("no timed line") == true)
    }
}
