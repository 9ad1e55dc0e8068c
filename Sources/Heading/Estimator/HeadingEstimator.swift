import IMU
import Angles
#if canImport(Glibc)
import Glibc
#endif
import NMEA

/// The heading provider's core: what the device loop (and `puckd heading replay`) runs per IMU sample.
///
/// Per sample it applies the magnetometer calibration, runs the `AHRSFilter`, and **publishes** the
/// new heading: every fused update while the heading is valid, and once when it turns invalid. (The
/// one heading filter, CoreLocation's `headingFilter`, is the tracking core's: tracking.md 4.2.) Per
/// GPS fix it updates the WMM2025 declination that turns the magnetic heading into the true heading.
/// Pure and allocation-free: no clock, no I/O.
///
/// Use:
/// ```swift
/// var heading = HeadingEstimator(calibration: stored)          // once, at start-up
/// if heading.update(sample) { publish(heading.published!) }    // every IMU sample
/// heading.update(fix: fix)                                     // every GPS epoch
/// let now = heading.current                                    // any time, e.g. the console
/// ```
public struct HeadingEstimator: Sendable {
    /// Tuning. Setting it re-tunes the running filter.
    public var configuration: HeadingConfiguration {
        didSet {
            filter.configuration = configuration.ahrs
            floorRefreshNanoseconds = nil
        }
    }
    /// The fusion filter.
    public private(set) var filter: AHRSFilter
    /// The magnetometer calibration applied to raw readings; nil = uncalibrated.
    public private(set) var calibration: MagnetometerCalibration?
    /// Declination at the last known position.
    public private(set) var declination: DeclinationTracker
    /// The last published heading (nil before the first).
    public private(set) var published: HeadingEstimate?
    /// Number of headings published.
    public private(set) var publishedCount = 0
    /// Timestamp of the last processed sample, nanoseconds.
    public private(set) var lastTimestampNanoseconds: Int64 = 0
    private var lastPublishedValid = false
    /// The calibration-dependent accuracy floor, refreshed every `floorRefreshIntervalNanoseconds`.
    private var cachedFloorDegrees = 0.0
    private var cachedState = MagnetometerCalibrationState.uncalibrated
    private var floorRefreshNanoseconds: Int64? = nil
    private static let floorRefreshIntervalNanoseconds: Int64 = 250_000_000
    /// Monotonic time of the last speed, nanoseconds (Int64.min when none).
    private var speedTimestampNanoseconds = Int64.min
    private var lastSpeed = 0.0
    /// The smallest recent lag of a fix's arrival (monotonic) behind its UTC time, and when it was
    /// last updated, nanoseconds.
    private var lagFloorNanoseconds: Int64? = nil
    private var lagFloorUpdatedNanoseconds: Int64 = 0
    /// A speed older than this is dropped, nanoseconds.
    public static let speedLifetimeNanoseconds: Int64 = 3_000_000_000

    /// A provider with the given tuning and stored calibration (nil when none was stored). A
    /// calibration that carries a gyro bias seeds the filter's bias estimate.
    public init(configuration: HeadingConfiguration = .default, calibration: MagnetometerCalibration? = nil,
                model: WorldMagneticModel = .wmm2025) {
        self.configuration = configuration
        let seed = calibration?.gyroBiasRadiansPerSecond
        filter = AHRSFilter(configuration: configuration.ahrs,
                            gyroBias: GyroBiasEstimator(initialBias: seed ?? .zero, trusted: seed != nil))
        self.calibration = calibration.flatMap { $0.isUsable ? $0 : nil }
        declination = DeclinationTracker(model: model)
    }

    /// Replaces the calibration (after a calibration run); the filter re-converges from the next sample.
    public mutating func setCalibration(_ calibration: MagnetometerCalibration?) {
        self.calibration = calibration.flatMap { $0.isUsable ? $0 : nil }
        floorRefreshNanoseconds = nil
        filter.restart()
    }

