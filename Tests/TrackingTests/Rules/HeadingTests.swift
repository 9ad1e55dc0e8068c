import Testing
import NMEA
@testable import Tracking

/// tracking.md 1.1–1.3, tracking.md 4 and the bearing fallback (`HeadingSourceSelector`).
struct HeadingTests {
    func imu(_ heading: Double, accuracy: Double = 5, at t: Int64) -> HeadingSample {
        HeadingSample(timeNanoseconds: t, trueHeadingDegrees: heading, magneticHeadingDegrees: heading,
                      headingAccuracyDegrees: accuracy, source: .imu)
    }

    @Test func rule_1_2_headingDirectionIsTrueElseMagnetic() {
        #expect(HeadingSample(timeNanoseconds: 0, trueHeadingDegrees: -1, magneticHeadingDegrees: 123,
                              headingAccuracyDegrees: 5).direction == 123)
        #expect(HeadingSample(timeNanoseconds: 0, trueHeadingDegrees: 10, magneticHeadingDegrees: 123,
                              headingAccuracyDegrees: 5).direction == 10)
        let none = HeadingSample(timeNanoseconds: 0, trueHeadingDegrees: -1, magneticHeadingDegrees: -1,
                                 headingAccuracyDegrees: 5)
        #expect(none.direction == nil && !none.isValid)
    }

    @Test func rule_1_1_negativeAccuracyHeadingIsIgnored() {
        var (core, t) = followingCore(mode: .followWithHeading)
        core.updateHeading(imu(40, at: t + ms(10)))
        run(&core, from: t + ms(10), to: t + second)
        #expect(core.camera.bearingDegrees == 40)
        core.updateHeading(imu(90, accuracy: -1, at: t + second + ms(10)))
        run(&core, from: t + second + ms(10), to: t + 2 * second)
        #expect(core.camera.bearingDegrees == 40)
        #expect(core.currentBearingSelection == nil)
    }

    @Test func rule_1_3_puckBearingWhenUnavailable_Q6() {
        for (fallback, expected) in [(PuckBearingFallback.keepLast, 90.0), (.north, 0.0)] {
            var core = makeCore { $0.puckBearingWhenUnavailable = fallback }
            core.setShowsUserLocation(true, atNanoseconds: 0)
            core.updateLocation(makeFix(berlin), atNanoseconds: 0)
            core.updateHeading(imu(90, at: ms(1)))
            core.tick(atNanoseconds: second)
            #expect(core.puck.bearingDegrees == 90 && core.puck.bearingSource == .imuHeading)
            core.updateHeading(imu(90, accuracy: -1, at: 2 * second))
            core.tick(atNanoseconds: 3 * second)
            #expect(core.puck.bearingDegrees == expected)
            #expect(core.puck.bearingSource == BearingSource.none)
        }
    }

    @Test func rule_4_1_headingUpdatesWanted() {
        var core = makeCore()
        #expect(!core.wantsHeadingUpdates)
        core.setTrackingMode(.followWithHeading, animated: true, atNanoseconds: 0)
        #expect(core.wantsHeadingUpdates)
        core.setShowsUserHeadingIndicator(true, atNanoseconds: 1)
        core.setTrackingMode(.followWithCourse, animated: true, atNanoseconds: 2)
        #expect(!core.wantsHeadingUpdates)
        core.setTrackingMode(.follow, animated: true, atNanoseconds: 3)
        #expect(core.wantsHeadingUpdates)
    }

    @Test func rule_4_2_headingFilterOneDegree() {
        var (core, t) = followingCore(mode: .followWithHeading)
        core.updateHeading(imu(10, at: t))
        run(&core, from: t, to: t + ms(400))
        #expect(core.camera.bearingDegrees == 10)
        core.updateHeading(imu(10.9, at: t + ms(500)))
        run(&core, from: t + ms(500), to: t + ms(900))
        #expect(core.camera.bearingDegrees == 10)
        core.updateHeading(imu(11.0, at: t + second))
        run(&core, from: t + second, to: t + ms(1400))
        #expect(core.camera.bearingDegrees == 11)
    }

    @Test func rule_4_3_headingIgnoredWhilePanBegan() {
        var core = makeCore()
        core.setShowsUserLocation(true, atNanoseconds: 0)
        core.updateLocation(makeFix(berlin), atNanoseconds: 0)
        core.updateHeading(imu(20, at: ms(1)))
        core.handleGesture(.pan(.began, translationXPoints: 0, translationYPoints: 0), atNanoseconds: ms(10))
        core.updateHeading(imu(80, at: ms(20)))
        core.tick(atNanoseconds: second)
        #expect(core.puck.bearingDegrees == 20)
        #expect(core.ignoredHeadingCount == 1)
        core.handleGesture(.pan(.changed, translationXPoints: 5, translationYPoints: 0), atNanoseconds: second)
        core.updateHeading(imu(80, at: second + ms(10)))
        core.tick(atNanoseconds: 2 * second)
        #expect(core.puck.bearingDegrees == 80)
    }

    @Test func rule_4_4_headingEase0_3sLinear() {
        var (core, t) = followingCore(mode: .followWithHeading)
        core.updateHeading(imu(60, at: t))
        core.tick(atNanoseconds: t + ms(150))
        #expect(near(core.camera.bearingDegrees, 30, 1e-9))
        core.tick(atNanoseconds: t + ms(299))
        #expect(core.camera.bearingDegrees < 60)
        core.tick(atNanoseconds: t + ms(300))
        #expect(core.camera.bearingDegrees == 60)
    }

    @Test func bearingFallbackOrder() {
        var selector = HeadingSourceSelector(imuTimeoutNanoseconds: 2 * second, gpsMaxAgeNanoseconds: 3 * second,
                                             courseMinimumSpeedMetersPerSecond: 0.5, assumedGPSAccuracyDegrees: 10)
        let t: Int64 = 100 * second
        #expect(selector.select(at: t) == nil)
        // Course only above the speed threshold.
        selector.record(makeFix(berlin, course: 200, speed: 0.4), at: t)
        #expect(selector.select(at: t) == nil)
        selector.record(makeFix(berlin, course: 200, speed: 0.5), at: t)
        #expect(selector.select(at: t)?.source == .gpsCourse)
        #expect(selector.select(at: t, includeCourse: false) == nil)
        // GPS true heading beats course.
        selector.record(makeFix(berlin, course: 200, speed: 3, trueHeading: 190), at: t)
        #expect(selector.select(at: t) == BearingSelection(source: .gpsTrueHeading, degrees: 190, accuracyDegrees: 10))
        // A valid IMU heading beats both; an invalid one falls back.
        selector.record(imu(170, accuracy: 4, at: t))
        #expect(selector.select(at: t) == BearingSelection(source: .imuHeading, degrees: 170, accuracyDegrees: 4))
        selector.record(imu(170, accuracy: -1, at: t + 1))
        #expect(selector.select(at: t + 1)?.source == .gpsTrueHeading)
        // Timeouts: IMU after 2 s, GPS after 3 s.
        selector.record(imu(170, accuracy: 4, at: t))
        #expect(selector.select(at: t + 2 * second)?.source == .imuHeading)
        #expect(selector.select(at: t + 2 * second + 1)?.source == .gpsTrueHeading)
        #expect(selector.select(at: t + 3 * second + 1) == nil)
        // Threshold 0 = MapLibre literal: any reported course is valid, even without speed.
        var literal = HeadingSourceSelector(courseMinimumSpeedMetersPerSecond: 0)
        literal.record(makeFix(berlin, course: 286.35, speed: nil), at: t)
        #expect(literal.select(at: t)?.degrees == 286.35)
    }

    @Test func activeSourceIsReportedOnThePuck() {
        var core = makeCore()
        core.setShowsUserLocation(true, atNanoseconds: 0)
        core.updateLocation(makeFix(berlin, course: 45, speed: 3), atNanoseconds: 0)
        core.tick(atNanoseconds: second)
        #expect(core.puck.bearingSource == .gpsCourse && core.puck.bearingDegrees == 45)
        core.updateLocation(makeFix(offset(berlin, northMeters: 3), course: 45, speed: 3, trueHeading: 50),
                            atNanoseconds: second)
        core.tick(atNanoseconds: 2 * second)
        #expect(core.puck.bearingSource == .gpsTrueHeading && core.puck.bearingDegrees == 50)
        core.updateHeading(imu(55, at: 2 * second))
        core.tick(atNanoseconds: 3 * second)
        #expect(core.puck.bearingSource == .imuHeading && core.puck.bearingDegrees == 55)
    }

    @Test func rule_12_7_puckBearingWraps350To10ThroughZero() {
        // Mapbox's heading interpolator (0.3 s); MapLibre's puck turns at once (tracking.md 8.5).
        var core = makeCore { $0.puckSmoothing = .mapbox }
        core.setShowsUserLocation(true, atNanoseconds: 0)
        core.updateLocation(makeFix(berlin), atNanoseconds: 0)
        core.updateHeading(imu(350, at: 0))
        core.tick(atNanoseconds: second)
        core.updateHeading(imu(10, at: second))
        var seen: [Double] = []
        var t = second
        while t <= second + ms(300) {
            core.tick(atNanoseconds: t)
            seen.append(core.puck.bearingDegrees!)
            t += ms(30)
        }
        // 0.3 s shortest-arc ease: through 0, never near 180.
        #expect(seen.allSatisfy { $0 >= 350 || $0 <= 10 })
        #expect(near(seen[5], 0, 1e-9))   // halfway at 0.15 s
        #expect(seen.last == 10)
        var mapLibre = makeCore()
        mapLibre.setShowsUserLocation(true, atNanoseconds: 0)
        mapLibre.updateLocation(makeFix(berlin), atNanoseconds: 0)
        mapLibre.updateHeading(imu(350, at: 0))
        mapLibre.updateHeading(imu(10, at: second))
        mapLibre.tick(atNanoseconds: second)
        #expect(mapLibre.puck.bearingDegrees == 10)
    }

    @Test func rule_11_1_compassNavigationMagneticReference_Q11() {
        var core = makeCore { $0.compassNavigationReference = .magneticNorth }
        core.setShowsUserLocation(true, atNanoseconds: 0)
        core.updateLocation(makeFix(berlin), atNanoseconds: 0)
        core.setTrackingMode(.compassNavigation, animated: false, atNanoseconds: 1)
        core.updateHeading(HeadingSample(timeNanoseconds: 2, trueHeadingDegrees: 33, magneticHeadingDegrees: 30,
                                         headingAccuracyDegrees: 5))
        #expect(core.currentBearingSelection?.degrees == 30)
        var trueNorth = makeCore()
        trueNorth.updateHeading(HeadingSample(timeNanoseconds: 2, trueHeadingDegrees: 33, magneticHeadingDegrees: 30,
                                              headingAccuracyDegrees: 5))
        #expect(trueNorth.currentBearingSelection?.degrees == 33)
    }
}
