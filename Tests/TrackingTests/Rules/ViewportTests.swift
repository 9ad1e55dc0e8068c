import Testing
@testable import Tracking

/// tracking.md 10.7–10.12: Mapbox viewport states and transitions.
struct ViewportTests {
    /// A core showing a location at Berlin with a heading of 30°, camera at `zoom`, bearing `bearing`.
    func viewportCore(zoom: Double, bearing: Double = 0, cameraOffsetMeters: Double = 0,
                      _ configure: (inout TrackingConfiguration) -> Void = { _ in }) -> TrackingCore {
        var core = makeCore(configure)
        core.setCamera(CameraOptions(center: offset(berlin, northMeters: cameraOffsetMeters), zoom: zoom,
                                     bearingDegrees: bearing), durationSeconds: 0, atNanoseconds: 0)
        core.setShowsUserLocation(true, atNanoseconds: 0)
        core.updateLocation(makeFix(berlin), atNanoseconds: 0)
        core.updateHeading(HeadingSample(timeNanoseconds: 0, trueHeadingDegrees: 30, magneticHeadingDegrees: 27,
                                         headingAccuracyDegrees: 5))
        core.tick(atNanoseconds: second)
        _ = drain(&core)
        return core
    }

    @Test func rule_10_7_followPuckDefaults() {
        let o = FollowPuckOptions()
        #expect(o.zoom == 16.35 && o.pitchDegrees == 45 && o.bearing == .heading && o.padding == nil)
        let overview = OverviewOptions()
        #expect(overview.bearingDegrees == 0 && overview.pitchDegrees == 0 && overview.padding == nil)
        #expect(overview.maxZoom == nil && overview.animationDurationSeconds == 1 && overview.geometryPadding == .zero)
    }