    /// Processes one IMU sample (board frame, raw magnetometer). Returns true when a new heading was
    /// published (read it from `published`).
    @discardableResult
    public mutating func update(_ sample: IMUSample) -> Bool {
        let (sinceSpeed, overflow) = sample.timestampNanoseconds.subtractingReportingOverflow(speedTimestampNanoseconds)
        if speedTimestampNanoseconds != Int64.min && (overflow || sinceSpeed > HeadingEstimator.speedLifetimeNanoseconds) {
            speedTimestampNanoseconds = Int64.min
            filter.setVehicleMotion(speedMetersPerSecond: nil, accelerationMetersPerSecondSquared: 0)
        }
        var corrected = sample
        if let raw = sample.magneticFieldMicrotesla, let c = calibration { corrected.magneticFieldMicrotesla = c.apply(raw) }
        guard filter.update(corrected) else { return false }
        lastTimestampNanoseconds = sample.timestampNanoseconds
        let now = sample.timestampNanoseconds
        if let last = floorRefreshNanoseconds, now >= last, now - last < HeadingEstimator.floorRefreshIntervalNanoseconds {
            // Calibration state and accuracy floor are fresh enough.
        } else {
            cachedState = calibrationState
            cachedFloorDegrees = floorDegrees(for: cachedState)
            floorRefreshNanoseconds = sample.timestampNanoseconds
        }
        let accuracy = accuracy(floorDegrees: cachedFloorDegrees)
        let valid = accuracy != nil
        guard valid || valid != lastPublishedValid else { return false }
        published = estimate(heading: filter.orientation.headingDegrees, accuracy: accuracy, state: cachedState)
        publishedCount &+= 1
        lastPublishedValid = valid
        return true
    }

    /// Updates the position and date for the declination (WGS84 degrees, height in metres).
    public mutating func updateLocation(latitudeDegrees: Double, longitudeDegrees: Double, heightMeters: Double,
                                        utcNanoseconds: Int64) {
        declination.update(latitudeDegrees: latitudeDegrees, longitudeDegrees: longitudeDegrees,
                           heightMeters: heightMeters, utcNanoseconds: utcNanoseconds)
    }

    /// Updates the position and date (declination), the speed (vehicle-acceleration compensation) and
    /// the course (GNSS heading aiding, `CourseAiding`) from a GPS fix that arrived at monotonic time
    /// `receivedAtNanoseconds` (the IMU's time base).
    ///
    /// A fix arrives some time after its own UTC time: at once when the epoch assembler knows the
    /// receiver's last sentence of a cycle, up to a receiver period later when it closes the epoch on a
    /// quiet line or the next epoch. That extra age is the fix's arrival minus its UTC time, less the
    /// smallest such lag seen lately (the fixes that came at once; the floor rises by 0.1 ms per second
    /// to follow the drift between the monotonic clock and UTC).
    public mutating func update(fix: Fix, receivedAtNanoseconds: Int64) {
        declination.update(fix: fix)
        var age: Int64 = 0
        if let utc = fix.utcNanoseconds {
            let lag = receivedAtNanoseconds &- utc
            if let floor = lagFloorNanoseconds, receivedAtNanoseconds > lagFloorUpdatedNanoseconds {
                let risen = floor &+ (receivedAtNanoseconds - lagFloorUpdatedNanoseconds) / 10_000
                lagFloorNanoseconds = min(risen, lag)
            } else {
                lagFloorNanoseconds = lag
            }
            lagFloorUpdatedNanoseconds = receivedAtNanoseconds
            age = max(0, lag &- (lagFloorNanoseconds ?? lag))
        }
        if let speed = fix.speedMetersPerSecond, fix.mode != .noFix {
            updateSpeed(metersPerSecond: speed, timestampNanoseconds: receivedAtNanoseconds)
            if let course = fix.courseDegrees {
                updateCourse(trueDegrees: course, speedMetersPerSecond: speed, ageNanoseconds: age)
            }
        }
    }

    /// Gives the course over ground (degrees from true north) at `speedMetersPerSecond` of a fix that
    /// just arrived, measured `ageNanoseconds` ago: a heading measurement while the vehicle drives
    /// straight at speed (`CourseAiding`). Needs the declination (a fix with a position and date first).
    public mutating func updateCourse(trueDegrees course: Double, speedMetersPerSecond speed: Double,
                                      ageNanoseconds: Int64 = 0) {
        guard let d = declination.declinationDegrees, course.isFinite else { return }
        filter.aid(courseMagneticDegrees: Angle.wrap360(course - d), speedMetersPerSecond: speed,
                   ageNanoseconds: ageNanoseconds)
    }

