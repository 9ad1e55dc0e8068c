import Testing
@testable import Tracking

/// tracking.md 8 (default puck), tracking.md 9.1 (stale), tracking.md 10.5 / 13.1 (smoothing).
struct PuckTests {
    /// A core showing the location at (52°, 13°) with the camera centred there at `zoom`.
    func puckCore(accuracy: Double?, zoom: Double = 16.35,
                  _ configure: (inout TrackingConfiguration) -> Void = { _ in }) -> TrackingCore {
        let at52 = GeoCoordinate(latitudeDegrees: 52, longitudeDegrees: 13)
        var core = makeCore(configure)
        core.setCamera(CameraOptions(center: at52, zoom: zoom), durationSeconds: 0, atNanoseconds: 0)
        core.setShowsUserLocation(true, atNanoseconds: 0)
        core.updateLocation(makeFix(at52, accuracy: accuracy), atNanoseconds: 0)
        core.tick(atNanoseconds: ms(1))
        return core
    }

    @Test func rule_8_3_ringDiameter69_3ptAt20m_hiddenAt10m() {
        // round(2·accuracy / metresPerPoint) (tracking.md 8.3): 69.3 → 69, 34.7 → 35.
        let twenty = puckCore(accuracy: 20)
        #expect(twenty.puck.accuracyRingDiameterPoints == 69)
        #expect(twenty.puck.accuracyRingVisible)
        let ten = puckCore(accuracy: 10)
        #expect(ten.puck.accuracyRingDiameterPoints == 35)
        #expect(!ten.puck.accuracyRingVisible)
    }

    @Test func rule_8_3_ringShownOnlyAbove37Points() {
        let mpp = WebMercator.metersPerPoint(latitudeDegrees: 52, zoom: 16.35)
        // round(diameter) must exceed 37 (dot 22 + 15).
        #expect(!puckCore(accuracy: 37.49 * mpp / 2).puck.accuracyRingVisible)
        #expect(puckCore(accuracy: 37.51 * mpp / 2).puck.accuracyRingVisible)
        #expect(!puckCore(accuracy: 50) { $0.showsAccuracyRing = false }.puck.accuracyRingVisible)
    }

    @Test func rule_8_4_haloOnlyAtOrBelow10mWith115ptBase() {
        let ten = puckCore(accuracy: 10)
        #expect(ten.puck.haloVisible && ten.puck.haloDiameterPoints == 115)
        #expect(!puckCore(accuracy: 10.01).puck.haloVisible)
        #expect(!puckCore(accuracy: nil).puck.haloVisible)
        // While the ring is visible the halo takes the ring's size (zoom 22: 10 m ≫ 37 pt).
        let close = puckCore(accuracy: 10, zoom: 22)
        #expect(close.puck.accuracyRingVisible && close.puck.haloVisible)
        #expect(close.puck.haloDiameterPoints == close.puck.accuracyRingDiameterPoints)
    }