    @Test func rule_10_7_followPuckSetsTheCameraFromThePuckEveryFrame() {
        var core = viewportCore(zoom: 12)
        core.setCamera(CameraOptions(padding: EdgeInsets(bottomPoints: 40)), durationSeconds: 0, atNanoseconds: second)
        _ = drain(&core)
        let token = core.transitionViewport(to: .followPuck(FollowPuckOptions()), transition: .immediate, atNanoseconds: second)
        #expect(drain(&core) == [.didChangeViewportStatus(.transition(.immediate, to: .followPuck), reason: .transitionStarted),
                                 .didChangeViewportStatus(.state(.followPuck), reason: .transitionSucceeded),
                                 .completed(token, success: true)])
        core.tick(atNanoseconds: second + 1)
        #expect(core.camera.viewportStatus == .state(.followPuck))
        #expect(core.camera.zoom == 16.35 && core.camera.pitchDegrees == 45 && core.camera.bearingDegrees == 30)
        #expect(core.camera.padding == EdgeInsets(bottomPoints: 40))   // nil padding: untouched
        // The puck moves: the camera is on the interpolated puck on every tick, without animation.
        core.updateLocation(makeFix(offset(berlin, northMeters: 20)), atNanoseconds: 2 * second)
        core.tick(atNanoseconds: 2 * second + ms(300))
        #expect(core.camera.center == core.puck.coordinate && !core.camera.isAnimating)
        // nil fields are not touched.
        var untouched = viewportCore(zoom: 12, bearing: 77)
        untouched.transitionViewport(to: .followPuck(FollowPuckOptions(zoom: nil, pitchDegrees: nil, bearing: nil)),
                                     transition: .immediate, atNanoseconds: second)
        untouched.tick(atNanoseconds: second + 1)
        #expect(untouched.camera.zoom == 12 && untouched.camera.bearingDegrees == 77 && untouched.camera.pitchDegrees == 0)
    }

    @Test func rule_10_7_followPuckBearingCourseAndConstant() {
        var core = viewportCore(zoom: 15)
        core.updateLocation(makeFix(offset(berlin, northMeters: 5), course: 200, speed: 3), atNanoseconds: second)
        core.transitionViewport(to: .followPuck(FollowPuckOptions(bearing: .course)), transition: .immediate, atNanoseconds: second)
        core.tick(atNanoseconds: second + 1)
        #expect(core.camera.bearingDegrees == 200)
        core.transitionViewport(to: .followPuck(FollowPuckOptions(bearing: .constant(12))), transition: .immediate,
                                atNanoseconds: second + 2)
        core.tick(atNanoseconds: second + 3)
        #expect(core.camera.bearingDegrees == 12)
    }

    @Test func rule_10_8_overviewFitsTheRecentTrackAndRefitsIn1sLinear() {
        var core = viewportCore(zoom: 16)
        var t = second
        for i in 1...20 {
            t += second
            core.updateLocation(makeFix(offset(berlin, northMeters: Double(i) * 50)), atNanoseconds: t)
        }
        core.transitionViewport(to: .overview(OverviewOptions()), transition: .immediate, atNanoseconds: t)
        core.tick(atNanoseconds: t)
        #expect(core.camera.viewportStatus == .state(.overview))
        #expect(core.camera.bearingDegrees == 0 && core.camera.pitchDegrees == 0)
        let values = core.values
        let southEnd = CameraGeometry.screenPoint(of: WebMercator.project(berlin), camera: values, size: core.viewportSize)!
        let northEnd = CameraGeometry.screenPoint(of: WebMercator.project(offset(berlin, northMeters: 1000)),
                                                  camera: values, size: core.viewportSize)!
        // The 1 km track spans the full height exactly (it is taller than wide).
        #expect(near(southEnd.yPoints, 480, 1e-6) && near(northEnd.yPoints, 0, 1e-6))
        let fittedZoom = core.camera.zoom
        // A new fix 20 m further north extends the track: a 1 s linear refit.
        core.updateLocation(makeFix(offset(berlin, northMeters: 1100)), atNanoseconds: t + second)
        core.tick(atNanoseconds: t + second + ms(500))
        #expect(core.camera.isAnimating)
        core.tick(atNanoseconds: t + 2 * second)
        #expect(!core.camera.isAnimating && core.camera.zoom < fittedZoom)
    }

    @Test func rule_10_8_overviewOfABoundingBoxWithGeometryPadding() {
        var core = viewportCore(zoom: 3)
        let sw = GeoCoordinate(latitudeDegrees: 52.3, longitudeDegrees: 13.0)
        let ne = GeoCoordinate(latitudeDegrees: 52.7, longitudeDegrees: 13.8)
        let options = OverviewOptions(geometry: .boundingBox(southWest: sw, northEast: ne),
                                      geometryPadding: EdgeInsets(topPoints: 20, leftPoints: 20, bottomPoints: 20, rightPoints: 20))
        core.transitionViewport(to: .overview(options), transition: .immediate, atNanoseconds: second)
        core.tick(atNanoseconds: second)
        let v = core.values
        let a = CameraGeometry.screenPoint(of: WebMercator.project(sw), camera: v, size: core.viewportSize)!
        let b = CameraGeometry.screenPoint(of: WebMercator.project(ne), camera: v, size: core.viewportSize)!
        #expect(a.xPoints >= 20 - 1e-6 && b.xPoints <= 780 + 1e-6 && b.yPoints >= 20 - 1e-6 && a.yPoints <= 460 + 1e-6)
        #expect(near(a.xPoints, 20, 1e-6) || near(b.yPoints, 20, 1e-6))
    }

    @Test func rule_10_9_defaultTransitionPlanZoomingIn() {
        let plan = DefaultTransitionPlan(centerDistancePoints: 1000, currentZoom: 10, targetZoom: 16.35)
        // Unscaled: centre 2 s @ 0; zoom 6.35/2.2 s @ 1 s; bearing 1.8 s @ zoomEnd − 1.8;
        // pitch/padding 1.2 s @ zoomEnd − 1.2 + 0.1; longest = zoomEnd + 0.1 → scaled to 3.5 s.
        let zoomDuration = 6.35 / 2.2
        let zoomEnd = 1 + zoomDuration
        let k = 3.5 / (zoomEnd + 0.1)
        #expect(near(plan.centerDurationSeconds, 2 * k, 1e-12) && plan.centerDelaySeconds == 0)
        #expect(near(plan.zoomDelaySeconds, 1 * k, 1e-12) && near(plan.zoomDurationSeconds, zoomDuration * k, 1e-12))
        #expect(near(plan.bearingDelaySeconds, (zoomEnd - 1.8) * k, 1e-12) && near(plan.bearingDurationSeconds, 1.8 * k, 1e-12))
        #expect(near(plan.pitchDelaySeconds, (zoomEnd - 1.1) * k, 1e-12) && near(plan.pitchDurationSeconds, 1.2 * k, 1e-12))
        #expect(near(plan.paddingDelaySeconds, plan.pitchDelaySeconds, 1e-12))
        #expect(near(plan.totalSeconds, 3.5, 1e-12))
        // Short move, small zoom: no scaling, centre capped at 3 s for long distances.
        let short = DefaultTransitionPlan(centerDistancePoints: 250, currentZoom: 15, targetZoom: 16.1)
        #expect(short.centerDurationSeconds == 0.5 && near(short.zoomDurationSeconds, 0.5, 1e-12))
        #expect(short.zoomDelaySeconds == 0.25 && short.bearingDelaySeconds == 0)
        #expect(near(short.pitchDelaySeconds, 0, 1e-12) && near(short.totalSeconds, 1.8, 1e-12))
        #expect(DefaultTransitionPlan(centerDistancePoints: 5000, currentZoom: 15, targetZoom: 15.1,
                                      maxDurationSeconds: 60).centerDurationSeconds == 3)
    }

    @Test func rule_10_9_defaultTransitionPlanZoomingOut() {
        let plan = DefaultTransitionPlan(centerDistancePoints: 1000, currentZoom: 18, targetZoom: 16.35)
        #expect(plan.centerDurationSeconds == 1.0 && plan.centerDelaySeconds == 0.8)
        #expect(plan.zoomDurationSeconds == 1.8 && plan.zoomDelaySeconds == 0)
        #expect(plan.bearingDurationSeconds == 1.2 && plan.bearingDelaySeconds == 0.6)
        #expect(plan.pitchDurationSeconds == 1.0 && plan.pitchDelaySeconds == 0)
        #expect(plan.paddingDurationSeconds == 1.2 && plan.paddingDelaySeconds == 0)
        #expect(plan.totalSeconds == 1.8)
        #expect(DefaultTransitionPlan(centerDistancePoints: 0, currentZoom: 16.35, targetZoom: 16.35).totalSeconds == 1.8)
    }

    @Test func rule_10_9_zoomOutTransitionRunsTheTableWithEaseInOut() {
        var core = viewportCore(zoom: 18)
        let t0 = 2 * second
        let token = core.transitionViewport(to: .followPuck(FollowPuckOptions()), transition: .default, atNanoseconds: t0)
        core.tick(atNanoseconds: t0 + ms(900))
        // Zoom 1.8 s easeInOut from 18 to 16.35: halfway at 0.9 s (symmetric curve).
        #expect(near(core.camera.zoom, (18 + 16.35) / 2, 1e-6))
        #expect(near(core.camera.viewportTransitionProgress, 0.5, 1e-9))
        core.tick(atNanoseconds: t0 + ms(1799))
        #expect(core.camera.viewportStatus == .transition(.default, to: .followPuck))
        core.tick(atNanoseconds: t0 + ms(1800))
        #expect(core.camera.viewportStatus == .state(.followPuck))
        #expect(drain(&core).contains(.completed(token, success: true)))
        #expect(core.camera.zoom == 16.35 && core.camera.pitchDegrees == 45)
    }

    @Test func rule_10_9_zoomInTransitionIsCappedAt3_5s() {
        var core = viewportCore(zoom: 10, cameraOffsetMeters: 30_000)
        let t0 = 2 * second
        core.transitionViewport(to: .followPuck(FollowPuckOptions()), transition: .default, atNanoseconds: t0)
        core.tick(atNanoseconds: t0 + ms(3499))
        #expect(core.camera.viewportStatus == .transition(.default, to: .followPuck))
        core.tick(atNanoseconds: t0 + ms(3500))
        #expect(core.camera.viewportStatus == .state(.followPuck))
        #expect(near(core.camera.center.latitudeDegrees, core.puck.coordinate.latitudeDegrees, 1e-12))
    }

    @Test func rule_10_9_transitionFollowsTheMovingPuck() {
        var core = viewportCore(zoom: 17)
        core.transitionViewport(to: .followPuck(FollowPuckOptions()), transition: .default, atNanoseconds: 2 * second)
        let moved = offset(berlin, northMeters: 40)
        core.updateLocation(makeFix(moved), atNanoseconds: 2 * second + ms(500))
        run(&core, from: 2 * second + ms(500), to: 2 * second + ms(1800))
        #expect(core.camera.viewportStatus == .state(.followPuck))
        #expect(near(core.camera.center.latitudeDegrees, moved.latitudeDegrees, 1e-12))
    }

    @Test func rule_10_11_userInteractionIdlesAndFailsTheTransition() {
        var core = viewportCore(zoom: 18)
        let token = core.transitionViewport(to: .followPuck(FollowPuckOptions()), transition: .default, atNanoseconds: 2 * second)
        _ = drain(&core)
        core.handleGesture(.pan(.began, translationXPoints: 0, translationYPoints: 0), atNanoseconds: 2 * second + ms(100))
        #expect(drain(&core) == [.completed(token, success: false),
                                 .didChangeViewportStatus(.idle, reason: .userInteraction)])
        core.tick(atNanoseconds: 3 * second)
        #expect(core.camera.viewportStatus == .idle && !core.camera.isAnimating)
        // Double tap idles the follow state too.
        var following = viewportCore(zoom: 15)
        following.transitionViewport(to: .followPuck(FollowPuckOptions()), transition: .immediate, atNanoseconds: 2 * second)
        _ = drain(&following)
        following.handleGesture(.doubleTap(at: ScreenPoint(xPoints: 10, yPoints: 10)), atNanoseconds: 3 * second)
        #expect(drain(&following) == [.didChangeViewportStatus(.idle, reason: .userInteraction)])
        // Disabled: a gesture does not idle.
        var sticky = viewportCore(zoom: 15) { $0.transitionsToIdleUponUserInteraction = false }
        sticky.transitionViewport(to: .followPuck(FollowPuckOptions()), transition: .immediate, atNanoseconds: 2 * second)
        sticky.handleGesture(.pan(.began, translationXPoints: 0, translationYPoints: 0), atNanoseconds: 3 * second)
        #expect(sticky.camera.viewportStatus == .state(.followPuck) || sticky.viewportStatus == .state(.followPuck))
    }

    @Test func rule_10_11_sameStateCompletesTrueSameTransitionFalse() {
        var core = viewportCore(zoom: 18)
        let first = core.transitionViewport(to: .followPuck(FollowPuckOptions()), transition: .default, atNanoseconds: 2 * second)
        let again = core.transitionViewport(to: .followPuck(FollowPuckOptions()), transition: .default, atNanoseconds: 2 * second + 1)
        #expect(drain(&core).last == .completed(again, success: false))
        run(&core, from: 2 * second + 1, to: 5 * second)
        #expect(drain(&core).contains(.completed(first, success: true)))
        let third = core.transitionViewport(to: .followPuck(FollowPuckOptions()), transition: .default, atNanoseconds: 6 * second)
        #expect(drain(&core) == [.completed(third, success: true)])
    }

    @Test func rule_10_11_trackingModesAndViewportExcludeEachOther() {
        var core = viewportCore(zoom: 15)
        core.setTrackingMode(.follow, animated: true, atNanoseconds: second)
        _ = drain(&core)
        core.transitionViewport(to: .followPuck(FollowPuckOptions()), transition: .immediate, atNanoseconds: 2 * second)
        #expect(core.trackingMode == .none)
        #expect(drain(&core).first == .didChangeTrackingMode(.none, animated: false))
        core.setTrackingMode(.follow, animated: true, atNanoseconds: 3 * second)
        #expect(core.viewportStatus == .idle)
        #expect(drain(&core).first == .didChangeViewportStatus(.idle, reason: .idleRequested))
    }

    @Test func rule_10_12_transitionBearingTakesTheShortestPath() {
        var core = viewportCore(zoom: 16, bearing: 350)
        core.transitionViewport(to: .followPuck(FollowPuckOptions(bearing: .constant(10))), transition: .default,
                                atNanoseconds: 2 * second)
        var t = 2 * second
        var bearings: [Double] = []
        while t <= 4 * second {
            core.tick(atNanoseconds: t)
            bearings.append(core.camera.bearingDegrees)
            t += ms(50)
        }
        #expect(bearings.allSatisfy { $0 >= 350 || $0 <= 10 })
        #expect(bearings.last == 10)
    }

    @Test func rule_10_11_transitionWaitsForTheFirstLocation() {
        var core = makeCore()
        core.transitionViewport(to: .followPuck(FollowPuckOptions()), transition: .default, atNanoseconds: 0)
        core.tick(atNanoseconds: 5 * second)
        #expect(core.camera.viewportStatus == .transition(.default, to: .followPuck))
        #expect(core.camera.viewportTransitionProgress == 0)
        core.updateLocation(makeFix(berlin), atNanoseconds: 5 * second)
        run(&core, from: 5 * second, to: 9 * second)
        #expect(core.camera.viewportStatus == .state(.followPuck))
    }
}
