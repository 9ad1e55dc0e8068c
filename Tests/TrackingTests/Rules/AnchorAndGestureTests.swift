import Testing
@testable import Tracking
#if canImport(Glibc)
import Glibc
#endif

/// tracking.md 5 (anchor, padding, insets) and tracking.md 6 (gestures and mode changes).
struct AnchorAndGestureTests {
    @Test func rule_5_1_bottomAlignmentPuts95ptOrDot72ptAboveTheBottom() {
        var (course, _) = followingCore(mode: .followWithCourse) { $0.userLocationVerticalAlignment = .bottom }
        course.tick(atNanoseconds: 100 * second)
        #expect(course.puck.style == .course)
        #expect(course.puck.screenPoint == ScreenPoint(xPoints: 400, yPoints: 480 - 95))
        #expect(course.camera.anchor == ScreenPoint(xPoints: 400, yPoints: 480 - 95))
        var dot = followingCore(mode: .follow) { $0.userLocationVerticalAlignment = .bottom }.0
        dot.tick(atNanoseconds: 100 * second)
        #expect(dot.puck.screenPoint == ScreenPoint(xPoints: 400, yPoints: 480 - 72))
        var top = followingCore(mode: .follow) { $0.userLocationVerticalAlignment = .top }.0
        top.tick(atNanoseconds: 100 * second)
        #expect(top.puck.screenPoint == ScreenPoint(xPoints: 400, yPoints: 72))
    }

    @Test func rule_5_1_anchorPointOverrideIsOffsetByContentInsets() {
        var (core, t) = followingCore()
        core.setContentInsets(EdgeInsets(topPoints: 20, leftPoints: 30), animated: false, atNanoseconds: t)
        core.setUserLocationAnchorPoint(ScreenPoint(xPoints: 100, yPoints: 300), atNanoseconds: t + 1)
        core.tick(atNanoseconds: t + 2)
        #expect(core.camera.anchor == ScreenPoint(xPoints: 130, yPoints: 320))
        #expect(core.puck.screenPoint == ScreenPoint(xPoints: 130, yPoints: 320))
    }

    @Test func rule_5_3_paddingFromAnchorOffset() {
        var (core, _) = followingCore { $0.userLocationVerticalAlignment = .bottom }
        core.tick(atNanoseconds: 100 * second)
        // Anchor (400, 408): dx 0, dy 168 → {top 168, left 0, bottom −168, right 0}.
        #expect(core.camera.padding == EdgeInsets(topPoints: 168, leftPoints: 0, bottomPoints: -168, rightPoints: 0))
    }

    @Test func rule_5_4_puckPinnedWhileTrackingRoundedOtherwise() {
        var (core, t) = followingCore()
        core.tick(atNanoseconds: t)
        #expect(core.puck.isPinnedToAnchor && core.puck.screenPoint == ScreenPoint(xPoints: 400, yPoints: 240))
        var free = makeCore()
        free.setCamera(CameraOptions(center: offset(berlin, northMeters: 3.3, eastMeters: 7.7), zoom: 17),
                       durationSeconds: 0, atNanoseconds: 0)
        free.setShowsUserLocation(true, atNanoseconds: 0)
        free.updateLocation(makeFix(berlin), atNanoseconds: 0)
        free.tick(atNanoseconds: 1)
        #expect(!free.puck.isPinnedToAnchor)
        let exact = CameraGeometry.screenPoint(of: WebMercator.project(berlin), camera: free.values, size: free.viewportSize)!
        #expect(exact.xPoints.rounded() != exact.xPoints)
        #expect(free.puck.screenPoint == ScreenPoint(xPoints: exact.xPoints.rounded(), yPoints: exact.yPoints.rounded()))
    }

