import Angles
import Testing
@testable import Tracking
#if canImport(Glibc)
import Glibc
#endif

/// tracking.md 2, 3: MapLibre Native iOS user tracking modes and the camera per fix.
struct MapLibreTrackingTests {
    @Test func rule_2_1_defaultModeNoneAndLocationOff() {
        var core = makeCore()
        core.tick(atNanoseconds: 0)
        #expect(core.trackingMode == .none && core.camera.trackingMode == .none)
        #expect(!core.isShowingUserLocation)
        #expect(core.currentTrackingState == .possible)
    }

    @Test func rule_2_4_sameModeOnlyCompletes() {
        var core = makeCore()
        let token = core.setTrackingMode(.none, animated: true, atNanoseconds: 0)
        #expect(drain(&core) == [.completed(token, success: true)])
    }

    @Test func rule_2_4_withoutLocationCompletionPrecedesModeEvent() {
        var core = makeCore()
        let token = core.setTrackingMode(.follow, animated: true, atNanoseconds: 0)
        #expect(drain(&core) == [.willStartLocatingUser, .completed(token, success: true),
                                 .didChangeTrackingMode(.follow, animated: true)])
        #expect(core.isShowingUserLocation)
    }

    @Test func rule_2_4_completionFiresWhenTheFirstFlyEnds() {
        var core = makeCore()
        core.setCamera(CameraOptions(center: offset(berlin, northMeters: 0, eastMeters: 20_000), zoom: 12),
                       durationSeconds: 0, atNanoseconds: 0)
        core.updateLocation(makeFix(berlin), atNanoseconds: ms(1))
        let token = core.setTrackingMode(.follow, animated: true, atNanoseconds: ms(2))
        let first = drain(&core)
        #expect(!first.contains(.completed(token, success: true)))
        #expect(first.last == .didChangeTrackingMode(.follow, animated: true))
        run(&core, from: ms(2), to: 10 * second)
        #expect(drain(&core).contains(.completed(token, success: true)))
        #expect(core.currentTrackingState == .changed)
    }

    @Test func rule_2_4_nonAnimatedFollowEasesOneSecondWithoutZoom14() {
        // Q14 as built: animated = NO sets state Changed: a 1.0 s linear ease, zoom kept (no fly to 14).
        var core = makeCore()
        core.setCamera(CameraOptions(center: offset(berlin, northMeters: 0, eastMeters: 5_000), zoom: 5),
                       durationSeconds: 0, atNanoseconds: 0)
        core.updateLocation(makeFix(berlin), atNanoseconds: ms(1))
        core.setTrackingMode(.follow, animated: false, atNanoseconds: second)
        #expect(core.currentTrackingState == .changed)
        core.tick(atNanoseconds: second + ms(999))
        #expect(core.camera.isAnimating)
        core.tick(atNanoseconds: 2 * second)
        #expect(!core.camera.isAnimating)
        #expect(core.camera.zoom == 5)
        #expect(near(core.camera.center.latitudeDegrees, berlin.latitudeDegrees, 1e-9))
    }

    @Test func rule_2_4_headingModeEasesUpToZoom3In0_3s() {
        var core = makeCore()
        core.setCamera(CameraOptions(zoom: 2), durationSeconds: 0, atNanoseconds: 0)
        core.setTrackingMode(.followWithHeading, animated: true, atNanoseconds: second)
        core.tick(atNanoseconds: second + ms(150))
        #expect(core.camera.zoom > 2 && core.camera.zoom < 3)
        core.tick(atNanoseconds: second + ms(300))
        #expect(core.camera.zoom == 3)
    }

    @Test func rule_2_6_firstFlyToZoom14() {
        var core = makeCore()
        core.setCamera(CameraOptions(center: offset(berlin, northMeters: 0, eastMeters: 50_000), zoom: 10.49),
                       durationSeconds: 0, atNanoseconds: 0)
        core.updateLocation(makeFix(berlin), atNanoseconds: ms(1))
        core.setTrackingMode(.follow, animated: true, atNanoseconds: ms(2))
        #expect(core.currentTrackingState == .began)
        run(&core, from: ms(2), to: 15 * second)
        #expect(near(core.camera.zoom, 14, 1e-9))
        #expect(near(core.camera.center.latitudeDegrees, berlin.latitudeDegrees, 1e-9))
        #expect(near(core.camera.center.longitudeDegrees, berlin.longitudeDegrees, 1e-9))
        #expect(core.currentTrackingState == .changed)
    }

    @Test func rule_2_6_keepsZoomAtOrAbove10_5() {
        var core = makeCore()
        core.setCamera(CameraOptions(center: offset(berlin, northMeters: 0, eastMeters: 5_000), zoom: 10.5),
                       durationSeconds: 0, atNanoseconds: 0)
        core.updateLocation(makeFix(berlin), atNanoseconds: ms(1))
        core.setTrackingMode(.follow, animated: true, atNanoseconds: ms(2))
        run(&core, from: ms(2), to: 15 * second)
        #expect(core.camera.zoom == 10.5)
        #expect(near(core.camera.center.longitudeDegrees, berlin.longitudeDegrees, 1e-9))
    }

    /// Camera centred on the fix (±1 pt skip keeps state Possible), then a fix `meters` north.
    private func possibleThenFix(northMeters meters: Double) -> TrackingCore {
        var core = makeCore()
        core.setCamera(CameraOptions(center: berlin, zoom: 16), durationSeconds: 0, atNanoseconds: 0)
        core.updateLocation(makeFix(berlin), atNanoseconds: ms(1))
        core.setTrackingMode(.follow, animated: true, atNanoseconds: ms(2))
        #expect(core.currentTrackingState == .possible)
        core.updateLocation(makeFix(offset(berlin, northMeters: meters)), atNanoseconds: second)
        return core
    }

    @Test func rule_2_5_firstFlyBelow500mIsBeganAndIgnoresNewFixes() {
        var core = possibleThenFix(northMeters: 499)
        #expect(core.currentTrackingState == .began)
        core.updateLocation(makeFix(offset(berlin, northMeters: 520)), atNanoseconds: second + ms(100))
        #expect(near(core.userLocation!.coordinate.latitudeDegrees, offset(berlin, northMeters: 499).latitudeDegrees, 1e-12))
        run(&core, from: second + ms(100), to: 10 * second)
        #expect(core.currentTrackingState == .changed)
        #expect(near(core.camera.center.latitudeDegrees, offset(berlin, northMeters: 499).latitudeDegrees, 1e-9))
    }

    @Test func rule_2_5_firstFlyAtOrAbove500mIsSignificantAndStoresFixes() {
        var core = possibleThenFix(northMeters: 500)
        #expect(core.currentTrackingState == .beginSignificantTransition)
        let later = offset(berlin, northMeters: 520)
        core.updateLocation(makeFix(later), atNanoseconds: second + ms(100))
        #expect(near(core.userLocation!.coordinate.latitudeDegrees, later.latitudeDegrees, 1e-12))
        run(&core, from: second + ms(100), to: 10 * second)
        // No incremental move ran during the fly: the camera ended on the 500 m fix.
        #expect(near(core.camera.center.latitudeDegrees, offset(berlin, northMeters: 500).latitudeDegrees, 1e-9))
        #expect(core.currentTrackingState == .changed)
    }

    @Test func rule_2_5_touchWhileBeganEndsTracking() {
        var core = possibleThenFix(northMeters: 100)
        #expect(core.currentTrackingState == .began)
        _ = drain(&core)
        core.handleGesture(.touchDown, atNanoseconds: second + ms(50))
        #expect(core.trackingMode == .none)
        #expect(drain(&core).contains(.didChangeTrackingMode(.none, animated: false)))
    }

    @Test func rule_3_2_skipsWhenWithinOnePoint() {
        var (core, t) = followingCore(zoom: 16)
        let here = core.userLocation!.coordinate
        let mpp = WebMercator.metersPerPoint(latitudeDegrees: here.latitudeDegrees, zoom: 16)
        core.updateLocation(makeFix(offset(here, northMeters: 0.95 * mpp)), atNanoseconds: t + ms(10))
        core.tick(atNanoseconds: t + ms(20))
        #expect(!core.camera.isAnimating)
        core.updateLocation(makeFix(offset(here, northMeters: 1.05 * mpp)), atNanoseconds: t + ms(30))
        core.tick(atNanoseconds: t + ms(40))
        #expect(core.camera.isAnimating)
    }

    @Test func rule_3_2_courseModeAlwaysRetargets() {
        var (core, t) = followingCore(zoom: 16, mode: .followWithCourse)
        let here = core.userLocation!.coordinate
        let mpp = WebMercator.metersPerPoint(latitudeDegrees: here.latitudeDegrees, zoom: 16)
        let before = core.camera.center
        // 0.3 pt north: follow mode would skip it (rule_3_2_skipsWhenWithinOnePoint); course mode re-aims.
        let target = offset(here, northMeters: 0.3 * mpp)
        core.updateLocation(makeFix(target, course: 0, speed: 2), atNanoseconds: t + ms(10))
        core.tick(atNanoseconds: t + ms(20))
        #expect(core.camera.isAnimating)
        core.tick(atNanoseconds: t + ms(10) + second)
        #expect(!core.camera.isAnimating)
        // Centre alignment: the ease ends with the new fix at the centre, bearing = the course.
        #expect(core.camera.center.latitudeDegrees > before.latitudeDegrees)
        #expect(near(core.camera.center.latitudeDegrees, target.latitudeDegrees, 1e-12))
        #expect(near(core.camera.center.longitudeDegrees, target.longitudeDegrees, 1e-12))
        #expect(core.camera.bearingDegrees == 0)
    }

    @Test func rule_3_3_firstFlyDurationIsPathLengthOverVelocity() {
        var core = makeCore()
        let start = offset(berlin, northMeters: 0, eastMeters: 20_000)
        core.setCamera(CameraOptions(center: start, zoom: 5), durationSeconds: 0, atNanoseconds: 0)
        core.updateLocation(makeFix(berlin), atNanoseconds: 0)
        let t0 = second
        core.setTrackingMode(.follow, animated: true, atNanoseconds: t0)
        // Van Wijk & Nuij with ρ = 1.42 and V = 1.2 screenfuls/s, computed independently here.
        let rho = 1.42, velocity = 1.2
        let w0 = 800.0
        let w1 = w0 / pow(2, 14 - 5)
        let a = WebMercator.project(start), b = WebMercator.project(berlin)
        let worldSize = 512 * pow(2, 5.0)
        let u1 = hypot((b.x - a.x) * worldSize, (b.y - a.y) * worldSize)
        let b0 = (w1 * w1 - w0 * w0 + pow(rho, 4) * u1 * u1) / (2 * w0 * rho * rho * u1)
        let b1 = (w1 * w1 - w0 * w0 - pow(rho, 4) * u1 * u1) / (2 * w1 * rho * rho * u1)
        let r0 = log(sqrt(b0 * b0 + 1) - b0), r1 = log(sqrt(b1 * b1 + 1) - b1)
        let expected = (r1 - r0) / rho / velocity
        #expect(expected > 2 && expected < 10)
        let end = t0 + Int64((expected * 1e9).rounded())
        core.tick(atNanoseconds: end - ms(2))
        #expect(core.camera.isAnimating)
        #expect(core.currentTrackingState == .began)
        core.tick(atNanoseconds: end + ms(1))
        #expect(!core.camera.isAnimating)
        #expect(core.currentTrackingState == .changed)
        #expect(near(core.camera.zoom, 14, 1e-9))
    }

    @Test func rule_3_4_followEaseLinearReachesTargetAtExactlyOneSecond() {
        var (core, t) = followingCore(zoom: 16)
        let from = core.camera.center
        let zoom = core.camera.zoom
        let target = offset(from, northMeters: 50)
        let t1 = t + ms(100)
        core.updateLocation(makeFix(target), atNanoseconds: t1)
        core.tick(atNanoseconds: t1 + ms(500))
        // mbgl runs the ease as a van Wijk path with linear zoom: symmetric, so exactly halfway at 0.5 s.
        let y0 = WebMercator.project(from).y, y1 = WebMercator.project(target).y
        let half = (WebMercator.project(core.camera.center).y - y0) / (y1 - y0)
        #expect(near(half, 0.5, 1e-6))
        core.tick(atNanoseconds: t1 + ms(999))
        #expect(core.camera.isAnimating)
        #expect(core.camera.center.latitudeDegrees < target.latitudeDegrees)
        core.tick(atNanoseconds: t1 + second)
        #expect(!core.camera.isAnimating)
        #expect(near(core.camera.center.latitudeDegrees, target.latitudeDegrees, 1e-12))
        #expect(core.camera.zoom == zoom)
    }

    @Test func rule_3_4_dynamicDurationIsFixIntervalCappedAtOneSecond() {
        var (core, t) = followingCore(zoom: 16) { $0.dynamicCameraAnimationDuration = true }
        let here = core.userLocation!.coordinate
        let utc0: Int64 = 1_700_000_000 * second
        core.updateLocation(makeFix(offset(here, northMeters: 20), utc: utc0), atNanoseconds: t + ms(10))
        run(&core, from: t + ms(10), to: t + 2 * second)
        let t2 = t + 2 * second + ms(10)
        core.updateLocation(makeFix(offset(here, northMeters: 40), utc: utc0 + ms(400)), atNanoseconds: t2)
        core.tick(atNanoseconds: t2 + ms(399))
        #expect(core.camera.isAnimating)
        core.tick(atNanoseconds: t2 + ms(400))
        #expect(!core.camera.isAnimating)
    }

    @Test func rule_3_5_unrotatesBelowZoom3() {
        var core = makeCore()
        core.setCamera(CameraOptions(center: offset(berlin, northMeters: 0, eastMeters: 300_000), zoom: 2.5,
                                     bearingDegrees: 40), durationSeconds: 0, atNanoseconds: 0)
        core.updateLocation(makeFix(berlin), atNanoseconds: 0)
        core.setTrackingMode(.follow, animated: false, atNanoseconds: second)
        core.tick(atNanoseconds: second + ms(99))
        #expect(core.camera.bearingDegrees == 40)
        core.tick(atNanoseconds: second + ms(250))
        #expect(core.camera.bearingDegrees > 0 && core.camera.bearingDegrees < 40)
        core.tick(atNanoseconds: second + ms(400))
        #expect(core.camera.bearingDegrees == 0)
        // At zoom 3 rotation is allowed: no unrotate.
        var other = makeCore()
        other.setCamera(CameraOptions(center: offset(berlin, northMeters: 0, eastMeters: 100_000), zoom: 3,
                                      bearingDegrees: 40), durationSeconds: 0, atNanoseconds: 0)
        other.updateLocation(makeFix(berlin), atNanoseconds: 0)
        other.setTrackingMode(.follow, animated: false, atNanoseconds: second)
        other.tick(atNanoseconds: 3 * second)
        #expect(other.camera.bearingDegrees == 40)
    }

    @Test func rule_3_6_courseTargetKeepsUserAndTargetInView() {
        var (core, t) = followingCore(zoom: 16, mode: .followWithCourse)
        let user = core.userLocation!.coordinate
        let target = offset(user, northMeters: 1500, eastMeters: 1500)
        core.setTargetCoordinate(target, animated: true, atNanoseconds: t + ms(10))
        run(&core, from: t + ms(10), to: t + 3 * second)
        // Bearing = azimuth user → target in projected metres (≈ 45° here).
        let u = WebMercator.projectedMeters(user), g = WebMercator.projectedMeters(target)
        let azimuth = atan2(g.eastingMeters - u.eastingMeters, g.northingMeters - u.northingMeters) * 180 / Double.pi
        #expect(near(core.camera.bearingDegrees, azimuth, 1e-9))
        let values = core.values
        for c in [user, target] {
            let p = CameraGeometry.screenPoint(of: WebMercator.project(c), camera: values, size: core.viewportSize)!
            #expect(p.xPoints >= 0 && p.xPoints <= 800)
            #expect(p.yPoints >= 95 - 1e-6 && p.yPoints <= 480 - 95 + 1e-6)
        }
    }

    @Test func rule_3_7_snapToNorthWithin7DegreesAfterRotate() {
        for (rotation, snaps) in [(6.0, true), (-6.5, true), (8.0, false)] {
            var core = makeCore()
            core.setCamera(CameraOptions(center: berlin, zoom: 12), durationSeconds: 0, atNanoseconds: 0)
            let focus = ScreenPoint(xPoints: 400, yPoints: 240)
            core.handleGesture(.rotate(.began, rotationDegrees: 0, focus: focus), atNanoseconds: ms(10))
            core.handleGesture(.rotate(.ended, rotationDegrees: rotation, focus: focus), atNanoseconds: ms(20))
            core.tick(atNanoseconds: ms(20) + ms(300))
            #expect(core.camera.bearingDegrees == (snaps ? 0 : Angle.wrap360(-rotation)))
        }
    }

    @Test func rule_2_2_courseModeBearingIsTheCourse_plus180WithTopAlignment() {
        for (alignment, expected) in [(VerticalAlignment.center, 30.0), (.top, 210.0)] {
            var (core, t) = followingCore(mode: .followWithCourse) { $0.userLocationVerticalAlignment = alignment }
            core.updateLocation(makeFix(offset(core.userLocation!.coordinate, northMeters: 4), course: 30, speed: 4),
                                atNanoseconds: t)
            core.tick(atNanoseconds: t + second)
            #expect(core.camera.bearingDegrees == expected)
            // An invalid course keeps the bearing (MapLibre: direction −1).
            core.updateLocation(makeFix(offset(core.userLocation!.coordinate, northMeters: 4), course: 90, speed: 0.1),
                                atNanoseconds: t + second)
            core.tick(atNanoseconds: t + 2 * second)
            #expect(core.camera.bearingDegrees == expected)
        }
    }
}
