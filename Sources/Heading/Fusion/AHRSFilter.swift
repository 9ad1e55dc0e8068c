import IMU
import Angles
#if canImport(Glibc)
import Glibc
#endif

/// Attitude and heading reference system: fuses gyroscope, accelerometer and (optional, per sample)
/// magnetometer readings of `IMUSample`s in the board frame into an orientation quaternion
/// (sensor → ENU earth frame, north = magnetic north). The design follows the ideas of the VQF filter
/// (Laidig & Seel, Information Fusion 91, 2023; implemented here from the paper) and is described in
/// `docs/heading.md`:
/// - the gyro, less its offset (`GyroBiasEstimator`: learned at rest and from the tilt corrections in
///   motion), is integrated exactly (the exponential map over the measured step);
/// - the tilt (`InclinationEstimator`) comes from the specific force low-passed in the gyro-integrated
///   quasi-inertial frame, where linear accelerations average out, with time constant
///   `tiltTimeConstantSeconds`;
/// - the heading is a rotation about the vertical on top, pulled toward the horizontal field direction
///   with the Kalman gain of the heading's variance (`HeadingVariance`) while `MagneticFieldGate` finds
///   the field undisturbed (magnitude and dip), held by the gyro otherwise; with a GNSS course
///   (`CourseAiding`) the course corrects it instead and the magnetometer's offset is learned.
/// Rate-independent (every gain comes from a time constant or a variance over the measured step),
/// fixed size, no heap allocation; `update(_:)` is the hot path.
public struct AHRSFilter: Sendable {
    /// Tuning.
    public var configuration: AHRSConfiguration {
        didSet { derived = AHRSDerivedConstants(configuration) }
    }
    /// Trigonometry of the configured angles, computed when the configuration is set.
    private var derived: AHRSDerivedConstants
    /// Current orientation, sensor → ENU earth (north = magnetic north).
    public private(set) var orientation: Quaternion = .identity
    /// True once a sample with a usable accelerometer reading initialised the orientation.
    public private(set) var isInitialized = false
    /// Gyro offset estimation (with the rest detector).
    public private(set) var gyroBias: GyroBiasEstimator
    /// Roll and pitch.
    public private(set) var inclination = InclinationEstimator()
    /// The tilt corrections as measurements of the gyro offset.
    private var motionBias = MotionBiasObservation()
    /// The heading correction on top of `inclination`: a rotation about the vertical (w, z).
    private var headingW = 1.0, headingZ = 0.0
    /// Magnetic rejection state and learned reference field.
    public private(set) var magneticGate = MagneticFieldGate()
    /// GNSS course aiding and the magnetometer offset learned against it.
    public private(set) var course = CourseAiding()
    /// Heading accuracy propagation.
    public private(set) var accuracy = HeadingAccuracyModel()
    /// Event counters.
    public private(set) var counters = AHRSCounters()
    /// Timestamp of the last integrated sample, nanoseconds.
    public private(set) var lastTimestampNanoseconds: Int64 = 0
    /// Seconds left of the start-up period (0 once running normally).
    public private(set) var startupRemainingSeconds: Double
    /// How well the heading is known: sets the gain of each magnetometer reading and GNSS course.
    public private(set) var headingVariance = HeadingVariance()
    /// The usual time step, seconds (a slow average; a longer step means samples were lost).
    private var typicalStepSeconds = 0.0
    /// The previous sample's raw rate, rad/s.
    private var previousGyro = Vector3.zero
    /// Time of the previous magnetometer reading, ns (0: none since the filter initialised).
    private var lastMagnetometerTimestampNanoseconds: Int64 = 0
    /// How far the board turned since the previous magnetometer reading, rad (|ω|·dt summed).
    private var turnSinceMagnetometerRadians = 0.0
    /// The gain of a course applied since the last sample (for the accuracy model), 0 when none.
    private var pendingCourseGain = 0.0
    /// What happened to the last sample's magnetometer reading.
    public private(set) var lastMagnetometerDecision: MagnetometerDecision = .absent
    /// Heading implied by the last magnetometer reading minus the estimate, degrees (0 when absent).
    public private(set) var lastInnovationDegrees: Double = 0
    /// |m| of the last magnetometer reading, µT (0 when absent).
    public private(set) var lastFieldMicrotesla: Double = 0
    /// Dip of the last magnetometer reading under the estimated tilt, degrees (0 when absent).
    public var lastDipDegrees: Double { atan2(lastSinDip, lastCosDip) * Angle.degreesPerRadian }
    private var lastCosDip: Double = 1, lastSinDip: Double = 0

