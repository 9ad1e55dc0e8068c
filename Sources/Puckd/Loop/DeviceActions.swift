import Console
import Controls
import Hardware
import Tracking

/// Buttons and console commands → actions → core commands.
extension Device {
    /// Services the controls and performs what each recognised press asks.
    func serviceButtons(_ ready: DeviceReadiness, nowNanoseconds now: Int64) {
        guard gpio != nil, controls.buttons != nil else { return }
        let slots = controls.slots
        let lines: UInt32 = (ready.contains(.primaryButton) ? 1 << UInt32(slots[0]) : 0)
            | (ready.contains(.secondaryButton) ? 1 << UInt32(slots[1]) : 0)
        _ = controls.service(nowNanoseconds: now, ready: .slots(lines))
        var i = 0
        while i < controls.presses.count {
            let press = controls.presses[i]
            perform(configuration.gpio.actions.action(for: press), trigger: press, nowNanoseconds: now)
            i += 1
        }
    }

    /// Does what a button press (or the console) asks.
    func perform(_ action: ButtonAction, trigger press: ButtonPress?, nowNanoseconds now: Int64) {
        if let press {
            output.line { out in
                out.append("button: ")
                out.append(press.button == .primary ? "" : "button2 ")
                out.append(press.kind == .short ? "short press" : "long press")
                out.append(" → ")
                out.append(action.name)
            }
        }
        switch action {
        case .none:
            break
        case .nextTrackingMode:
            switch controls.modeCycle.next(after: currentCycleEntry) {
            case .mode(let mode): core.setTrackingMode(mode, animated: true, atNanoseconds: now)
            case .overview: core.transitionViewport(to: .overview(OverviewOptions()), transition: .default, atNanoseconds: now)
            }
        case .toggleOverview:
            if currentCycleEntry == .overview {
                core.transitionViewport(to: .followPuck(followOptions), transition: .default,
                                        atNanoseconds: now)
            } else {
                core.transitionViewport(to: .overview(OverviewOptions()), transition: .default, atNanoseconds: now)
            }
        case .requestFullAccuracy:
            let full = core.requestTemporaryFullAccuracy(purposeKey: TrackingCore.mapLibreAccuracyPurposeKey, atNanoseconds: now)
            output.line { out in
                out.append(full ? "accuracy: full accuracy applies" : "accuracy: temporary full accuracy refused (not authorized)")
            }
        case .startMagnetometerCalibration:
            guard imuLink.isPresent else {
                output.line { out in out.append("calibration: no IMU, nothing to calibrate") }
                return
            }
            startMagnetometerCalibration(nowNanoseconds: now)
        case .toggleLocationVisible:
            core.setShowsUserLocation(!core.isShowingUserLocation, atNanoseconds: now)
            output.line { out in out.append(core.isShowingUserLocation ? "location: shown" : "location: hidden") }
        }
    }

    /// Starts a magnetometer calibration run (a button's long press, or `calibrate mag`).
    func startMagnetometerCalibration(nowNanoseconds now: Int64) {
        imuLink.startMagnetometerCalibration(nowNanoseconds: now, timeoutSeconds: configuration.imu.calibrationTimeoutSeconds)
        let timeout = Int64(configuration.imu.calibrationTimeoutSeconds * 1e9)
        let note = board.calibrationStarted(.tumble, nowNanoseconds: now, durationNanoseconds: min(timeout, 45_000_000_000))
        output.line { out in
            out.append("calibration: started; turn the board slowly through all orientations (figure eights, ")
            out.append("rolls and pitches) for up to ")
            out.append(configuration.imu.calibrationTimeoutSeconds, decimals: 0)
            out.append(" s")
            if let note { out.append(note) }
        }
    }

    /// Starts `calibrate gyro`: keep the board still for 5 s (the simulated board holds itself still).
    func startGyroscopeCalibration(nowNanoseconds now: Int64) {
        imuLink.startGyroscopeCalibration(nowNanoseconds: now, timeoutSeconds: configuration.imu.calibrationTimeoutSeconds)
        let required = imuLink.gyroCalibration.requiredSeconds
        let note = board.calibrationStarted(.holdStill, nowNanoseconds: now, durationNanoseconds: Int64((required + 2) * 1e9))
        output.line { out in
            out.append("calibration: gyroscope bias measurement started; keep the board still for ")
            out.append(required, decimals: 0)
            out.append(" s")
            if let note { out.append(note) }
        }
    }
}
