import Angles
import Glibc
import CMallocCounter
import NMEA
import Tracking

/// `make bench`: the tracking core's cost per tick with every feature active — 60 Hz ticks, a 10 Hz
/// fix on a moving track, 100 Hz IMU headings, and every 5 s the next of: the eight tracking modes,
/// a default transition to follow-puck, an overview transition, reduced accuracy with a temporary
/// grant, and a pinch/rotate gesture. Prints ns per tick (inputs included), ticks per second and
/// the heap allocations seen while measuring. Times are this thread's CPU time
/// (`CLOCK_THREAD_CPUTIME_ID`), so other processes on the board do not inflate them.
/// Figures only; nothing is asserted.
func runTrackingBench() {
    var configuration = TrackingConfiguration()
    configuration.showsUserHeadingIndicator = true
    configuration.haloGating = .always
    guard var core = try? TrackingCore(configuration: configuration) else {
        print("tracking: the default configuration was rejected")
        return
    }
    let modes: [TrackingMode] = [.follow, .followWithCourse, .followWithHeading, .recenter, .navigation,
                                 .compassNavigation, .none, .off]
    let ticks = 600_000
    let tickInterval: Int64 = 1_000_000_000 / 60

    var withTicks = true

    func step(_ i: Int) {
        let t = Int64(i) * tickInterval
        let seconds = Double(i) / 60
        if i % 6 == 0 {
            let angle = seconds * 2 * Double.pi / 60
            var fix = Fix(timeOfDayNanoseconds: 0)
            fix.mode = .threeD
            fix.latitudeDegrees = 52.52 + 0.004 * cos(angle)
            fix.longitudeDegrees = 13.41 + 0.0066 * sin(angle)
            fix.horizontalAccuracyMeters = 4 + 8 * (0.5 + 0.5 * sin(seconds / 5))
            fix.speedMetersPerSecond = 28
            fix.courseDegrees = Angle.wrap360(90 + angle * 180 / Double.pi)
            fix.utcNanoseconds = 1_750_000_000_000_000_000 + t
            core.updateLocation(fix, atNanoseconds: t)
        }
        let heading = Angle.wrap360(seconds * 17)
        core.updateHeading(HeadingSample(timeNanoseconds: t, trueHeadingDegrees: heading,
                                         magneticHeadingDegrees: heading, headingAccuracyDegrees: 12))
        if i % 300 == 0 {
            let slot = (i / 300) % 12
            switch slot {
            case 0..<8:
                if slot == 0 { core.setShowsUserLocation(true, atNanoseconds: t) }
                core.setTrackingMode(modes[slot], animated: true, atNanoseconds: t)
            case 8: core.transitionViewport(to: .followPuck(FollowPuckOptions()), transition: .default, atNanoseconds: t)
            case 9: core.transitionViewport(to: .overview(OverviewOptions()), transition: .default, atNanoseconds: t)
            case 10:
                core.changeAuthorization(status: .authorized, accuracy: .reduced, atNanoseconds: t)
                _ = core.requestTemporaryFullAccuracy(purposeKey: "MLNAccuracyAuthorizationDescription", atNanoseconds: t)
            default:
                core.changeAuthorization(status: .authorized, accuracy: .full, atNanoseconds: t)
                let p = ScreenPoint(xPoints: 400, yPoints: 240)
                core.handleGesture(.pinch(.began, zoomDelta: 0.5, focus: p), atNanoseconds: t)
                core.handleGesture(.rotate(.ended, rotationDegrees: 3, focus: p), atNanoseconds: t)
            }
        }
        if withTicks { core.tick(atNanoseconds: t) }
        while core.popEvent() != nil {}
    }

    for i in 0..<36_000 { step(i) }   // warm-up: one full cycle of every feature
    var start = timespec(), end = timespec()
    let allocationsBefore = mc_thread_allocations()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
    for i in 36_000..<(36_000 + ticks) { step(i) }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
    let allocations = mc_thread_allocations() &- allocationsBefore
    let elapsed = Double(end.tv_sec - start.tv_sec) * 1e9 + Double(end.tv_nsec - start.tv_nsec)
    let perTick = elapsed / Double(ticks)
    // Second pass: the same inputs without `tick`; the difference is the cost of the ticks alone.
    withTicks = false
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
    for i in (36_000 + ticks)..<(36_000 + 2 * ticks) { step(i) }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
    let inputsOnly = (Double(end.tv_sec - start.tv_sec) * 1e9 + Double(end.tv_nsec - start.tv_nsec)) / Double(ticks)
    var line = "tracking: \(ticks) ticks (60 Hz, 10 Hz fixes, 100 Hz headings, all modes/viewports/authorization): "
    line += "\(String(Int(perTick.rounded()))) ns/tick incl. inputs, "
    line += "\(String(Int((1e9 / perTick).rounded()))) ticks/s; tick alone ≈ \(String(Int((perTick - inputsOnly).rounded()))) ns; "
    line += "\(allocations) heap allocations (target ≤ 2000 ns/tick)"
    print(line)
}
