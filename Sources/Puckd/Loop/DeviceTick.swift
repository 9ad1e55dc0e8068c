import Configuration
import Console
import Controls
import Hardware
import Heading
import State
import SystemCalls
import Tracking

/// The tracking tick (core, events, faults, LEDs) and the periodic work of every wake-up.
extension Device {
    /// The scheduled tracking tick: the core, its events, the faults, the LEDs. The only place the core
    /// ticks (a console command waits for it, `DeviceConsoleCommands.swift`).
    func tick(nowNanoseconds now: Int64) {
        core.tick(atNanoseconds: now)
        drainCoreEvents()
        publishTickToGpsdServer(nowNanoseconds: now)
        updateFaults(nowNanoseconds: now)
        if controls.leds != nil {
            controls.showLEDs(indicatorState(nowNanoseconds: now), nowNanoseconds: now)
        }
        answerAwaitingCommand(nowNanoseconds: now)
    }

    /// What the LEDs show now.
    func indicatorState(nowNanoseconds now: Int64) -> LEDIndicatorState {
        LEDIndicatorState(fix: fixIndicator(nowNanoseconds: now), modeNumber: controls.modeCycle.position(of: currentCycleEntry) ?? 0,
                          modeChangedAtNanoseconds: controls.modeChangedAtNanoseconds, fault: !faults.isEmpty)
    }

    /// Off before any fix and while the receiver reports none; fast blink when the last position is older
    /// than `[gps] stale_s`; 1 Hz blink for 2D; on for 3D.
    func fixIndicator(nowNanoseconds now: Int64) -> FixIndicator {
        guard let position = gpsLink.lastPositionNanoseconds else { return .noFix }
        if now - position > Int64(configuration.gps.staleSeconds * 1e9) { return .stale }
        switch gpsLink.lastFix?.mode ?? .noFix {
        case .noFix: return .noFix
        case .twoD: return .fix2D
        case .threeD: return .fix3D
        }
    }

    /// The mode cycle entry the device is in: the overview viewport, or the tracking mode.
    var currentCycleEntry: ModeCycleEntry {
        switch core.camera.viewportStatus {
        case .state(.overview), .transition(_, to: .overview): return .overview
        default: return .mode(core.trackingMode)
        }
    }

    /// Reads the core's events: mode, viewport, location and authorization changes are saved (and the
    /// mode LED restarts its blink group on a mode change). Returns true when one of them is more than
    /// a location or heading update (ticks on demand tick for it, Loop/DeviceTickDemand.swift).
    @discardableResult
    func drainCoreEvents() -> Bool {
        var changed = false
        while let timed = core.popEvent() {
            if case .didUpdateUserLocation = timed.event {} else { changed = true }
            console?.state.events.record(timed)
            gpsdServer?.publish(event: timed)
            switch timed.event {
            case .didChangeTrackingMode(let mode, _):
                controls.modeChangedAtNanoseconds = timed.timeNanoseconds
                persistence.dirty = true
                output.line { out in
                    out.append("mode: ")
                    out.append(mode.name)
                    if let position = controls.modeCycle.position(of: .mode(mode)) {
                        out.append(" (LED: ")
                        out.append(int: position)
                        out.append(" blinks)")
                    }
                }
            case .didChangeViewportStatus(let status, _):
                persistence.dirty = true
                if case .transition = status { continue }
                controls.modeChangedAtNanoseconds = timed.timeNanoseconds
                output.line { out in
                    out.append("viewport: ")
                    out.append(status.word)
                }
            case .didChangeAuthorization, .willStartLocatingUser, .didStopLocatingUser:
                persistence.dirty = true
            default:
                break
            }
        }
        return changed
    }

    /// Recomputes the fault bits and logs those that appear or clear.
    func updateFaults(nowNanoseconds now: Int64) {
        var f: DeviceFaults = []
        switch gpsLink.status {
        case .waitingToReconnect, .failed: f.insert(.gpsDown)
        case .open, .finished:
            if now - gpsLink.lastSentenceNanoseconds > Int64(configuration.gps.staleSeconds * 1e9) { f.insert(.gpsSilent) }
        case .connecting: break
        }
        if let status = imuLink.status {
            let state = status.state
            if state == .faulted || state == .backoff || (state != .running && now - startNanoseconds > 2_000_000_000) {
                f.insert(.imu)
            }
        } else if imuLink.problem != nil {
            f.insert(.imu)
        }
        if persistence.isFaulted { f.insert(.state) }
        if ppsInput.problem != nil { f.insert(.pps) }
        if trackRecorder.isFaulted { f.insert(.track) }
        if uplink.isFaulted { f.insert(.uplink) }
        faults = f
        if f == loggedFaults { return }
        let appeared = f.subtracting(loggedFaults), cleared = loggedFaults.subtracting(f)
        loggedFaults = f
        output.line(appeared.isEmpty ? .info : .warning) { out in
            out.append("faults: ")
            Self.appendFaults(f, to: &out)
            if !appeared.isEmpty { out.append(" (new: "); Self.appendFaults(appeared, to: &out); out.append(")") }
            if !cleared.isEmpty { out.append(" (cleared: "); Self.appendFaults(cleared, to: &out); out.append(")") }
        }
    }

    static func appendFaults(_ faults: DeviceFaults, to out: inout OutputBuffer) {
        if faults.isEmpty {
            out.append("none")
            return
        }
        var first = true
        var i = 0      // an index loop: `for … in` an array allocates per element in debug builds
        while i < DeviceFaults.names.count {
            let (bit, name) = DeviceFaults.names[i]
            i += 1
            guard faults.contains(bit) else { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            out.append(name)
            first = false
        }
    }

    /// Status line, systemd watchdog and STATUS=, state writes: checked on every wake-up.
    func periodic(nowNanoseconds now: Int64) {
        let interval = configuration.console.statusIntervalSeconds
        if interval > 0 && console == nil && now >= nextStatusNanoseconds {
            writeStatusLine(nowNanoseconds: now)
            nextStatusNanoseconds += Int64(interval * 1e9)
            if nextStatusNanoseconds <= now { nextStatusNanoseconds = now + Int64(interval * 1e9) }
        }
        notifier.watchdogIfDue(nowNanoseconds: now)
        if notifier.statusDue(nowNanoseconds: now) { sendSystemdStatus(nowNanoseconds: now) }
        if persistence.service(nowNanoseconds: now, ready: .none).contains(.recordWanted) {
            persistence.write(stateRecord(), nowNanoseconds: now, intervalSeconds: configuration.state.saveIntervalSeconds,
                              output: output)
        }
    }

    /// The record the state file holds now.
    func stateRecord() -> DeviceStateRecord {
        let viewport: InitialViewport
        switch core.camera.viewportStatus {
        case .idle: viewport = .idle
        case .state(.followPuck), .transition(_, to: .followPuck): viewport = .followPuck
        case .state(.overview), .transition(_, to: .overview): viewport = .overview
        }
        return DeviceStateRecord(trackingMode: core.trackingMode, viewport: viewport,
                                 showsLocation: core.isShowingUserLocation, authorization: core.authorization.status,
                                 accuracy: accuracySetting, lastFix: lastGoodFix, calibration: imuLink.heading.calibration,
                                 gyroBiasRadiansPerSecond: imuLink.currentGyroBias, followViewport: followViewport)
    }
}
