import Angles
import IMU
import Console
import Heading

/// What a finished calibration does to the device: a fitted magnetometer calibration or a measured
/// gyroscope bias is applied to the heading and saved; a failure says how far it got. The outcome is
/// logged and kept as one line for the console (`heading`, `calibrate stop`).
extension Device {
    /// The gyroscope bias the heading filter uses now (its own estimate once it has one), rad/s.
    var currentGyroBias: Vector3? {
        heading.filter.gyroBias.isEstimated ? heading.filter.gyroBias.biasRadiansPerSecond : savedGyroBias
    }

    /// Starts `calibrate gyro`: keep the board still for 5 s (the simulated board holds itself still).
    func startGyroscopeCalibration(nowNanoseconds now: Int64) {
        calibration.cancel()
        let timeout = Int64(configuration.imu.calibrationTimeoutSeconds * 1e9)
        gyroCalibration.start(nowNanoseconds: now, timeoutNanoseconds: timeout)
        let note = board.calibrationStarted(.holdStill, nowNanoseconds: now,
                                            durationNanoseconds: Int64((gyroCalibration.requiredSeconds + 2) * 1e9))
        output.line { out in
            out.append("calibration: gyroscope bias measurement started; keep the board still for ")
            out.append(gyroCalibration.requiredSeconds, decimals: 0)
            out.append(" s")
            if let note { out.append(note) }
        }
    }

    func handleMagnetometerOutcome(_ outcome: DeviceCalibration.Outcome, stoppedByHand: Bool) {
        switch outcome {
        case .collecting:
            break
        case .fitted(var fitted):
            fitted.utcNanoseconds = gpsLink.lastFix?.utcNanoseconds
            if fitted.gyroBiasRadiansPerSecond == nil { fitted.gyroBiasRadiansPerSecond = currentGyroBias }
            heading.setCalibration(fitted)
            persistence.dirty = true
            setCalibrationResult { out in
                out.append("magnetometer calibrated (")
                out.append(fitted.coverageFraction * 100, decimals: 0)
                out.append(" % of directions, field ")
                out.append(fitted.fieldMicrotesla, decimals: 1)
                out.append(" µT, hard iron ")
                out.append(fitted.hardIronMicrotesla.length, decimals: 1)
                out.append(" µT); applied and saved")
            }
        case .failed(let error, let coverage):
            if let error {
                setCalibrationResult { out in
                    out.append(stoppedByHand ? "stopped at " : "")
                    if stoppedByHand {
                        out.append(coverage * 100, decimals: 0)
                        out.append(" % coverage: ")
                    }
                    out.append(string: error.message)
                }
            } else {
                setCalibrationResult { out in
                    out.append("gave up after ")
                    out.append(configuration.imu.calibrationTimeoutSeconds, decimals: 0)
                    out.append(" s with ")
                    out.append(coverage * 100, decimals: 0)
                    out.append(" % of the directions covered (needs ")
                    out.append(calibration.goalCoverageFraction * 100, decimals: 0)
                    out.append(" %): turn the board through all orientations (figure eights, rolls and pitches) ")
                    out.append("and start it again")
                }
            }
        }
    }

    func handleGyroscopeOutcome(_ outcome: GyroscopeCalibration.Outcome) {
        switch outcome {
        case .collecting:
            break
        case .measured(let bias, let seconds):
            savedGyroBias = bias
            // A new estimator seeded with the measured bias (trusted); it keeps refining it at rest.
            let location = lastGoodFix
            heading = HeadingEstimator(configuration: heading.configuration,
                                       calibration: Self.calibration(heading.calibration, gyroBias: bias))
            if let fix = location {
                heading.updateLocation(latitudeDegrees: fix.latitudeDegrees, longitudeDegrees: fix.longitudeDegrees,
                                       heightMeters: fix.altitudeMSLMeters ?? 0,
                                       utcNanoseconds: fix.utcNanoseconds ?? 1_767_225_600_000_000_000)
            }
            persistence.dirty = true
            setCalibrationResult { out in
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
        case .timedOut(let longest):
            setCalibrationResult { out in
                out.append("gyroscope measurement gave up: the board was still for at most ")
                out.append(longest, decimals: 1)
                out.append(" s of the ")
                out.append(gyroCalibration.requiredSeconds, decimals: 0)
                out.append(" s needed; put it down somewhere steady and start it again")
            }
        }
    }

    /// Keeps the line `build` writes as the last calibration result and logs it.
    func setCalibrationResult(_ build: (inout OutputBuffer) -> Void) {
        resultScratch.removeAll()
        build(&resultScratch)
        lastCalibrationResult.removeAll()
        resultScratch.withBytes { lastCalibrationResult.append($0) }
        output.line { out in
            out.append("calibration: ")
            resultScratch.withBytes { out.append($0) }
        }
    }
}