    @Test func rule_5_5_contentInsetsRetrackWithTheNewAnchor() {
        var (core, t) = followingCore()
        core.setContentInsets(EdgeInsets(topPoints: 100), animated: true, atNanoseconds: t)
        core.tick(atNanoseconds: t + ms(500))
        #expect(core.camera.isAnimating)
        core.tick(atNanoseconds: t + second)
        #expect(core.camera.anchor == ScreenPoint(xPoints: 400, yPoints: 290))
        #expect(near(core.camera.center.latitudeDegrees, core.userLocation!.coordinate.latitudeDegrees, 1e-12))
        // Mode none: the padding eases to the insets, centre kept.
        var free = makeCore()
        free.setCamera(CameraOptions(center: berlin, zoom: 12), durationSeconds: 0, atNanoseconds: 0)
        free.setContentInsets(EdgeInsets(bottomPoints: 80), animated: true, atNanoseconds: 0)
        free.tick(atNanoseconds: ms(300))
        #expect(free.camera.padding == EdgeInsets(bottomPoints: 80))
        #expect(near(free.camera.center.latitudeDegrees, berlin.latitudeDegrees, 1e-12))
    }

    @Test func rule_5_6_pinchWhileTrackingIsAnchoredAtThePuck() {
        var (core, t) = followingCore(zoom: 16)
        let center = core.camera.center
        let zoom = core.camera.zoom
        core.handleGesture(.pinch(.began, zoomDelta: 0.5, focus: ScreenPoint(xPoints: 100, yPoints: 100)), atNanoseconds: t)
        core.handleGesture(.pinch(.ended, zoomDelta: 0.5, focus: ScreenPoint(xPoints: 100, yPoints: 100)), atNanoseconds: t + 1)
        core.tick(atNanoseconds: t + 2)
        #expect(core.trackingMode == .follow)
        #expect(near(core.camera.zoom, zoom + 1, 1e-12))
        #expect(near(core.camera.center.latitudeDegrees, center.latitudeDegrees, 1e-12))
        // Not tracking: anchored at the focus instead (the centre moves).
        var free = makeCore()
        free.setCamera(CameraOptions(center: berlin, zoom: 16), durationSeconds: 0, atNanoseconds: 0)
        let focus = ScreenPoint(xPoints: 100, yPoints: 100)
        let under = CameraGeometry.worldPoint(at: focus, camera: free.values, size: free.viewportSize)!
        free.handleGesture(.pinch(.began, zoomDelta: 1, focus: focus), atNanoseconds: 1)
        let after = CameraGeometry.worldPoint(at: focus, camera: free.values, size: free.viewportSize)!
        #expect(near(after.x, under.x, 1e-12) && near(after.y, under.y, 1e-12))
    }

    @Test func rule_5_7_maxPitchShrinksWithAsymmetricPadding() {
        // A jump with top padding 360 (ArcGIS navigation): centre offset 180 pt of a 480 pt view →
        // 85° + fov/2 − atan((0.5 + 180/480)·2·tan(fov/2)) = 73.18° (maplibre-native #3011; the older
        // mapbox-gl-native formula gave 59.00°).
        var core = makeCore { $0.maximumPitchDegrees = 85 }
        core.setCamera(CameraOptions(pitchDegrees: 85, padding: EdgeInsets(topPoints: 360)), durationSeconds: 0,
                       atNanoseconds: 0)
        core.tick(atNanoseconds: 1)
        let fov = WebMercator.verticalFieldOfViewRadians
        let expected = (85 * Double.pi / 180 + fov / 2 - atan((0.5 + 180.0 / 480) * 2 * tan(fov / 2))) * 180 / Double.pi
        #expect(near(core.camera.pitchDegrees, expected, 1e-9))
        #expect(near(expected, 73.18, 0.01))
    }

    @Test func rule_6_panEndsTrackingAndMovesTheMap() {
        var (core, t) = followingCore(mode: .followWithHeading)
        let before = core.camera.center
        core.handleGesture(.pan(.began, translationXPoints: 0, translationYPoints: 0), atNanoseconds: t)
        core.handleGesture(.pan(.changed, translationXPoints: 0, translationYPoints: 100), atNanoseconds: t + 1)
        core.tick(atNanoseconds: t + 2)
        #expect(core.trackingMode == .none)
        #expect(drain(&core).contains(.didChangeTrackingMode(.none, animated: false)))
        // Dragging the map down by 100 pt shows what was 100 pt north.
        let mpp = WebMercator.metersPerPoint(latitudeDegrees: before.latitudeDegrees, zoom: 16)
        let moved = WebMercator.distanceMeters(before, core.camera.center)
        #expect(near(moved, 100 * mpp, 0.01 * mpp))
        #expect(core.camera.center.latitudeDegrees > before.latitudeDegrees)
    }

