import Testing
@testable import Tracking
#if canImport(Glibc)
import Glibc
#endif

/// tracking.md 11: ArcGIS LocationDisplay auto-pan modes as aliases with their own rules.
struct ArcGISTests {
    @Test func rule_11_1_aliasesMapToMapLibreBehaviours() {
        #expect(TrackingMode.off.behavior == .none && TrackingMode.recenter.behavior == .follow)
        #expect(TrackingMode.navigation.behavior == .course && TrackingMode.compassNavigation.behavior == .heading)
        #expect(TrackingMode.allCases.filter(\.isArcGIS) == [.off, .recenter, .navigation, .compassNavigation])
        #expect(TrackingMode(name: "compassNavigation") == .compassNavigation && TrackingMode(name: "nope") == nil)
    }

    @Test func rule_11_4_navigationPuck12_5PercentAboveTheBottom() {
        var (core, t) = followingCore(mode: .navigation)
        core.updateLocation(makeFix(offset(core.userLocation!.coordinate, northMeters: 10), course: 90, speed: 5),
                            atNanoseconds: t)
        run(&core, from: t, to: t + 2 * second)
        // 480 − 0.125·480 = 420; padding (derived): top = H·(1 − 2f) = 360, bottom 0.
        #expect(core.camera.anchor == ScreenPoint(xPoints: 400, yPoints: 420))
        #expect(core.camera.padding == EdgeInsets(topPoints: 360, leftPoints: 0, bottomPoints: 0, rightPoints: 0))
        #expect(core.puck.screenPoint == ScreenPoint(xPoints: 400, yPoints: 420))
        // Course-up.
        #expect(core.camera.bearingDegrees == 90)
        // The factor is configurable.
        var (other, t2) = followingCore(mode: .navigation) { $0.navigationPointHeightFactor = 0.25 }
        other.tick(atNanoseconds: t2 + 3 * second)
        #expect(other.camera.anchor.yPoints == 480 - 120)
    }

    @Test func rule_11_3_recenterPansOnlyWhenLeavingTheWanderExtent() {
        // Factor 0.5: box 400 × 240 pt around the centre. (The first fix zoomed to 1:10 000.)
        var (core, t) = followingCore(zoom: 16, mode: .recenter)
        let here = core.camera.center
        let mpp = WebMercator.metersPerPoint(latitudeDegrees: here.latitudeDegrees, zoom: core.camera.zoom)
        core.updateLocation(makeFix(offset(here, northMeters: 110 * mpp)), atNanoseconds: t + ms(10))
        core.tick(atNanoseconds: t + ms(20))
        #expect(!core.camera.isAnimating)   // 110 pt < 120 pt: inside
        // The symbol wanders (not pinned at the anchor, tracking.md 5.4): it is drawn ~110 pt above the centre
        // once its 1 s move ends.
        core.tick(atNanoseconds: t + ms(1020))
        #expect(!core.puck.isPinnedToAnchor)
        #expect(abs(core.puck.screenPoint.yPoints - (240 - 110)) <= 1)
        core.updateLocation(makeFix(offset(here, northMeters: 130 * mpp)), atNanoseconds: t + ms(1030))
        core.tick(atNanoseconds: t + ms(1040))
        #expect(core.camera.isAnimating)    // outside: re-centre
        run(&core, from: t + ms(1040), to: t + 3 * second)
        #expect(near(core.camera.center.latitudeDegrees, offset(here, northMeters: 130 * mpp).latitudeDegrees, 1e-12))
        // Factor 0: pan on every fix, even a sub-point move.
        var (eager, t3) = followingCore(zoom: 16, mode: .recenter) { $0.wanderExtentFactor = 0 }
        eager.tick(atNanoseconds: t3)
        #expect(!eager.camera.isAnimating)
        eager.updateLocation(makeFix(offset(eager.camera.center, northMeters: 0.2 * mpp)), atNanoseconds: t3 + ms(10))
        eager.tick(atNanoseconds: t3 + ms(20))
        #expect(eager.camera.isAnimating)
    }

