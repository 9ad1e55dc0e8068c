import Heading
import IMU
import Tracking

/// IMU: poll the device (one sample or a FIFO burst), fuse each reading in order with its own time,
/// publish headings to the core, feed a calibration run.
extension Device {
    /// Reads the IMU when its poll is due (`timerDue`) or its INT1 line has an edge (`edgeReady`).
    func serviceIMU(nowNanoseconds now: Int64, timerDue: Bool = true, edgeReady: Bool = false) {
        board.imuWillBeRead(atNanoseconds: now)
        let count = imuLink.service(nowNanoseconds: now, timerDue: timerDue, edgeReady: edgeReady, output: output)
        board.imuWasRead(atNanoseconds: now)
        var i = 0
        while i < count {
            fuse(imuLink.burst[i], nowNanoseconds: now)
            i += 1
        }
    }

    private func fuse(_ reading: IMUReading, nowNanoseconds now: Int64) {
        lastIMUSampleForServer = reading.sample
        if heading.update(reading.sample) { routerCounters.headingsPublished &+= 1 }
        // Every fused sample goes to the core once a heading exists: the core applies the one heading
        // filter (`heading_filter_deg`, 1°) to the camera and its events (tracking.md 4.2), while each
        // sample keeps the IMU source fresh (the bearing fallback drops an IMU heading 10 s old, which a
        // board standing still would otherwise reach) and carries the latest declination.
        if heading.published != nil {
            let estimate = heading.current
            core.updateHeading(HeadingSample(timeNanoseconds: estimate.timestampNanoseconds,
                                             trueHeadingDegrees: estimate.trueHeadingDegrees,
                                             magneticHeadingDegrees: estimate.magneticHeadingDegrees,
                                             headingAccuracyDegrees: estimate.headingAccuracyDegrees, source: .imu))
        }
        if calibration.isRunning, let field = reading.sample.magneticFieldMicrotesla {
            let outcome = calibration.add(field, nowNanoseconds: now,
                                          expectedFieldMicrotesla: heading.declination.elements?.totalMicrotesla,
                                          gyroBias: currentGyroBias)
            handleMagnetometerOutcome(outcome, stoppedByHand: false)
        }
        if gyroCalibration.isRunning {
            let outcome = gyroCalibration.add(gyro: reading.sample.gyroRadiansPerSecond,
                                              acceleration: reading.sample.accelerationMetersPerSecondSquared,
                                              nowNanoseconds: now)
            handleGyroscopeOutcome(outcome)
        }
    }
}