    /// Gives the vehicle's forward speed over ground, m/s, measured at monotonic time
    /// `timestampNanoseconds`. The filter removes the vehicle's centripetal and along-track
    /// acceleration from the accelerometer while the speed is fresh (3 s); the along-track rate is
    /// the difference of consecutive speeds. Assumes the board's x axis points along the direction of
    /// travel (the mounting orientation) and forward driving.
    public mutating func updateSpeed(metersPerSecond speed: Double, timestampNanoseconds: Int64) {
        guard speed.isFinite, speed >= 0 else { return }
        var rate = 0.0
        let (elapsed, overflow) = timestampNanoseconds.subtractingReportingOverflow(speedTimestampNanoseconds)
        if speedTimestampNanoseconds != Int64.min, !overflow, elapsed > 0,
           elapsed <= HeadingEstimator.speedLifetimeNanoseconds {
            rate = (speed - lastSpeed) / (Double(elapsed) * 1e-9)
            rate = min(5, max(-5, rate))
        }
        lastSpeed = speed
        speedTimestampNanoseconds = timestampNanoseconds
        filter.setVehicleMotion(speedMetersPerSecond: speed, accelerationMetersPerSecondSquared: rate)
    }

    /// The estimate for the latest sample (whether published or not).
    public var current: HeadingEstimate {
        estimate(heading: filter.orientation.headingDegrees, accuracy: headingAccuracyDegrees, state: calibrationState)
    }

    /// The heading accuracy now, degrees; nil when the heading is not valid.
    public var headingAccuracyDegrees: Double? { accuracy(floorDegrees: floorDegrees(for: calibrationState)) }

    @inline(__always)
    private func accuracy(floorDegrees: Double) -> Double? {
        guard !filter.isStartingUp,
              let a = filter.accuracy.headingAccuracyDegrees(floorDegrees: floorDegrees, configuration: configuration.ahrs),
              a < configuration.maximumValidAccuracyDegrees else { return nil }
        return a
    }

    /// The magnetometer calibration state.
    public var calibrationState: MagnetometerCalibrationState {
        guard let c = calibration else { return .uncalibrated }
        if filter.magneticGate.relearnCount > 0 { return .fieldMismatch }
        let gate = filter.magneticGate
        if gate.hasReference && !filter.isStartingUp {
            if c.fieldMicrotesla > 0 {
                if abs(gate.referenceMicrotesla / c.fieldMicrotesla - 1) > configuration.fieldMismatchToleranceFraction {
                    return .fieldMismatch
                }
            } else if let f = declination.elements?.totalMicrotesla, f > 0,
                      abs(gate.referenceMicrotesla / f - 1) > configuration.modelMismatchToleranceFraction {
                return .fieldMismatch
            }
        }
        return c.coverageFraction < configuration.goodCoverageFraction ? .poorCoverage : .calibrated
    }

    /// True when the user should calibrate the magnetometer (CoreLocation's
    /// `shouldDisplayHeadingCalibration`).
    public var calibrationNeeded: Bool { calibrationState != .calibrated }

    /// The calibration-dependent part of the accuracy, degrees.
    private func floorDegrees(for state: MagnetometerCalibrationState) -> Double {
        switch state {
        case .uncalibrated: return configuration.uncalibratedFloorDegrees
        case .poorCoverage, .fieldMismatch: return configuration.poorCalibrationFloorDegrees
        case .calibrated:
            // A residual r of |m| turns into up to r·F/H radians of heading.
            let tanDip2 = filter.accuracy.tanDipSquared
            let residual = (calibration?.residualFraction ?? 0) * (1 + tanDip2).squareRoot() * Angle.degreesPerRadian
            return max(configuration.calibratedFloorDegrees, residual)
        }
    }

    private func estimate(heading: Double, accuracy: Double?, state: MagnetometerCalibrationState) -> HeadingEstimate {
        let q = filter.orientation
        let d = declination.declinationDegrees
        return HeadingEstimate(timestampNanoseconds: lastTimestampNanoseconds, magneticHeadingDegrees: heading,
                               trueHeadingDegrees: d.map { Angle.wrap360(heading + $0) }, declinationDegrees: d,
                               rollDegrees: q.rollDegrees, pitchDegrees: q.pitchDegrees, orientation: q,
                               headingAccuracyDegrees: accuracy, calibrationState: state,
                               calibrationNeeded: state != .calibrated, magnetometer: filter.lastMagnetometerDecision)
    }
}
