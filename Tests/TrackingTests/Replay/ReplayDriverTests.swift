import Testing
import NMEA
@testable import Tracking

/// `ReplayDriver`: 60 Hz of log time, time jumps capped and resynchronised; real gpsd logs.
struct ReplayDriverTests {
    /// Replays `entries` (with `mode`) and returns the driver and every tick time.
    func replay(_ entries: [GpsdTPVLog.Entry], mode: TrackingMode, drainSeconds: Double = 3,
                _ configure: (inout TrackingConfiguration) -> Void = { _ in }) -> (ReplayDriver, [Int64]) {
        var driver = ReplayDriver(core: makeCore(configure), startNanoseconds: 1_000 * second)
        driver.core.setTrackingMode(mode, animated: true, atNanoseconds: 1_000 * second)
        var ticks: [Int64] = []
        for e in entries {
            driver.deliver(e.fix, logTimeNanoseconds: e.logTimeNanoseconds)
            while let t = driver.nextTick() { ticks.append(t) }
        }
        driver.finish(drainSeconds: drainSeconds)
        while let t = driver.nextTick() { ticks.append(t) }
        return (driver, ticks)
    }

    @Test func ticksAt60HzOfLogTime() {
        let fixes = (0..<5).map { i in
            GpsdTPVLog.Entry(logTimeNanoseconds: 5_000 * second + Int64(i) * second,
                             fix: makeFix(offset(berlin, northMeters: Double(i) * 10)))
        }
        let (driver, ticks) = replay(fixes, mode: .follow, drainSeconds: 1)
        // 4 s between first and last fix + 1 s drain, 60 per second, the drain end included.
        #expect(ticks.count == 5 * 60 + 1)
        for i in 1..<ticks.count {
            let dt = ticks[i] - ticks[i - 1]
            #expect(dt == 16_666_666 || dt == 16_666_667)
        }
        #expect(ticks.first == 1_000 * second && ticks.last == 1_005 * second)
        #expect(driver.skippedTicks == 0 && driver.forwardJumps == 0 && driver.backwardJumps == 0)
    }

    @Test func gapIsCappedThenResynchronised() {
        let fixes = [
            GpsdTPVLog.Entry(logTimeNanoseconds: 0, fix: makeFix(berlin)),
            GpsdTPVLog.Entry(logTimeNanoseconds: second, fix: makeFix(offset(berlin, northMeters: 5))),
            GpsdTPVLog.Entry(logTimeNanoseconds: 101 * second, fix: makeFix(offset(berlin, northMeters: 10))),
        ]
        var driver = ReplayDriver(core: makeCore(), startNanoseconds: 0)
        driver.core.setShowsUserLocation(true, atNanoseconds: 0)
        var ticks: [Int64] = []
        var staleBeforeThirdFix = false
        for e in fixes {
            driver.deliver(e.fix, logTimeNanoseconds: e.logTimeNanoseconds)
            while let t = driver.nextTick() { ticks.append(t) }
            staleBeforeThirdFix = staleBeforeThirdFix || driver.core.puck.isStale
        }
        // 60 ticks between the first two fixes, then at most 300 in the 100 s gap.
        #expect(ticks.count == 60 + 300)
        #expect(driver.forwardJumps == 1)
        #expect(driver.skippedTicks == UInt64(100 * 60 - 300))
        // Core time kept the gap's real length: the fix after it lands at 101 s, the puck went stale in between.
        #expect(driver.inputNanoseconds == 101 * second)
        #expect(driver.nextTickNanoseconds == 101 * second)
        driver.deliver(makeFix(berlin), logTimeNanoseconds: 102 * second)
        var after: [Int64] = []
        while let t = driver.nextTick() { after.append(t) }
        #expect(after.first == 101 * second && after.count == 60)
    }

    @Test func backwardTimeNeverStormsOrStalls() {
        var driver = ReplayDriver(core: makeCore(), startNanoseconds: 0)
        var ticks: [Int64] = []
        let times: [Int64] = [50 * second, 51 * second, 10 * second, 11 * second, 12 * second]
        for (i, t) in times.enumerated() {
            driver.deliver(makeFix(offset(berlin, northMeters: Double(i))), logTimeNanoseconds: t)
            while let tick = driver.nextTick() { ticks.append(tick) }
        }
        #expect(driver.backwardJumps == 1)
        // 1 s, then 0 s across the jump (the fix lands at the previous input's time), then 1 s + 1 s.
        #expect(ticks.count == 3 * 60)
        #expect(zip(ticks, ticks.dropFirst()).allSatisfy { $0 < $1 })
        #expect(driver.inputNanoseconds == 3 * second)
    }