    @Test func rule_8_4_haloLoops3sWithKeyframes() {
        var core = puckCore(accuracy: 5)
        // The puck appeared at t = 0: phase = t / 3 s.
        core.tick(atNanoseconds: ms(1500))
        #expect(near(core.puck.pulsePhase, 0.5, 1e-12))
        core.tick(atNanoseconds: 3 * second)
        #expect(core.puck.pulsePhase == 0)
        #expect(core.puck.haloScale == 0 && core.puck.haloOpacity == 0.4)
        // Keyframes at eased time 0.2 and 1: scale 0.35 / 1, opacity 0.4 / 0.
        let k = TrackingCore.haloKeyframes(phase: 0.999_999_9)
        #expect(near(k.scale, 1, 1e-5) && near(k.opacity, 0, 1e-5))
        // Find the phase where the eased progress is 0.2 by bisection and check the middle keyframe.
        var lo = 0.0, hi = 1.0
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if TimingCurve.ease.progress(mid) < 0.2 { lo = mid } else { hi = mid }
        }
        let middle = TrackingCore.haloKeyframes(phase: hi)
        #expect(near(middle.scale, 0.35, 1e-6) && near(middle.opacity, 0.4, 1e-6))
    }

    @Test func rule_8_4_haloGating_Q13() {
        #expect(puckCore(accuracy: 50) { $0.haloGating = .always }.puck.haloVisible)
        #expect(!puckCore(accuracy: 5) { $0.haloGating = .never }.puck.haloVisible)
    }

    @Test func rule_8_2_dotBreathes1_5sEachWay() {
        var core = puckCore(accuracy: 5)
        core.tick(atNanoseconds: ms(750))
        #expect(near(core.puck.dotBreathScale, 0.9, 1e-12) && core.puck.dotBreathOpacity == core.puck.dotBreathScale)
        core.tick(atNanoseconds: ms(1500))
        #expect(near(core.puck.dotBreathScale, 1, 1e-12))
        core.tick(atNanoseconds: 3 * second)
        #expect(near(core.puck.dotBreathScale, 0.8, 1e-12))
    }

    @Test func rule_8_5_fanWidthIsTwiceAccuracyClamped40To160() {
        for (accuracy, width) in [(10.0, 40.0), (50.0, 100.0), (90.0, 160.0)] {
            var (core, t) = followingCore(mode: .followWithHeading)
            core.updateHeading(HeadingSample(timeNanoseconds: t, trueHeadingDegrees: 30, magneticHeadingDegrees: 28,
                                             headingAccuracyDegrees: accuracy))
            core.tick(atNanoseconds: t + second)
            #expect(core.puck.headingIndicator == .fan)
            #expect(core.puck.headingFanWidthDegrees == width)
        }
        #expect(TrackingCore.headingFanWidthDegrees(accuracyDegrees: 0) == 40)
    }

    @Test func rule_8_5_arrowOutsideHeadingModeAndRedrawThreshold() {
        var core = puckCore(accuracy: 5) { $0.showsUserHeadingIndicator = true }
        core.updateHeading(HeadingSample(timeNanoseconds: ms(2), trueHeadingDegrees: 100, magneticHeadingDegrees: 98,
                                         headingAccuracyDegrees: 5))
        core.tick(atNanoseconds: second)
        #expect(core.puck.headingIndicator == .arrow && core.puck.bearingOnScreenDegrees == 100)
        // 0.5° (< 0.01 rad = 0.573°) is not redrawn; 0.6° is.
        core.updateHeading(HeadingSample(timeNanoseconds: second, trueHeadingDegrees: 100.5, magneticHeadingDegrees: 98,
                                         headingAccuracyDegrees: 5))
        core.tick(atNanoseconds: 2 * second)
        #expect(core.puck.bearingDegrees == 100.5 && core.puck.bearingOnScreenDegrees == 100)
        core.updateHeading(HeadingSample(timeNanoseconds: 2 * second, trueHeadingDegrees: 100.6, magneticHeadingDegrees: 98,
                                         headingAccuracyDegrees: 5))
        core.tick(atNanoseconds: 3 * second)
        #expect(core.puck.bearingOnScreenDegrees == 100.6)
    }

    @Test func rule_8_6_coursePuckHasNoRingOrHaloAndAFaux3DShadow() {
        var (core, t) = followingCore(mode: .followWithCourse)
        core.tick(atNanoseconds: t)
        #expect(core.puck.style == .course)
        #expect(!core.puck.accuracyRingVisible && !core.puck.haloVisible)
        #expect(core.puck.shadowOffsetPoints == 1 && core.puck.shadowRadiusPoints == 0.75)
        core.handleGesture(.tilt(.began, pitchDeltaDegrees: 30), atNanoseconds: t + 1)
        core.tick(atNanoseconds: t + 2)
        let pitch = 30 * Double.pi / 180
        #expect(near(core.puck.shadowOffsetPoints, pitch * 10, 1e-12))
        #expect(near(core.puck.shadowRadiusPoints, pitch * 5, 1e-12))
    }

    @Test func rule_8_7_approximateStyleZoomFloor7AndBorder() {
        var core = puckCore(accuracy: 5, zoom: 5)
        core.changeAuthorization(status: .authorized, accuracy: .reduced, atNanoseconds: ms(2))
        core.tick(atNanoseconds: ms(3))
        #expect(core.puck.style == .approximate && core.puck.isReducedAccuracy)
        #expect(core.puck.approximateBorderWidthPoints == 1)
        let accuracy = core.puck.horizontalAccuracyMeters
        let lat = core.puck.coordinate.latitudeDegrees
        #expect(near(core.puck.accuracyRingDiameterPoints,
                     TrackingCore.accuracyRingDiameterPoints(accuracyMeters: accuracy, latitudeDegrees: lat, zoom: 7), 1e-9))
        core.setCamera(CameraOptions(zoom: 9), durationSeconds: 0, atNanoseconds: ms(4))
        core.tick(atNanoseconds: ms(5))
        #expect(core.puck.approximateBorderWidthPoints == 2)
        #expect(near(core.puck.accuracyRingDiameterPoints,
                     TrackingCore.accuracyRingDiameterPoints(accuracyMeters: accuracy, latitudeDegrees: lat, zoom: 9), 1e-9))
    }

    @Test func rule_8_8_styleDefaults() {
        let style = PuckStyleProperties()
        #expect(style.puckShadowOpacity == 0.25)
        #expect(style.approximateHaloBorderWidthPoints == 2.0)
        #expect(style.approximateHaloOpacity == 0.25)   // MapLibre with no style override (tracking.md 8.7)
        #expect(style.accuracyRingOpacity == 0.1)
        #expect(style.dotDiameterPoints == 22 && style.coursePuckDiameterPoints == 45)
        #expect(style.courseArrowSizePoints == 22.5 && style.haloDiameterPoints == 115)
        #expect(style.puckFillColor == RGBAColor(red: 1, green: 1, blue: 1, alpha: 1))
        #expect(style.approximateHaloBorderColor == RGBAColor(red: 0, green: 0, blue: 0, alpha: 1))
        #expect(style.haloFillColor == style.tintColor && style.puckArrowFillColor == style.tintColor)
        let core = puckCore(accuracy: 5)
        #expect(core.puck.properties == style)
    }

    @Test func rule_8_9_puckMovesLinearlyOverMinOfFixIntervalAndOneSecond() {
        var core = makeCore()
        core.setCamera(CameraOptions(center: berlin, zoom: 16), durationSeconds: 0, atNanoseconds: 0)
        core.setShowsUserLocation(true, atNanoseconds: 0)
        let utc: Int64 = 1_700_000_000 * second
        core.updateLocation(makeFix(berlin, utc: utc), atNanoseconds: 0)
        core.tick(atNanoseconds: 0)
        // First placement: at once.
        #expect(near(core.puck.coordinate.latitudeDegrees, berlin.latitudeDegrees, 1e-12))
        let b = offset(berlin, northMeters: 10)
        core.updateLocation(makeFix(b, utc: utc + ms(400)), atNanoseconds: second)
        core.tick(atNanoseconds: second + ms(200))
        let yA = WebMercator.project(berlin).y, yB = WebMercator.project(b).y
        #expect(near((WebMercator.project(core.puck.coordinate).y - yA) / (yB - yA), 0.5, 1e-9))
        core.tick(atNanoseconds: second + ms(400))
        #expect(near(core.puck.coordinate.latitudeDegrees, b.latitudeDegrees, 1e-12))
        // A 3 s interval is capped at 1 s.
        let c = offset(berlin, northMeters: 20)
        core.updateLocation(makeFix(c, utc: utc + ms(3400)), atNanoseconds: 2 * second)
        core.tick(atNanoseconds: 2 * second + ms(999))
        #expect(core.puck.coordinate.latitudeDegrees < c.latitudeDegrees)
        core.tick(atNanoseconds: 3 * second)
        #expect(near(core.puck.coordinate.latitudeDegrees, c.latitudeDegrees, 1e-12))
    }

    @Test func rule_10_5_mapboxSmoothingIs1_1s_Q8() {
        var core = makeCore { $0.puckSmoothing = .mapbox }
        core.setShowsUserLocation(true, atNanoseconds: 0)
        core.updateLocation(makeFix(berlin), atNanoseconds: 0)
        let b = offset(berlin, northMeters: 10)
        core.updateLocation(makeFix(b), atNanoseconds: ms(200))
        core.tick(atNanoseconds: ms(200) + ms(1099))
        #expect(core.puck.coordinate.latitudeDegrees < b.latitudeDegrees)
        core.tick(atNanoseconds: ms(200) + ms(1100))
        #expect(near(core.puck.coordinate.latitudeDegrees, b.latitudeDegrees, 1e-12))
    }

    @Test func rule_13_1_jumpsBeyond50000PointsSnap() {
        var core = makeCore()
        core.setCamera(CameraOptions(center: berlin, zoom: 16), durationSeconds: 0, atNanoseconds: 0)
        core.setShowsUserLocation(true, atNanoseconds: 0)
        core.updateLocation(makeFix(berlin), atNanoseconds: 0)
        // 50 km at z16 ≈ 69 000 pt: placed at once.
        let far = offset(berlin, northMeters: 50_000)
        core.updateLocation(makeFix(far), atNanoseconds: second)
        core.tick(atNanoseconds: second)
        #expect(near(core.puck.coordinate.latitudeDegrees, far.latitudeDegrees, 1e-12))
    }

    @Test func rule_8_9_hiddenMoreThan150ptOutsideTheView() {
        var core = makeCore()
        core.setShowsUserLocation(true, atNanoseconds: 0)
        let mpp = WebMercator.metersPerPoint(latitudeDegrees: berlin.latitudeDegrees, zoom: 16)
        core.setCamera(CameraOptions(center: berlin, zoom: 16), durationSeconds: 0, atNanoseconds: 0)
        // 400 pt to the right of the centre = x 800 + 0 → visible; 400 + 150.5 pt → hidden.
        core.updateLocation(makeFix(offset(berlin, northMeters: 0, eastMeters: 549 * mpp)), atNanoseconds: 0)
        core.tick(atNanoseconds: 1)
        #expect(core.puck.isVisible)
        core.updateLocation(makeFix(offset(berlin, northMeters: 0, eastMeters: 551 * mpp)), atNanoseconds: second)
        core.tick(atNanoseconds: 3 * second)
        #expect(!core.puck.isVisible && core.puck.hasLocation)
    }

    @Test func rule_9_1_staleAfter30sRingHidden() {
        var core = makeCore()
        core.tick(atNanoseconds: 0)
        #expect(core.puck.isStale)   // stale until the first fix
        let at52 = GeoCoordinate(latitudeDegrees: 52, longitudeDegrees: 13)
        core.setCamera(CameraOptions(center: at52, zoom: 16.35), durationSeconds: 0, atNanoseconds: 0)
        core.setShowsUserLocation(true, atNanoseconds: 0)
        core.updateLocation(makeFix(at52, accuracy: 20), atNanoseconds: second)
        core.tick(atNanoseconds: second + 30 * second - 1)
        #expect(!core.puck.isStale && core.puck.accuracyRingVisible)
        core.tick(atNanoseconds: second + 30 * second)
        #expect(core.puck.isStale && !core.puck.accuracyRingVisible)
        // The same position again counts as fresh (receivers repeat a still position).
        core.updateLocation(makeFix(at52, accuracy: 20), atNanoseconds: 40 * second)
        core.tick(atNanoseconds: 40 * second)
        #expect(!core.puck.isStale)
        var quick = makeCore { $0.staleTimeoutSeconds = 5 }
        quick.updateLocation(makeFix(at52), atNanoseconds: 0)
        quick.tick(atNanoseconds: 5 * second)
        #expect(quick.puck.isStale)
        var never = makeCore { $0.staleStateEnabled = false }
        never.tick(atNanoseconds: 0)
        #expect(!never.puck.isStale)
    }
}