    /// Forward speed of the vehicle along the board's x axis, m/s, when known (from GPS).
    public private(set) var vehicleSpeedMetersPerSecond: Double? = nil
    /// Rate of change of that speed, m/s².
    public private(set) var vehicleAccelerationMetersPerSecondSquared: Double = 0

    /// GPS speed above which the vehicle is moving (no gyro-bias learning), m/s.
    public static let movingSpeedMetersPerSecond = 0.5

    /// Time constant of the heading during start-up, seconds.
    public static let startupHeadingSeconds = 0.5

    /// Standard gravity, m/s².
    public static let standardGravity = 9.80665

    /// Longest time one magnetometer reading stands for, seconds: a reading after a longer silence
    /// (readings absent, e.g. a magnetometer that stopped) is one snapshot, not seconds of evidence.
    public static let maximumMagnetometerIntervalSeconds = 1.0

    /// A filter waiting for its first sample. `gyroBias` may carry a stored estimate.
    public init(configuration: AHRSConfiguration = .default, gyroBias: GyroBiasEstimator = GyroBiasEstimator()) {
        self.configuration = configuration
        self.derived = AHRSDerivedConstants(configuration)
        self.gyroBias = gyroBias
        self.startupRemainingSeconds = configuration.startupSeconds
    }

    /// True during start-up (or before the first sample).
    @inline(__always)
    public var isStartingUp: Bool { !isInitialized || startupRemainingSeconds > 0 }

    /// Forgets the orientation and restarts from the next sample (keeps the gyro bias, the learned
    /// reference field, the magnetometer offset and the counters).
    public mutating func restart() {
        isInitialized = false
        startupRemainingSeconds = configuration.startupSeconds
        magneticGate.resetRecovery()
        gyroBias.resetRest()
        motionBias.reset()
        course.restart()
        headingVariance.reset()
        accuracy.reset()
    }

    /// Sets the vehicle's forward speed (m/s, nil = unknown) and its rate of change (m/s²) used to
    /// remove the vehicle's own acceleration from the accelerometer (see `vehicleCompensationFactor`).
    public mutating func setVehicleMotion(speedMetersPerSecond: Double?, accelerationMetersPerSecondSquared: Double) {
        vehicleSpeedMetersPerSecond = speedMetersPerSecond.flatMap { $0.isFinite ? $0 : nil }
        vehicleAccelerationMetersPerSecondSquared = accelerationMetersPerSecondSquared.isFinite
            ? accelerationMetersPerSecondSquared : 0
    }

    /// A GNSS course over ground (degrees from **magnetic** north) at `speedMetersPerSecond`, arriving
    /// now (the time of the last sample) and measured `ageNanoseconds` earlier; see `CourseAiding` for
    /// when it corrects the heading.
    public mutating func aid(courseMagneticDegrees: Double, speedMetersPerSecond: Double, ageNanoseconds: Int64 = 0) {
        guard isInitialized, !isStartingUp else { return }
        let turn = course.observe(courseDegrees: courseMagneticDegrees, speedMetersPerSecond: speedMetersPerSecond,
                                  headingDegrees: orientation.headingDegrees, timestampNanoseconds: lastTimestampNanoseconds,
                                  ageNanoseconds: ageNanoseconds, configuration: configuration)
        guard let difference = turn else { return }
        if course.lastUseWasRecovery { headingVariance.reset() }
        let k = headingVariance.courseGain(configuration: configuration)
        rotateHeading(radians: -difference * k * Angle.radiansPerDegree)
        pendingCourseGain = k
    }

