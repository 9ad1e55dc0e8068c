import Angles
import NMEA
@testable import Tracking
#if canImport(Glibc)
import Glibc
#endif

/// A deterministic 60-second input script that cycles through every tracking mode, viewport state,
/// transition kind, gesture and authorization change, with a 1 Hz fix on a 300 m circle and 10 Hz
/// headings. `step` issues the inputs due at tick `i` (60 Hz) and ticks; it allocates nothing.
struct TrackingScenario {
    static let ticksPerCycle = 3600
    static let target = GeoCoordinate(latitudeDegrees: 52.53, longitudeDegrees: 13.43)
    static let south = GeoCoordinate(latitudeDegrees: 52.50, longitudeDegrees: 13.38)
    static let north = GeoCoordinate(latitudeDegrees: 52.54, longitudeDegrees: 13.45)

    static func configuration() -> TrackingConfiguration {
        var c = TrackingConfiguration()
        c.temporaryFullAccuracyDurationSeconds = 2
        c.temporaryFullAccuracyPurposeKeys = ["MLNAccuracyAuthorizationDescription", "Navigation"]
        return c
    }

    /// Time of tick `i`, nanoseconds.
    static func time(_ i: Int) -> Int64 { Int64(i) * 1_000_000_000 / 60 }

    static func fix(at i: Int) -> Fix {
        let seconds = Double(i) / 60
        let angle = seconds * 2 * Double.pi / 40
        let c = GeoCoordinate(latitudeDegrees: 52.52 + 0.0027 * cos(angle),
                              longitudeDegrees: 13.41 + 0.0044 * sin(angle))
        var fix = Fix(timeOfDayNanoseconds: 0)
        fix.mode = .threeD
        fix.latitudeDegrees = c.latitudeDegrees
        fix.longitudeDegrees = c.longitudeDegrees
        fix.horizontalAccuracyMeters = 3 + 10 * (0.5 + 0.5 * sin(seconds / 7))
        fix.speedMetersPerSecond = 47
        fix.courseDegrees = Angle.wrap360(90 + angle * 180 / Double.pi)
        fix.trueHeadingDegrees = (i / 60) % 20 < 10 ? Angle.wrap360(80 + angle * 180 / Double.pi) : nil
        fix.utcNanoseconds = 1_750_000_000_000_000_000 + time(i)
        return fix
    }

    static func step(_ core: inout TrackingCore, tick i: Int) {
        let t = time(i)
        let phase = i % ticksPerCycle
        if phase % 60 == 30 {
            if (i / 60) % 60 == 57 {
                var lost = Fix(timeOfDayNanoseconds: 0)
                lost.mode = .noFix
                core.updateLocation(lost, atNanoseconds: t)
            } else {
                core.updateLocation(fix(at: i), atNanoseconds: t)
            }
        }
        if phase % 6 == 3 {
            let heading = Angle.wrap360(Double(i % 720) * 0.5)
            core.updateHeading(HeadingSample(timeNanoseconds: t, trueHeadingDegrees: heading,
                                             magneticHeadingDegrees: Angle.wrap360(heading - 3),
                                             headingAccuracyDegrees: (i / 6) % 50 == 0 ? -1 : 5 + Double(i % 40),
                                             source: .imu))
        }
        let p = ScreenPoint(xPoints: 300, yPoints: 200)
        if phase % 60 == 0 {
            switch phase / 60 {
            case 0:
                core.setShowsUserLocation(true, atNanoseconds: t)
                core.setTrackingMode(.follow, animated: true, atNanoseconds: t)
            case 5: core.setTrackingMode(.followWithCourse, animated: true, atNanoseconds: t)
            case 7: core.setTargetCoordinate(target, animated: true, atNanoseconds: t)
            case 9: core.setTargetCoordinate(nil, animated: false, atNanoseconds: t)
            case 10: core.setTrackingMode(.followWithHeading, animated: false, atNanoseconds: t)
            case 12: core.handleGesture(.rotate(.began, rotationDegrees: 5, focus: p), atNanoseconds: t)
            case 14: core.handleGesture(.pinch(.began, zoomDelta: 0.3, focus: p), atNanoseconds: t)
            case 16: core.handleGesture(.pan(.began, translationXPoints: 3, translationYPoints: 4), atNanoseconds: t)
            case 18: core.setTrackingMode(.recenter, animated: true, atNanoseconds: t)
            case 21: core.setTrackingMode(.navigation, animated: true, atNanoseconds: t)
            case 24: core.setTrackingMode(.compassNavigation, animated: true, atNanoseconds: t)
            case 26: core.handleGesture(.doubleTap(at: p), atNanoseconds: t)
            case 27: core.setContentInsets(EdgeInsets(topPoints: 40), animated: true, atNanoseconds: t)
            case 28: core.setUserLocationVerticalAlignment(.bottom, animated: true, atNanoseconds: t)
            case 29: core.setUserLocationAnchorPoint(ScreenPoint(xPoints: 200, yPoints: 300), atNanoseconds: t)
            case 30:
                core.setUserLocationAnchorPoint(nil, atNanoseconds: t)
                core.setUserLocationVerticalAlignment(.center, animated: false, atNanoseconds: t)
                core.setContentInsets(.zero, animated: false, atNanoseconds: t)
            case 31: core.transitionViewport(to: .followPuck(FollowPuckOptions()), transition: .default, atNanoseconds: t)
            case 33: core.handleGesture(.twoFingerTap(at: p), atNanoseconds: t)
            case 34: core.transitionViewport(to: .followPuck(FollowPuckOptions(bearing: .course)), transition: .immediate,
                                             atNanoseconds: t)
            case 36: core.transitionViewport(to: .overview(OverviewOptions()), transition: .default, atNanoseconds: t)
            case 39: core.transitionViewport(to: .overview(OverviewOptions(geometry: .boundingBox(southWest: south, northEast: north))),
                                             transition: .immediate, atNanoseconds: t)
            case 41: core.idleViewport(atNanoseconds: t)
            case 42: core.changeAuthorization(status: .authorized, accuracy: .reduced, atNanoseconds: t)
            case 43: core.setTrackingMode(.follow, animated: true, atNanoseconds: t)
            case 45: _ = core.requestTemporaryFullAccuracy(purposeKey: "Navigation", atNanoseconds: t)
            case 46: core.changeAuthorization(status: .authorized, accuracy: .full, atNanoseconds: t)
            case 47: core.changeAuthorization(status: .denied, accuracy: .full, atNanoseconds: t)
            case 49:
                core.changeAuthorization(status: .authorized, accuracy: .full, atNanoseconds: t)
                core.setShowsUserLocation(true, atNanoseconds: t)
            case 50: core.setViewportSize(ScreenSize(widthPoints: 640, heightPoints: 480), atNanoseconds: t)
            case 52: core.setViewportSize(.raspberryPiDisplay, atNanoseconds: t)
            case 53: core.setCamera(CameraOptions(zoom: 12, pitchDegrees: 30), durationSeconds: 0.5, atNanoseconds: t)
            case 54: core.setCamera(CameraOptions(center: target, bearingDegrees: 20, pitchDegrees: 0), durationSeconds: 0,
                                    atNanoseconds: t)
            case 55: core.setShowsUserLocation(false, atNanoseconds: t)
            case 56:
                core.setShowsUserHeadingIndicator(true, atNanoseconds: t)
                core.handleGesture(.touchDown, atNanoseconds: t)
            case 58: core.setTrackingMode(.off, animated: false, atNanoseconds: t)
            case 59: core.setShowsUserHeadingIndicator(false, atNanoseconds: t)
            default: break
            }
        } else if phase % 60 == 10 {
            switch phase / 60 {
            case 12: core.handleGesture(.rotate(.ended, rotationDegrees: -2, focus: p), atNanoseconds: t)
            case 14:
                core.handleGesture(.pinch(.changed, zoomDelta: -0.1, focus: p), atNanoseconds: t)
                core.handleGesture(.pinch(.ended, zoomDelta: 0, focus: p), atNanoseconds: t)
                core.handleGesture(.tilt(.began, pitchDeltaDegrees: 10), atNanoseconds: t)
                core.handleGesture(.tilt(.ended, pitchDeltaDegrees: -10), atNanoseconds: t)
            case 16:
                core.handleGesture(.pan(.changed, translationXPoints: 20, translationYPoints: -10), atNanoseconds: t)
                core.handleGesture(.pan(.ended, translationXPoints: 0, translationYPoints: 0), atNanoseconds: t)
            default: break
            }
        }
        core.tick(atNanoseconds: t)
    }
}

