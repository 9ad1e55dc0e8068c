import Console
import IMU

/// The IMU link's side of the component contract (DEVELOPERS.md, "The loop's parts"): its events,
/// its service, its console rows and its `stats` rows.
extension IMULink: LoopComponent {
    /// What one service produced for the router: fixed fields, no Array.
    struct Events {
        /// Heading samples for the tracking core in `headingSamples[0..<headings]`, oldest first.
        var headings = 0
        /// A finished calibration was applied (magnetometer calibration or gyroscope bias): the state
        /// must be saved.
        var stateChanged = false
    }

    /// A wake-up at the link's deadline: `service(nowNanoseconds:timerDue:ready:)` with the timer due.
    mutating func service(nowNanoseconds now: Int64, ready: PollReadiness) -> Events {
        service(nowNanoseconds: now, timerDue: true, ready: ready)
    }

    /// Reads the IMU at `now` (the board twin has let the simulated chips catch up) and fuses what it
    /// read. `timerDue`: the router's read window is open (Loop/Wake/DeviceIMUWindow.swift); `ready`
    /// names the INT1 line's slot when its descriptor was readable. Nothing is read when neither holds.
    mutating func service(nowNanoseconds now: Int64, timerDue: Bool, ready: PollReadiness) -> Events {
        let edgeReady = interrupt.map { ready.isReady($0.slot) } ?? false
        guard readBurst(nowNanoseconds: now, timerDue: timerDue, edgeReady: edgeReady) > 0 else { return Events() }
        return fuseBurst(nowNanoseconds: now)
    }

    /// A running calibration's progress and the last calibration's outcome.
    func fillSnapshot(_ d: inout ConsoleDeviceState, nowNanoseconds now: Int64) {
        if calibration.isRunning {
            d.calibration = .magnetometer(coverageFraction: calibration.coverageFraction, samples: calibration.sampleCount,
                                          elapsedNanoseconds: now - calibration.startedAtNanoseconds)
        } else if gyroCalibration.isRunning {
            d.calibration = .gyroscope(stillSeconds: gyroCalibration.stillSeconds(atNanoseconds: now),
                                       requiredSeconds: gyroCalibration.requiredSeconds)
        } else {
            d.calibration = .idle
        }
        d.lastCalibrationResult = lastCalibrationResult
    }

    /// `imu.*`, `heading.published`, the bus's `i2c.errors.*` and the fusion's `ahrs.*` rows.
    func appendStats(to t: inout ConsoleCounterTable) {
        t.append("imu.polls", Int64(truncatingIfNeeded: polls))
        t.append("imu.samples", Int64(truncatingIfNeeded: samples))
        t.append("heading.published", Int64(truncatingIfNeeded: headingsPublished))
        if let status {
            let e = status.errors
            t.append("i2c.errors.nack", Int64(e[.noAcknowledge]))
            t.append("i2c.errors.io", Int64(e[.io]))
            t.append("i2c.errors.busy", Int64(e[.busy]))
            t.append("i2c.errors.timeout", Int64(e[.timeout]))
            t.append("i2c.errors.permissionDenied", Int64(e[.permissionDenied]))
            t.append("i2c.errors.noSuchBus", Int64(e[.noSuchBus]))
            t.append("i2c.errors.unsupported", Int64(e[.unsupported]))
            t.append("i2c.errors.other", Int64(e[.other]))
            t.append("imu.errors.wrongChip", Int64(e.wrongChip))
            t.append("imu.errors.resetTimeouts", Int64(e.resetTimeouts))
            t.append("imu.errors.stuckData", Int64(e.stuckData))
            t.append("imu.errors.dataTimeouts", Int64(e.dataTimeouts))
            t.append("imu.errors.probeFailures", Int64(e.probeFailures))
            t.append("imu.errors.magnetometerOverflows", Int64(e.magnetometerOverflows))
            t.append("imu.initializations", Int64(status.initializations))
            t.append("imu.faults", Int64(status.faults))
            t.append("imu.fifoBursts", Int64(status.fifoBursts))
            t.append("imu.fifoOverruns", Int64(status.fifoOverruns))
            t.append("imu.interruptEdges", Int64(truncatingIfNeeded: interrupt?.edges ?? 0))
            t.append("imu.interruptBursts", Int64(truncatingIfNeeded: interruptBursts))
            t.append("imu.interruptTimeouts", Int64(truncatingIfNeeded: interruptTimeouts))
        }
        let ahrs = heading.filter.counters
        t.append("ahrs.invalidSamples", Int64(ahrs.invalidSamples))
        t.append("ahrs.gaps", Int64(ahrs.gaps))
        t.append("ahrs.nonMonotonicTimestamps", Int64(ahrs.nonMonotonicTimestamps))
        t.append("ahrs.gyroscopeOverranges", Int64(ahrs.gyroscopeOverranges))
        t.append("ahrs.accelerometerRejections", Int64(ahrs.accelerometerRejections))
        t.append("ahrs.magnetometerRejections", Int64(ahrs.magnetometerRejections))
    }
}
