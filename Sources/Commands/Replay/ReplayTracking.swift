import Console
import SystemCalls
import NMEA
import Tracking

/// What `puckd replay --track TARGET` drives the tracking core with: one of the eight tracking modes,
/// or a Mapbox viewport state (`followPuck`, `overview`).
enum ReplayTrackTarget: Equatable {
    case mode(TrackingMode)
    case followPuck
    case overview

    /// Parses a target name; nil when unknown.
    init?(name: String) {
        switch ViewportStateKind(name: name) {
        case .followPuck: self = .followPuck
        case .overview: self = .overview
        case nil:
            guard let mode = TrackingMode(name: name) else { return nil }
            self = .mode(mode)
        }
    }

    static let allowedNames = "none, follow, followWithCourse, followWithHeading, off, recenter, navigation, "
        + "compassNavigation, followPuck, overview"
}

/// `puckd replay FILE --track TARGET`: the log's fixes drive a `TrackingCore` through `ReplayDriver`
/// with the log's own timestamps as the clock, ticking at 60 Hz of log time (as fast as the machine
/// goes, or at recorded pace with `--realtime`); every tick prints the puck and camera state (one
/// JSON object per line with `--json`, else one text line), and every tracking event a line of its
/// own. Time jumps in the log are capped by the driver (at most 5 s of ticks across a gap).
struct ReplayTracking: ~Copyable {
    private var driver: ReplayDriver
    private let json: Bool
    private let realtime: Bool
    private var started = false
    /// True once a fix with a position has been delivered (the target is entered then).
    private var delivered = false
    /// Monotonic wall time and core time of the first tick, for `--realtime` pacing.
    private var wallOriginNanoseconds: Int64 = 0
    private var coreOriginNanoseconds: Int64 = 0

    private let target: ReplayTrackTarget
    /// `--script`: timed inputs applied between the ticks (ReplayScript).
    private var script: ReplayScript?
    /// True once `finish()` scheduled the end.
    private var finishing = false

    /// A core with default configuration (or the script's, validated by the caller) showing the user
    /// location; `target` is applied at the first fix, after the camera has been placed there.
    init(target: ReplayTrackTarget, json: Bool, realtime: Bool, script: ReplayScript? = nil) {
        var core: TrackingCore
        do {
            core = try TrackingCore(configuration: script?.configuration ?? TrackingConfiguration())
        } catch {
            preconditionFailure("the tracking configuration was validated (\(error))")
        }
        self.script = script
        core.setShowsUserLocation(true, atNanoseconds: 0)
        driver = ReplayDriver(core: core)
        self.target = target
        self.json = json
        self.realtime = realtime
    }

    /// At the first fix the camera is placed over it at zoom 14 with no animation, as a device that
    /// restored its saved camera (a fresh map would sit at 0°, 0° zoom 0 and spend the first seconds
    /// of the log on the first fly across the world); then the target mode or viewport is entered.
    private mutating func start(at fix: borrowing Fix, coreTime: Int64) {
        if let lat = fix.latitudeDegrees, let lon = fix.longitudeDegrees {
            let center = GeoCoordinate(latitudeDegrees: lat, longitudeDegrees: lon)
            driver.core.setCamera(CameraOptions(center: center, zoom: 14), durationSeconds: 0, atNanoseconds: coreTime)
        }
        switch target {
        case .mode(let mode): driver.core.setTrackingMode(mode, animated: true, atNanoseconds: coreTime)
        case .followPuck:
            driver.core.transitionViewport(to: .followPuck(FollowPuckOptions()), transition: .default, atNanoseconds: coreTime)
        case .overview:
            driver.core.transitionViewport(to: .overview(OverviewOptions()), transition: .default, atNanoseconds: coreTime)
        }
    }

    /// Delivers a fix (log time: its UTC time, else its time of day); then call `drain` until it
    /// returns false.
    mutating func deliver(_ fix: borrowing Fix) {
        let timeOfDay = fix.timeOfDayNanoseconds, utc = fix.utcNanoseconds, hasPosition = fix.hasPosition
        driver.deliver(copy fix, logTimeNanoseconds: utc ?? timeOfDay)
        if !delivered && hasPosition {
            delivered = true
            start(at: fix, coreTime: driver.inputNanoseconds)
        }
    }

    /// Ends the replay: 4 s of log time after the last fix or script input let the last animations
    /// finish; then call `drain`.
    mutating func finish() {
        let scriptSeconds = Double((script?.lastTimeNanoseconds ?? 0) - driver.inputNanoseconds) / 1e9
        driver.finish(drainSeconds: max(0, scriptSeconds) + 4)
        finishing = true
    }

    /// Runs the due ticks, appending one line per tick and per event to `out`. Returns true when it
    /// stopped early because `out` needs flushing (nearly full, or about to sleep with `--realtime`):
    /// flush and call again.
    mutating func drain(to out: inout OutputBuffer) -> Bool {
        while true {
            drainEvents(to: &out)
            if out.count > out.capacity - 8192 { return true }
            if realtime, let due = dueWallTime(), due > monotonicNow() {
                if !out.isEmpty { return true }
                sleep(until: due)
            }
            if script?.applyNext(to: &driver.core, nextTickNanoseconds: driver.nextTickNanoseconds,
                                 pendingNanoseconds: driver.inputNanoseconds, pendingIsEnd: finishing,
                                 json: json, to: &out) == true { continue }
            guard let tickTime = driver.nextTick() else { break }
            if realtime && !started {
                started = true
                wallOriginNanoseconds = monotonicNow()
                coreOriginNanoseconds = tickTime
            }
            if json {
                TrackingJSON.appendLine(puck: driver.core.puck, camera: driver.core.camera, to: &out)
            } else {
                TrackingText.appendLine(puck: driver.core.puck, camera: driver.core.camera, to: &out)
            }
        }
        drainEvents(to: &out)
        return false
    }

    /// The driver's counters for the replay summary.
    var summary: (ticks: UInt64, skipped: UInt64, forwardJumps: UInt64, backwardJumps: UInt64) {
        (driver.tickCount, driver.skippedTicks, driver.forwardJumps, driver.backwardJumps)
    }

    private mutating func drainEvents(to out: inout OutputBuffer) {
        while let event = driver.core.popEvent() {
            if json { TrackingJSON.appendEventLine(event, to: &out) } else { TrackingText.appendEvent(event, to: &out) }
        }
    }

    /// When the next tick is due on the monotonic clock at recorded pace (nil before the first tick).
    private func dueWallTime() -> Int64? {
        guard started else { return nil }
        return wallOriginNanoseconds + (driver.nextTickNanoseconds - coreOriginNanoseconds)
    }

    private func monotonicNow() -> Int64 { Int64(SystemClock.monotonicNanoseconds()) }

    private func sleep(until due: Int64) { SystemClock.sleep(untilMonotonicNanoseconds: UInt64(max(0, due))) }
}