/// Every output field as raw bits, for bit-for-bit comparisons.
func appendBits(_ out: inout [UInt64], _ p: PuckState, _ c: CameraState) {
    func d(_ v: Double) { out.append(v.bitPattern) }
    func o(_ v: Double?) { out.append(v.map { $0.bitPattern } ?? 0xFFFF_FFFF_FFFF_FFFF) }
    out.append(UInt64(p.isVisible ? 1 : 0) | UInt64(p.hasLocation ? 2 : 0) | UInt64(p.isPinnedToAnchor ? 4 : 0)
               | UInt64(p.accuracyRingVisible ? 8 : 0) | UInt64(p.haloVisible ? 16 : 0) | UInt64(p.isStale ? 32 : 0)
               | UInt64(p.isReducedAccuracy ? 64 : 0) | UInt64(c.isAnimating ? 128 : 0))
    out.append(UInt64(p.style.rawValue) | UInt64(p.bearingSource.rawValue) << 8 | UInt64(p.headingIndicator.rawValue) << 16
               | UInt64(c.trackingMode.rawValue) << 24 | UInt64(c.trackingState.rawValue) << 32)
    switch c.viewportStatus {
    case .idle: out.append(0)
    case .state(let k): out.append(1 << 8 | UInt64(k.rawValue))
    case .transition(let kind, let k): out.append(2 << 8 | UInt64(kind.rawValue) << 4 | UInt64(k.rawValue))
    }
    d(p.coordinate.latitudeDegrees); d(p.coordinate.longitudeDegrees)
    d(p.screenPoint.xPoints); d(p.screenPoint.yPoints); d(p.horizontalAccuracyMeters)
    o(p.bearingDegrees); o(p.bearingOnScreenDegrees)
    d(p.accuracyRingDiameterPoints); d(p.approximateBorderWidthPoints); d(p.haloDiameterPoints)
    d(p.haloScale); d(p.haloOpacity); d(p.pulsePhase); d(p.dotBreathScale); d(p.dotBreathOpacity)
    d(p.headingFanWidthDegrees); d(p.shadowOffsetPoints); d(p.shadowRadiusPoints)
    out.append(UInt64(bitPattern: p.timeNanoseconds))
    d(c.center.latitudeDegrees); d(c.center.longitudeDegrees); d(c.zoom); d(c.bearingDegrees); d(c.pitchDegrees)
    d(c.padding.topPoints); d(c.padding.leftPoints); d(c.padding.bottomPoints); d(c.padding.rightPoints)
    d(c.anchor.xPoints); d(c.anchor.yPoints); d(c.metersPerPoint)
    d(c.viewportTransitionProgress); d(c.animationProgress)
    out.append(UInt64(bitPattern: c.timeNanoseconds))
}