    /// Processes one sample whose magnetometer reading (if any) is already calibrated. Returns false
    /// when the sample was skipped (not finite, or its timestamp did not advance).
    @discardableResult
    public mutating func update(_ sample: IMUSample) -> Bool {
        let gyro = sample.gyroRadiansPerSecond, accel = sample.accelerationMetersPerSecondSquared
        guard gyro.isFinite, accel.isFinite else {
            counters.invalidSamples &+= 1
            return false
        }
        var magnetic: Vector3? = nil
        if let m = sample.magneticFieldMicrotesla, m.isFinite, m.lengthSquared > 0 { magnetic = m }

        guard isInitialized else {
            return initialize(sample.timestampNanoseconds, accel: accel, magnetic: magnetic)
        }
        let (stepNanoseconds, overflow) = sample.timestampNanoseconds.subtractingReportingOverflow(lastTimestampNanoseconds)
        guard stepNanoseconds > 0 || overflow else {
            counters.nonMonotonicTimestamps &+= 1
            return false
        }
        let dt = Double(stepNanoseconds) * 1e-9
        if overflow || dt > configuration.maximumTimeStepSeconds {      // a jump beyond Int64: a gap
            counters.gaps &+= 1
            restart()
            return initialize(sample.timestampNanoseconds, accel: accel, magnetic: magnetic)
        }
        lastTimestampNanoseconds = sample.timestampNanoseconds
        counters.samples &+= 1
        integrate(gyro: gyro, accel: accel, magnetic: magnetic, dt: dt)
        return true
    }

    // MARK: - private

    private mutating func initialize(_ timestamp: Int64, accel: Vector3, magnetic: Vector3?) -> Bool {
        guard accel.lengthSquared > 0 else {
            counters.invalidSamples &+= 1
            return false
        }
        inclination.reset(accel: accel)
        headingW = 1
        headingZ = 0
        orientation = inclination.orientation
        // Heading: the field's, or (without one) the forward axis' projection as north.
        let m = orientation.matrix
        var east = m.0, north = m.3
        if let field = magnetic {
            let e = orientation.rotate(field)
            if e.x * e.x + e.y * e.y > 1e-12 { east = e.x; north = e.y }
        }
        if east * east + north * north > 1e-12 { rotateHeading(radians: atan2(east, north)) }
        isInitialized = true
        lastTimestampNanoseconds = timestamp
        startupRemainingSeconds = configuration.startupSeconds
        headingVariance.reset()
        typicalStepSeconds = 0
        lastMagnetometerTimestampNanoseconds = magnetic == nil ? 0 : timestamp
        turnSinceMagnetometerRadians = 0
        counters.samples &+= 1
        return true
    }

    /// Turns the heading correction by `radians` about the vertical (counter-clockwise seen from above,
    /// i.e. the heading decreases) and refreshes `orientation`.
    @inline(__always)
    private mutating func rotateHeading(radians: Double) {
        let r = Quaternion.rotationVector(Vector3(0, 0, radians))
        let w = r.w * headingW - r.z * headingZ, z = r.w * headingZ + r.z * headingW
        let n2 = w * w + z * z
        let k = abs(n2 - 1) < 1e-6 ? (3 - n2) * 0.5 : 1 / n2.squareRoot()
        headingW = w * k
        headingZ = z * k
        orientation = (Quaternion(w: headingW, x: 0, y: 0, z: headingZ) * inclination.orientation).renormalized
    }