    @Test func rule_6_rotateDropsHeadingAndCourseToFollow() {
        for mode in [TrackingMode.followWithHeading, .followWithCourse] {
            var (core, t) = followingCore(mode: mode)
            core.handleGesture(.rotate(.began, rotationDegrees: 10, focus: ScreenPoint(xPoints: 0, yPoints: 0)), atNanoseconds: t)
            #expect(core.trackingMode == .follow)
        }
        var (follow, t) = followingCore(mode: .follow)
        follow.handleGesture(.rotate(.began, rotationDegrees: 10, focus: ScreenPoint(xPoints: 0, yPoints: 0)), atNanoseconds: t)
        #expect(follow.trackingMode == .follow)
    }

    @Test func rule_6_pinchTiltAndTapsKeepTheMode() {
        var (core, t) = followingCore(mode: .followWithCourse)
        let p = ScreenPoint(xPoints: 10, yPoints: 10)
        core.handleGesture(.pinch(.began, zoomDelta: 0.2, focus: p), atNanoseconds: t)
        core.handleGesture(.tilt(.began, pitchDeltaDegrees: 10), atNanoseconds: t + 1)
        core.handleGesture(.doubleTap(at: p), atNanoseconds: t + 2)
        core.handleGesture(.twoFingerTap(at: p), atNanoseconds: t + 3)
        #expect(core.trackingMode == .followWithCourse)
        core.tick(atNanoseconds: t + 4)
        #expect(core.camera.pitchDegrees == 10)
    }

    @Test func rule_6_programmaticCameraChanges() {
        var (a, t) = followingCore(mode: .followWithHeading)
        a.setCamera(CameraOptions(zoom: 12), durationSeconds: 0, atNanoseconds: t)
        #expect(a.trackingMode == .followWithHeading)
        a.setCamera(CameraOptions(bearingDegrees: 30), durationSeconds: 0, atNanoseconds: t + 1)
        #expect(a.trackingMode == .follow)
        a.setCamera(CameraOptions(center: berlin), durationSeconds: 0, atNanoseconds: t + 2)
        #expect(a.trackingMode == .none)
    }

    @Test func rule_6_1_rotationLimitedTo30DegreesBelowZoom3() {
        var core = makeCore()
        core.setCamera(CameraOptions(zoom: 2.5), durationSeconds: 0, atNanoseconds: 0)
        let p = ScreenPoint(xPoints: 400, yPoints: 240)
        core.handleGesture(.rotate(.began, rotationDegrees: 20, focus: p), atNanoseconds: 1)
        core.handleGesture(.rotate(.changed, rotationDegrees: 20, focus: p), atNanoseconds: 2)
        core.tick(atNanoseconds: 3)
        #expect(core.camera.bearingDegrees == 330)
        var high = makeCore()
        high.setCamera(CameraOptions(zoom: 3), durationSeconds: 0, atNanoseconds: 0)
        high.handleGesture(.rotate(.began, rotationDegrees: 20, focus: p), atNanoseconds: 1)
        high.handleGesture(.rotate(.changed, rotationDegrees: 20, focus: p), atNanoseconds: 2)
        high.tick(atNanoseconds: 3)
        #expect(high.camera.bearingDegrees == 320)
    }

    @Test func rule_3_7_noSnapToNorthInHeadingOrCourseModes() {
        for (mode, expected) in [(TrackingMode.followWithCourse, 4.0), (.followWithHeading, 4.0), (.follow, 0.0)] {
            var (core, t) = followingCore(mode: .follow)
            core.setCamera(CameraOptions(bearingDegrees: 4), durationSeconds: 0, atNanoseconds: t)
            core.setTrackingMode(mode, animated: false, atNanoseconds: t + 1)
            core.unrotateIfNeededForGesture(at: t + 2)
            core.tick(atNanoseconds: t + second)
            #expect(core.trackingMode == mode)
            #expect(core.camera.bearingDegrees == expected)
        }
    }
}