    @Test func realMovingLogFollowsTheUser() {
        // rst39: a receiver moving at ≈ 4.6 m/s for ≈ 4 s, fixes every 0.1–0.3 s.
        let entries = GpsdTPVLog.load("rst39")
        #expect(entries.count > 30)
        let first = entries.first!.fix, last = entries.last!.fix
        let start = GeoCoordinate(latitudeDegrees: first.latitudeDegrees!, longitudeDegrees: first.longitudeDegrees!)
        let end = GeoCoordinate(latitudeDegrees: last.latitudeDegrees!, longitudeDegrees: last.longitudeDegrees!)
        // Non-animated follow: state Changed at once, a 1.0 s linear ease per fix; 3 s of drain.
        var driver = ReplayDriver(core: makeCore(), startNanoseconds: 1_000 * second)
        driver.core.setCamera(CameraOptions(center: start, zoom: 16), durationSeconds: 0, atNanoseconds: 1_000 * second)
        driver.core.setTrackingMode(.follow, animated: false, atNanoseconds: 1_000 * second)
        var ticks = 0
        for e in entries {
            driver.deliver(e.fix, logTimeNanoseconds: e.logTimeNanoseconds)
            while driver.nextTick() != nil { ticks += 1 }
        }
        driver.finish(drainSeconds: 3)
        while driver.nextTick() != nil { ticks += 1 }
        let span = Double(entries.last!.logTimeNanoseconds - entries.first!.logTimeNanoseconds) / 1e9
        #expect(abs(ticks - Int(((span + 3) * 60).rounded())) <= 1)
        #expect(driver.skippedTicks == 0 && driver.backwardJumps == 0)
        #expect(WebMercator.distanceMeters(driver.core.camera.center, end) < 0.01)
        #expect(driver.core.puck.isVisible && driver.core.puck.isPinnedToAnchor)
        #expect(WebMercator.distanceMeters(driver.core.puck.coordinate, end) < 0.01)
        // Animated from the default camera (zoom 0 at 0°,0°): the first fly to zoom 14 outlasts this
        // short log, and MapLibre stores no fix while it runs (state Began, tracking.md 2.5).
        let (flying, _) = replay(entries, mode: .follow, drainSeconds: 0)
        #expect(flying.core.currentTrackingState == .began)
        #expect(WebMercator.distanceMeters(flying.core.userLocation!.coordinate, start) < 1e-6)
    }

    @Test func realStationaryLogHasNoValidCourse() {
        // quectel-l76k: standing still (speed 0) while the receiver repeats a stale track of 286.35°.
        let entries = GpsdTPVLog.load("quectel-l76k-nmea")
        #expect(entries.count > 100)
        #expect(entries.allSatisfy { $0.fix.speedMetersPerSecond == 0 && $0.fix.courseDegrees == 286.35 })
        let (strict, _) = replay(entries, mode: .followWithCourse)
        #expect(strict.core.puck.style == .course)
        #expect(strict.core.puck.bearingDegrees == nil && strict.core.puck.bearingSource == .none)
        #expect(strict.core.camera.bearingDegrees == 0)
        // MapLibre literal (threshold 0): the junk course turns the map.
        let (literal, _) = replay(entries, mode: .followWithCourse) { $0.courseMinimumSpeedMetersPerSecond = 0 }
        #expect(literal.core.puck.bearingDegrees == 286.35)
        #expect(near(literal.core.camera.bearingDegrees, 286.35, 1e-9))
    }

    @Test func concatenatedLogsGoingBackInTime() {
        // rst39 is dated 2033 (gpsdecode's week roll-over), quectel 2026: seven years backwards.
        let first = GpsdTPVLog.load("rst39"), second = GpsdTPVLog.load("quectel-l76k-nmea")
        let (driver, ticks) = replay(first + second, mode: .follow, drainSeconds: 0)
        let span1 = Double(first.last!.logTimeNanoseconds - first.first!.logTimeNanoseconds) / 1e9
        let span2 = Double(second.last!.logTimeNanoseconds - second.first!.logTimeNanoseconds) / 1e9
        #expect(driver.backwardJumps == 1)
        #expect(abs(ticks.count - Int(((span1 + span2) * 60).rounded())) <= 2)
        #expect(zip(ticks, ticks.dropFirst()).allSatisfy { $0 < $1 })
    }

    /// `puckd replay --track` of many concatenated logs trapped: the offset summed every backward
    /// jump (`offsetNanoseconds += last - logTime`). Log time swinging between the ends of Int64 now
    /// keeps core time bounded, increasing and counted.
    @Test func logTimeSwingingAcrossInt64NeverOverflows() {
        var driver = ReplayDriver(core: makeCore(), startNanoseconds: 0)
        var ticks = 0
        var previous: Int64 = -1
        for i in 0..<200 {
            let time: Int64 = i % 2 == 0 ? Int64.min + Int64(i) : Int64.max - Int64(i)
            driver.deliver(makeFix(offset(berlin, northMeters: Double(i))), logTimeNanoseconds: time)
            while let t = driver.nextTick() {
                #expect(t > previous)
                previous = t
                ticks += 1
            }
            #expect(driver.inputNanoseconds >= 0 && driver.inputNanoseconds <= ReplayDriver.latestCoreNanoseconds)
        }
        driver.finish(drainSeconds: .infinity)
        while driver.nextTick() != nil { ticks += 1 }
        #expect(driver.backwardJumps == 99 && driver.shortenedJumps == 100)
        // Each forward jump is two days: 300 ticks run, the rest of the gap is skipped.
        #expect(ticks == 100 * 300 + 3600 * 60 + 1)          // the drain is capped at an hour
    }

    @Test func coreTimeStopsAtItsLimit() {
        var driver = ReplayDriver(core: makeCore(), maximumTicksPerGap: 1, startNanoseconds: 0)
        let step = ReplayDriver.maximumForwardJumpNanoseconds
        var time: Int64 = 0
        // 2^62 ns / 2 days ≈ 26 690 jumps reach the limit; a few more are clamped.
        for _ in 0..<26_700 {
            driver.deliver(makeFix(berlin), logTimeNanoseconds: time)
            while driver.nextTick() != nil {}
            time += step
        }
        #expect(driver.clampedInputs > 0)
        #expect(driver.inputNanoseconds == ReplayDriver.latestCoreNanoseconds)
        driver.finish(drainSeconds: 4)                     // the drain ends at the limit too
        var last: Int64 = 0
        while let t = driver.nextTick() { last = t }
        #expect(last == ReplayDriver.latestCoreNanoseconds)
    }
}
