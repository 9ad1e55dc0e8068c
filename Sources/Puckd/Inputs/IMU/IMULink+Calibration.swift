import Angles
import IMU
import Console
import Heading

/// The IMU link's calibration runs: started and stopped by the router (a button or a console command),
/// fed by `fuse`. A fitted magnetometer calibration or a measured gyroscope bias is applied to the
/// heading (the router then marks the state dirty); a failure says how far it got. The outcome is logged
/// and kept as one line for the console (`heading`, `calibrate stop`).
extension IMULink {
    /// Starts a magnetometer calibration run at `now` that gives up after `timeoutSeconds`.
    mutating func startMagnetometerCalibration(nowNanoseconds now: Int64, timeoutSeconds: Double) {
        gyroCalibration.cancel()
        calibrationTimeoutSeconds = timeoutSeconds
        calibration.start(nowNanoseconds: now, timeoutNanoseconds: Int64(timeoutSeconds * 1e9))
    }

    /// Starts `calibrate gyro` at `now`: the board must stay still for `gyroCalibration.requiredSeconds`.
    mutating func startGyroscopeCalibration(nowNanoseconds now: Int64, timeoutSeconds: Double) {
        calibration.cancel()
        calibrationTimeoutSeconds = timeoutSeconds
        gyroCalibration.start(nowNanoseconds: now, timeoutNanoseconds: Int64(timeoutSeconds * 1e9))
    }

    /// `calibrate stop` at `now`: fits what a magnetometer run collected, or ends a gyroscope
    /// measurement without a result. Nil when no run was going; else true when the state changed.
    mutating func stopCalibration(nowNanoseconds now: Int64) -> Bool? {
        if calibration.isRunning {
            let outcome = calibration.finishNow(expectedFieldMicrotesla: heading.declination.elements?.totalMicrotesla,
                                                gyroBias: currentGyroBias)
            return handleMagnetometerOutcome(outcome, stoppedByHand: true)
        }
        guard gyroCalibration.isRunning else { return nil }
        let still = gyroCalibration.stillSeconds(atNanoseconds: now)
        gyroCalibration.cancel()
        calibrationResult.set(output: output) { out in
            out.append("gyroscope measurement stopped after ")
            out.append(still, decimals: 1)
            out.append(" s still; no bias applied")
        }
        return false
    }

    /// The last calibration's outcome as one line (empty before the first).
    var lastCalibrationResult: ConsoleText { calibrationResult.text }

    /// Applies a fitted calibration or says why it failed; true when one was applied (save the state).
    mutating func handleMagnetometerOutcome(_ outcome: DeviceCalibration.Outcome, stoppedByHand: Bool) -> Bool {
        switch outcome {
        case .collecting:
            return false
        case .fitted(var fitted):
            fitted.utcNanoseconds = lastFixUTCNanoseconds
            if fitted.gyroBiasRadiansPerSecond == nil { fitted.gyroBiasRadiansPerSecond = currentGyroBias }
            heading.setCalibration(fitted)
            calibrationResult.set(output: output) { out in
                out.append("magnetometer calibrated (")
                out.append(fitted.coverageFraction * 100, decimals: 0)
                out.append(" % of directions, field ")
                out.append(fitted.fieldMicrotesla, decimals: 1)
                out.append(" µT, hard iron ")
                out.append(fitted.hardIronMicrotesla.length, decimals: 1)
                out.append(" µT); applied and saved")
            }
            return true
        case .failed(let error, let coverage):
            if let error {
                calibrationResult.set(output: output) { out in
                    out.append(stoppedByHand ? "stopped at " : "")
                    if stoppedByHand {
                        out.append(coverage * 100, decimals: 0)
                        out.append(" % coverage: ")
                    }
                    out.append(string: error.message)
                }
            } else {
                let timeout = calibrationTimeoutSeconds, goal = calibration.goalCoverageFraction
                calibrationResult.set(output: output) { out in
                    out.append("gave up after ")
                    out.append(timeout, decimals: 0)
                    out.append(" s with ")
                    out.append(coverage * 100, decimals: 0)
                    out.append(" % of the directions covered (needs ")
                    out.append(goal * 100, decimals: 0)
                    out.append(" %): turn the board through all orientations (figure eights, rolls and pitches) ")
                    out.append("and start it again")
                }
            }
            return false
        }
    }

    /// Applies a measured gyroscope bias or says why the measurement gave up; true when one was applied.
    mutating func handleGyroscopeOutcome(_ outcome: GyroscopeCalibration.Outcome) -> Bool {
        switch outcome {
        case .collecting:
            return false
        case .measured(let bias, let seconds):
            savedGyroBias = bias
            // A new estimator seeded with the measured bias (trusted); it keeps refining it at rest.
            heading = HeadingEstimator(configuration: heading.configuration,
                                       calibration: Self.calibration(heading.calibration, gyroBias: bias))
            if let fix = lastPosition { Self.seedLocation(&heading, fix) }
            calibrationResult.set(output: output) { out in
                out.append("gyroscope bias ")
                out.append(bias.x * Angle.degreesPerRadian, decimals: 3)
                out.append(UInt8(ascii: " "))
                out.append(bias.y * Angle.degreesPerRadian, decimals: 3)
                out.append(UInt8(ascii: " "))
                out.append(bias.z * Angle.degreesPerRadian, decimals: 3)
                out.append(" °/s (x y z) measured over ")
                out.append(seconds, decimals: 1)
                out.append(" s still; applied and saved")
            }
            return true
        case .timedOut(let longest):
            let required = gyroCalibration.requiredSeconds
            calibrationResult.set(output: output) { out in
                out.append("gyroscope measurement gave up: the board was still for at most ")
                out.append(longest, decimals: 1)
                out.append(" s of the ")
                out.append(required, decimals: 0)
                out.append(" s needed; put it down somewhere steady and start it again")
            }
            return false
        }
    }
}
