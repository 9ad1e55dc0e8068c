import Heading
import IMU
import NMEA
import State
import Tracking

/// What the IMU link's samples become: each reading fused in order with its own time into the heading
/// estimator, the estimate as Tracking's `HeadingSample` for the core, a running calibration fed; and
/// the fixes the router routes to it (declination, course aiding, where a re-seeded estimator starts).
extension IMULink {
    /// The gyroscope bias the heading filter uses now (its own estimate once it has one), rad/s.
    var currentGyroBias: Vector3? {
        heading.filter.gyroBias.isEstimated ? heading.filter.gyroBias.biasRadiansPerSecond : savedGyroBias
    }

    /// Fuses the readings of the last burst in order; returns how many heading samples it left in
    /// `headingSamples` and whether a finished calibration changed what must be saved.
    mutating func fuseBurst(nowNanoseconds now: Int64) -> Events {
        var events = Events()
        var i = 0
        while i < burst.count {
            fuse(burst[i], nowNanoseconds: now, into: &events)
            i += 1
        }
        return events
    }

    private mutating func fuse(_ reading: IMUReading, nowNanoseconds now: Int64, into events: inout Events) {
        lastSample = reading.sample
        if heading.update(reading.sample) { headingsPublished &+= 1 }
        // Every fused sample goes to the core once a heading exists: the core applies the one heading
        // filter (`heading_filter_deg`, 1°) to the camera and its events (tracking.md 4.2), while each
        // sample keeps the IMU source fresh (the bearing fallback drops an IMU heading 10 s old, which a
        // board standing still would otherwise reach) and carries the latest declination.
        if heading.published != nil, events.headings < headingSamples.count {
            let estimate = heading.current
            headingSamples[events.headings] = HeadingSample(timeNanoseconds: estimate.timestampNanoseconds,
                                                            trueHeadingDegrees: estimate.trueHeadingDegrees,
                                                            magneticHeadingDegrees: estimate.magneticHeadingDegrees,
                                                            headingAccuracyDegrees: estimate.headingAccuracyDegrees, source: .imu)
            events.headings += 1
        }
        if calibration.isRunning, let field = reading.sample.magneticFieldMicrotesla {
            let outcome = calibration.add(field, nowNanoseconds: now,
                                          expectedFieldMicrotesla: heading.declination.elements?.totalMicrotesla,
                                          gyroBias: currentGyroBias)
            if handleMagnetometerOutcome(outcome, stoppedByHand: false) { events.stateChanged = true }
        }
        if gyroCalibration.isRunning {
            let outcome = gyroCalibration.add(gyro: reading.sample.gyroRadiansPerSecond,
                                              acceleration: reading.sample.accelerationMetersPerSecondSquared,
                                              nowNanoseconds: now)
            if handleGyroscopeOutcome(outcome) { events.stateChanged = true }
        }
    }

    /// A fix the GPS link completed at `now`: declination and course aiding for the estimator; its
    /// time stamps a fitted calibration, its position seeds a re-made estimator.
    mutating func route(fix: borrowing Fix, nowNanoseconds now: Int64) {
        lastFixUTCNanoseconds = fix.utcNanoseconds
        if fix.hasPosition { lastPosition = SavedFix(fix) }
        heading.update(fix: fix, receivedAtNanoseconds: now)
    }

    /// `[heading]` changed on a reload: the estimator's tuning follows.
    mutating func setHeadingConfiguration(_ configuration: HeadingConfiguration) {
        heading.configuration = configuration
    }

    /// The magnetometer calibration to start the heading with, carrying `gyroBias` (which seeds the
    /// filter's bias estimate even when there is no magnetometer calibration).
    static func calibration(_ magnetometer: MagnetometerCalibration?, gyroBias: Vector3?) -> MagnetometerCalibration? {
        guard let gyroBias else { return magnetometer }
        var c = magnetometer ?? .identity
        c.gyroBiasRadiansPerSecond = gyroBias
        return c
    }

    /// Tells `estimator` where the board is (declination) from a saved or routed position fix.
    static func seedLocation(_ estimator: inout HeadingEstimator, _ fix: SavedFix) {
        estimator.updateLocation(latitudeDegrees: fix.latitudeDegrees, longitudeDegrees: fix.longitudeDegrees,
                                 heightMeters: fix.altitudeMSLMeters ?? 0,
                                 utcNanoseconds: fix.utcNanoseconds ?? 1_767_225_600_000_000_000)
    }
}