    @inline(__always)
    private mutating func integrate(gyro rawGyro: Vector3, accel measured: Vector3, magnetic: Vector3?, dt: Double) {
        let c = configuration
        let range = c.gyroscopeRangeDegreesPerSecond * 0.98 * Angle.radiansPerDegree
        if range > 0 && rawGyro.maximumMagnitude > range {
            counters.gyroscopeOverranges &+= 1
            startupRemainingSeconds = c.startupSeconds
            headingVariance.reset()
            inclination.restartAveraging(accel: measured)
        }
        // Remove the vehicle's own acceleration a = v̇·x̂ + ω × (v·x̂) = (v̇, ω_z·v, −ω_y·v) (the raw
        // rate is close enough to the bias-corrected one for this).
        var accel = measured
        if let v = vehicleSpeedMetersPerSecond, c.vehicleCompensationFactor != 0 {
            let k = c.vehicleCompensationFactor
            accel -= Vector3(vehicleAccelerationMetersPerSecondSquared, rawGyro.z * v, -rawGyro.y * v) * k
        }
        let accelNorm = accel.length
        let a = accelNorm > 0 ? accel * (1 / accelNorm) : Vector3.zero
        let fieldNorm = magnetic?.length ?? 0
        // Horizontal "east" direction in the sensor frame, â × m̂ (length cos dip): turns exactly with
        // the heading whatever the dip, which is what the bias estimator watches for slow turns.
        var east: Vector3? = nil
        if fieldNorm > 0, let m = magnetic {
            let e = a.cross(m) * (1 / fieldNorm)
            if e.lengthSquared > 1e-6 { east = e }
        }
        let moving = (vehicleSpeedMetersPerSecond ?? 0) > AHRSFilter.movingSpeedMetersPerSecond
        let gyro = gyroBias.correct(rawGyro, accel: measured, accelDirection: a, eastDirection: east, dt: dt,
                                    turnChord: derived.biasTurnChord, moving: moving, configuration: c)

        let startup = startupRemainingSeconds > 0
        if startup { startupRemainingSeconds = max(0, startupRemainingSeconds - dt) }
        // Lost samples (a step well beyond the usual one): the step is integrated at the rate after
        // the gap, which misses how the rate changed in the missing time, about |Δω|·(missing time);
        // the heading's variance grows by it.
        if typicalStepSeconds == 0 { typicalStepSeconds = dt }
        let unseen = dt - 1.5 * typicalStepSeconds
        if unseen > 0 {
            let angle = (rawGyro - previousGyro).length * unseen * Angle.degreesPerRadian
            headingVariance.addUnseen(degreesSquared: angle * angle)
        }
        previousGyro = rawGyro
        turnSinceMagnetometerRadians += gyro.length * dt
        typicalStepSeconds += (min(dt, 2 * typicalStepSeconds) - typicalStepSeconds) * 0.01

        // Tilt: gyro prediction, then the low-passed specific force in I (unless it is not gravity).
        inclination.predict(gyro: gyro, dt: dt)
        var accelGainUsed = 0.0
        if accelNorm > 0 {
            let tau = c.tiltTimeConstantSeconds
            let filtered = inclination.filter(accel: accel, dt: dt, tau: tau)
            let norm = filtered.length
            var correction = Vector3.zero
            let used = norm > 0 && (startup || abs(norm - AHRSFilter.standardGravity)
                <= c.accelerationToleranceFraction * AHRSFilter.standardGravity)
            if used {
                correction = inclination.level(filtered, norm: norm)
                accelGainUsed = tau > 0 ? 1 / tau : 1 / dt
            } else {
                counters.accelerometerRejections &+= 1
            }
            // Motion bias estimation from the corrections, once the low-pass runs on its time constant.
            // Not in a vehicle (a GPS speed is known): its accelerations are compensated only at the GPS
            // rate and with a lag, so the corrections do not measure the gyro; its stops do (rest).
            let observation = motionBias.add(matrix: inclination.orientation.matrix, k: inclination.lastCoefficient,
                                             correction: correction, bias: gyroBias.biasRadiansPerSecond, dt: dt)
            if used && !startup && vehicleSpeedMetersPerSecond == nil && gyroBias.rest.stillSeconds == 0
                && inclination.isSettled(tau: tau) {
                if let o = observation {
                    gyroBias.observeMotion(east: o.east, north: o.north, eastRow: o.eastRow, northRow: o.northRow,
                                           configuration: c)
                }
            } else {
                motionBias.discardInterval()
            }
        }
        orientation = (Quaternion(w: headingW, x: 0, y: 0, z: headingZ) * inclination.orientation).renormalized

        // Magnetometer: heading only, about the vertical, with the gain of the heading's variance.
        let m = orientation.matrix
        let verticalRate = gyro.dot(Vector3(m.6, m.7, m.8))      // earth z in the sensor frame
        headingVariance.predict(verticalRateDegreesPerSecond: verticalRate * Angle.degreesPerRadian, dt: dt,
                                configuration: c)
        if startup {
            // The tilt is still settling: the heading follows the magnetometer with a 0.5 s time
            // constant (gain dt/0.5 s) instead of averaging readings taken under a wrong tilt.
            headingVariance.keepAtLeast(degreesSquared: c.magneticNoiseDegreesRootSecond * c.magneticNoiseDegreesRootSecond
                                        / AHRSFilter.startupHeadingSeconds)
        }
        var magGainUsed = 0.0
        var innovationUsed: Double? = nil
        let aided = course.isAiding(atNanoseconds: lastTimestampNanoseconds, configuration: c)
        if let raw = magnetic {
            // A reading stands for the time since the previous one (docs/heading.md §4.1): with one
            // every sample that is the sample's step; a magnetometer slower than the gyroscope (read
            // once per FIFO burst) corrects as strongly per second, however many samples lie between.
            let magneticDt = magnetometerInterval(dt: dt)
            let turn = turnSinceMagnetometerRadians
            lastMagnetometerTimestampNanoseconds = lastTimestampNanoseconds
            turnSinceMagnetometerRadians = 0
            let field = raw - course.magneticOffsetMicrotesla
            let norm = field.length
            let e = orientation.rotate(field)
            let horizontal = (e.x * e.x + e.y * e.y).squareRoot()
            let innovation = atan2(e.x, e.y)            // field east of the estimated north → positive
            lastFieldMicrotesla = norm
            lastCosDip = norm > 0 ? horizontal / norm : 1
            lastSinDip = norm > 0 ? -e.z / norm : 0
            lastInnovationDegrees = innovation * Angle.degreesPerRadian
            let decision = magneticGate.decide(fieldMicrotesla: norm, cosDip: lastCosDip, sinDip: lastSinDip,
                                               innovationDegrees: lastInnovationDegrees,
                                               headingSigmaDegrees: headingVariance.sigmaDegrees,
                                               turnRadians: turn, cosDipTolerance: derived.cosDipTolerance,
                                               startup: startup, dt: magneticDt, configuration: c)
            lastMagnetometerDecision = decision
            if magneticGate.lostHeading { headingVariance.reset() }
            if aided, magneticGate.hasReference {
                // The course holds the heading: what the magnetometer reads beyond the reference field
                // is its offset (whether the gate accepts the reading or not).
                let gate = magneticGate
                let expected = orientation.inverseRotate(Vector3(0, gate.referenceMicrotesla * gate.referenceCosDip,
                                                                 -gate.referenceMicrotesla * gate.referenceSinDip))
                course.learnMagneticOffset(residualMicrotesla: raw - expected, dt: magneticDt, configuration: c)
            } else if decision.isUsed {
                let k = headingVariance.magnetometerGain(weight: magneticGate.weight,
                                                         rateDegreesPerSecond: gyro.length * Angle.degreesPerRadian,
                                                         dt: magneticDt, configuration: c)
                rotateHeading(radians: innovation * k)
                magGainUsed = k / dt
                innovationUsed = lastInnovationDegrees
            }
            if !decision.isUsed { counters.magnetometerRejections &+= 1 }
        } else {
            lastMagnetometerDecision = .absent
            lastInnovationDegrees = 0
            lastFieldMicrotesla = 0
            lastCosDip = 1
            lastSinDip = 0
        }
        course.record(headingDegrees: orientation.headingDegrees, atNanoseconds: lastTimestampNanoseconds)
        if pendingCourseGain > 0 {
            magGainUsed = pendingCourseGain / dt
            innovationUsed = course.takeInnovationDegrees()
            pendingCourseGain = 0
        }

        accuracyStep(dt: dt, gyro: gyro, verticalRate: verticalRate, accelGain: accelGainUsed, magGain: magGainUsed,
                     innovation: innovationUsed)
    }

