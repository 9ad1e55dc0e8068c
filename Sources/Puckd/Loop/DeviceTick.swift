import Configuration
import Console
import Controls
import Glibc
import Hardware
import Heading
import State
import SystemCalls
import Tracking

/// The tracking tick (core, events, faults, LEDs) and the periodic work of every wake-up.
extension Device {
    func tick(nowNanoseconds now: Int64) {
        counters.ticks &+= 1
        core.tick(atNanoseconds: now)
        drainCoreEvents()
        publishTickToGpsdServer(nowNanoseconds: now)
        updateFaults(nowNanoseconds: now)
        guard let gpio, leds != nil else { return }
        let frame = ledPatterns.frame(for: indicatorState(nowNanoseconds: now), atNanoseconds: now)
        do throws(GPIOError) {
            let written = try leds?.show(frame, on: gpio, nowNanoseconds: now) ?? 0
            counters.ledWrites &+= UInt64(written)
        } catch {
            counters.gpioErrors &+= 1
            leds = nil
            output.text("gpio: writing the LEDs failed (" + error.description + "); running without LEDs", priority: .error)
        }
    }

    /// What the LEDs show now.
    func indicatorState(nowNanoseconds now: Int64) -> LEDIndicatorState {
        LEDIndicatorState(fix: fixIndicator(nowNanoseconds: now), modeNumber: modeCycle.position(of: currentCycleEntry) ?? 0,
                          modeChangedAtNanoseconds: modeChangedAtNanoseconds, fault: !faults.isEmpty)
    }

    /// Off before any fix and while the receiver reports none; fast blink when the last position is older
    /// than `[gps] stale_s`; 1 Hz blink for 2D; on for 3D.
    func fixIndicator(nowNanoseconds now: Int64) -> FixIndicator {
        guard let position = lastPositionNanoseconds else { return .noFix }
        if now - position > Int64(configuration.gps.staleSeconds * 1e9) { return .stale }
        switch lastFix?.mode ?? .noFix {
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
    /// mode LED restarts its blink group on a mode change).
    func drainCoreEvents() {
        while let timed = core.popEvent() {
            console?.state.events.record(timed)
            gpsdServer?.publish(event: timed)
            switch timed.event {
            case .didChangeTrackingMode(let mode, _):
                modeChangedAtNanoseconds = timed.timeNanoseconds
                stateDirty = true
                output.line { out in
                    out.append("mode: ")
                    out.append(mode.name)
                    if let position = modeCycle.position(of: .mode(mode)) {
                        out.append(" (LED: ")
                        out.append(int: position)
                        out.append(" blinks)")
                    }
                }
            case .didChangeViewportStatus(let status, _):
                stateDirty = true
                if case .transition = status { continue }
                modeChangedAtNanoseconds = timed.timeNanoseconds
                output.line { out in
                    out.append("viewport: ")
                    out.append(status.word)
                }
            case .didChangeAuthorization, .willStartLocatingUser, .didStopLocatingUser:
                stateDirty = true
            default:
                break
            }
        }
    }

    /// Recomputes the fault bits and logs those that appear or clear.
    func updateFaults(nowNanoseconds now: Int64) {
        var f: DeviceFaults = []
        switch gpsStatus {
        case .waitingToReconnect, .failed: f.insert(.gpsDown)
        case .open, .finished:
            if now - lastSentenceNanoseconds > Int64(configuration.gps.staleSeconds * 1e9) { f.insert(.gpsSilent) }
        case .connecting: break
        }
        if let imu {
            let state = imu.status.state
            if state == .faulted || state == .backoff || (state != .running && now - startNanoseconds > 2_000_000_000) {
                f.insert(.imu)
            }
        } else if imuProblem != nil {
            f.insert(.imu)
        }
        if stateProblem != nil || stateWriteFailed { f.insert(.state) }
        if ppsProblem != nil { f.insert(.pps) }
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
        if stateDirty && now >= nextStateWriteNanoseconds, let stateStore {
            stateDirty = false
            nextStateWriteNanoseconds = now + Int64(configuration.state.saveIntervalSeconds * 1e9)
            if let failure = stateStore.save(stateRecord()) {
                counters.stateWriteFailures &+= 1
                if !stateWriteFailed {
                    stateWriteFailed = true
                    output.line(.error) { out in
                        out.append("state: writing the state file failed (")
                        failure.write { out.append($0) }
                        out.append("); keeping the state in memory and retrying")
                    }
                }
                stateDirty = true
            } else {
                counters.stateWrites &+= 1
                if stateWriteFailed {
                    stateWriteFailed = false
                    output.line { out in out.append("state: writing works again") }
                }
            }
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
                                 accuracy: accuracySetting, lastFix: lastGoodFix, calibration: heading.calibration,
                                 gyroBiasRadiansPerSecond: currentGyroBias, followViewport: followViewport)
    }
}