    @Test func rule_11_5_initialZoomScaleOnTheFirstFixAfterOff_Q2() {
        for (convention, expected) in [(ScaleConvention.trueScaleAtLatitude, 14.15), (.nominalEquatorial, 14.85)] {
            var core = makeCore { $0.initialZoomScaleConvention = convention }
            let at52 = GeoCoordinate(latitudeDegrees: 52, longitudeDegrees: 13)
            core.setCamera(CameraOptions(center: at52, zoom: 12), durationSeconds: 0, atNanoseconds: 0)
            core.updateLocation(makeFix(at52), atNanoseconds: 0)
            core.setTrackingMode(.recenter, animated: true, atNanoseconds: ms(1))
            run(&core, from: ms(1), to: 10 * second)
            #expect(near(core.camera.zoom, expected, 0.01))
            // 1:10 000 at 96 dpi = 2.646 m per point.
            let mpp = WebMercator.metersPerPoint(latitudeDegrees: convention == .trueScaleAtLatitude ? 52 : 0, zoom: core.camera.zoom)
            #expect(near(mpp, 10_000 * 0.0254 / 96, 1e-9))
        }
    }

    @Test func rule_11_2_anyViewpointGestureTurnsArcGISModesOff() {
        let gestures: [Gesture] = [
            .pinch(.began, zoomDelta: 0.1, focus: ScreenPoint(xPoints: 1, yPoints: 1)),
            .rotate(.began, rotationDegrees: 1, focus: ScreenPoint(xPoints: 1, yPoints: 1)),
            .tilt(.began, pitchDeltaDegrees: 1),
            .doubleTap(at: ScreenPoint(xPoints: 1, yPoints: 1)),
            .pan(.began, translationXPoints: 1, translationYPoints: 0),
        ]
        for g in gestures {
            var (core, t) = followingCore(mode: .navigation)
            core.handleGesture(g, atNanoseconds: t)
            #expect(core.trackingMode == .off)
        }
        var (kept, t) = followingCore(mode: .compassNavigation)
        kept.handleGesture(.touchDown, atNanoseconds: t)
        #expect(kept.trackingMode == .compassNavigation)
        kept.setCamera(CameraOptions(zoom: 12), durationSeconds: 0, atNanoseconds: t + 1)
        #expect(kept.trackingMode == .off)
    }

    @Test func rule_11_1_compassNavigationIsHeadingUpCentredWithAnArrow() {
        var (core, t) = followingCore(mode: .compassNavigation) { $0.userLocationVerticalAlignment = .bottom }
        core.updateHeading(HeadingSample(timeNanoseconds: t, trueHeadingDegrees: 120, magneticHeadingDegrees: 117,
                                         headingAccuracyDegrees: 10))
        core.tick(atNanoseconds: t + second)
        #expect(core.camera.bearingDegrees == 120)
        #expect(core.camera.anchor == ScreenPoint(xPoints: 400, yPoints: 240))   // centred, alignment ignored
        #expect(core.puck.headingIndicator == .arrow)
    }

    @Test func rule_11_6_courseSymbolOnMovement() {
        var (core, t) = followingCore(mode: .navigation) { $0.arcGISUsesCourseSymbolOnMovement = true }
        core.tick(atNanoseconds: t)
        #expect(core.puck.style == .dot)   // no valid course yet
        core.updateLocation(makeFix(offset(core.userLocation!.coordinate, northMeters: 5), course: 10, speed: 3),
                            atNanoseconds: t + 1)
        core.tick(atNanoseconds: t + 2)
        #expect(core.puck.style == .course)
        var (plain, t2) = followingCore(mode: .navigation)
        plain.updateLocation(makeFix(offset(plain.userLocation!.coordinate, northMeters: 5), course: 10, speed: 3),
                             atNanoseconds: t2 + 1)
        plain.tick(atNanoseconds: t2 + 2)
        #expect(plain.puck.style == .dot)
    }
}