    /// The seconds the current magnetometer reading stands for: since the previous reading, at least
    /// this step, at most `maximumMagnetometerIntervalSeconds` (the first reading: this step).
    @inline(__always)
    private func magnetometerInterval(dt: Double) -> Double {
        guard lastMagnetometerTimestampNanoseconds != 0 else { return dt }
        let since = Double(lastTimestampNanoseconds &- lastMagnetometerTimestampNanoseconds) * 1e-9
        return min(max(since, dt), max(dt, AHRSFilter.maximumMagnetometerIntervalSeconds))
    }

    @inline(__always)
    private mutating func accuracyStep(dt: Double, gyro: Vector3, verticalRate: Double, accelGain accelGainUsed: Double,
                                       magGain magGainUsed: Double, innovation innovationUsed: Double?) {
        let c = configuration
        // Accuracy propagation.
        let d2 = Angle.degreesPerRadian * Angle.degreesPerRadian
        let sigmaB = gyroBias.isEstimated ? c.gyroBiasUncertaintyDegreesPerSecond
                                          : c.gyroBiasUncertaintyUnestimatedDegreesPerSecond
        let gate = magneticGate
        let tanDip2 = gate.hasReference && gate.referenceCosDip > 0.1
            ? (gate.referenceSinDip * gate.referenceSinDip) / (gate.referenceCosDip * gate.referenceCosDip) : 100
        accuracy.step(dt: dt, rateSquared: gyro.lengthSquared * d2, verticalRateSquared: verticalRate * verticalRate * d2,
                      biasUncertaintyDegreesPerSecond: sigmaB, accelerometerGain: accelGainUsed,
                      magnetometerGain: magGainUsed, innovationDegrees: innovationUsed,
                      tanDipSquared: gate.hasReference ? tanDip2 : 4, configuration: c)
    }
}
