#if canImport(Glibc)
import Glibc
#endif

/// Counters of the filter's unusual events since it was created.
public struct AHRSCounters: Sendable, Equatable {
    /// Samples integrated.
    public var samples: Int = 0
    /// Samples skipped because gyro or accelerometer values were not finite.
    public var invalidSamples: Int = 0
    /// Samples skipped because their timestamp did not advance (duplicate or out of order).
    public var nonMonotonicTimestamps: Int = 0
    /// Gaps longer than `maximumTimeStepSeconds` (the filter re-initialised).
    public var gaps: Int = 0
    /// Gyro readings beyond the configured range (the start-up ramp restarted).
    public var gyroscopeOverranges: Int = 0
    /// Samples whose accelerometer was not used.
    public var accelerometerRejections: Int = 0
    /// Samples whose magnetometer reading was not used (absent readings not counted).
    public var magnetometerRejections: Int = 0

    public init() {}
}

/// Attitude and heading reference system: fuses gyroscope, accelerometer and (optional, per sample)
/// magnetometer readings of `IMUSample`s in the board frame into an orientation quaternion
/// (sensor → ENU earth frame, north = magnetic north).
///
/// Algorithm: a nonlinear complementary filter on the rotation group — Mahony, Hamel & Pflimlin,
/// "Nonlinear Complementary Filters on the Special Orthogonal Group", IEEE TAC 53(5), 2008 —
/// in the form of Madgwick's revised AHRS as implemented by x-io Fusion (MIT,
/// github.com/xioTechnologies/Fusion `FusionAhrs.c`, Madgwick's PhD thesis, 2014, ch. 7):
/// - the gyro rate is corrected by `accelerometerGain · (â × ĝ_est)` (tilt);
/// - the heading is corrected **only about the vertical**: `magnetometerGain · ψ_err · up_sensor`,
///   where ψ_err is the angle between the horizontal projection of the measured field and north —
///   decoupled from the tilt as Fusion's `cross(gravity, m)` feedback, but with separate gains;
/// - Fusion's gyroscope offset correction (`GyroBiasEstimator`), start-up gain ramp, gyro-range
///   restart, acceleration rejection with recovery (`AccelerometerGate`) and magnetic rejection with
///   recovery (`MagneticFieldGate`, here gated on field consistency first);
/// - integration with the exact exponential map over the measured time step (jitter, dropped samples).
///
/// Fixed size, no heap allocation; `update(_:)` is the hot path.
public struct AHRSFilter: Sendable {
    /// Tuning.
    public var configuration: AHRSConfiguration {
        didSet { derived = Derived(configuration) }
    }
    /// Trigonometry of the configured angles, computed when the configuration is set.
    private var derived: Derived
    /// Current orientation, sensor → ENU earth (north = magnetic north).
    public private(set) var orientation: Quaternion = .identity
    /// True once a sample with a usable accelerometer reading initialised the orientation.
    public private(set) var isInitialized = false
    /// Gyro offset estimation.
    public private(set) var gyroBias: GyroBiasEstimator
    /// Acceleration rejection state.
    public private(set) var accelerometerGate = AccelerometerGate()
    /// Magnetic rejection state and learned reference field.
    public private(set) var magneticGate = MagneticFieldGate()
    /// Heading accuracy propagation.
    public private(set) var accuracy = HeadingAccuracyModel()
    /// Event counters.
    public private(set) var counters = AHRSCounters()
    /// Timestamp of the last integrated sample, nanoseconds.
    public private(set) var lastTimestampNanoseconds: Int64 = 0
    /// Seconds left of the start-up ramp (0 once running normally).
    public private(set) var startupRemainingSeconds: Double
    /// What happened to the last sample's accelerometer reading.
    public private(set) var lastAccelerometerDecision: AccelerometerDecision = .invalid
    /// What happened to the last sample's magnetometer reading.
    public private(set) var lastMagnetometerDecision: MagnetometerDecision = .absent
    /// Heading implied by the last magnetometer reading minus the estimate, degrees (0 when absent).
    public private(set) var lastInnovationDegrees: Double = 0
    /// |m| of the last magnetometer reading, µT (0 when absent).
    public private(set) var lastFieldMicrotesla: Double = 0
    /// Dip of the last magnetometer reading under the estimated tilt, degrees (0 when absent).
    public var lastDipDegrees: Double { atan2(lastSinDip, lastCosDip) * Angle.degreesPerRadian }
    private var lastCosDip: Double = 1, lastSinDip: Double = 0

    private struct Derived: Sendable {
        var sinAccelerationRejection: Double
        var cosDipTolerance: Double
        var biasTurnChord: Double
        var inverseAccelerationTolerance: Double
        init(_ c: AHRSConfiguration) {
            inverseAccelerationTolerance = 1 / (max(1e-9, c.accelerationToleranceFraction) * AHRSFilter.standardGravity)
            biasTurnChord = 2 * sin(min(180, c.gyroBiasMaximumTurnDegrees) * Angle.radiansPerDegree / 2)
            sinAccelerationRejection = sin(min(90, c.accelerationRejectionDegrees) * Angle.radiansPerDegree)
            cosDipTolerance = cos(min(180, c.fieldDipToleranceDegrees) * Angle.radiansPerDegree)
        }
    }

    /// Forward speed of the vehicle along the board's x axis, m/s, when known (from GPS).
    public private(set) var vehicleSpeedMetersPerSecond: Double? = nil
    /// Rate of change of that speed, m/s².
    public private(set) var vehicleAccelerationMetersPerSecondSquared: Double = 0

    /// GPS speed above which the vehicle is moving (no gyro-bias learning), m/s.
    public static let movingSpeedMetersPerSecond = 0.5

    /// Standard gravity, m/s².
    public static let standardGravity = 9.80665

    /// A filter waiting for its first sample. `gyroBias` may carry a stored estimate.
    public init(configuration: AHRSConfiguration = .default, gyroBias: GyroBiasEstimator = GyroBiasEstimator()) {
        self.configuration = configuration
        self.derived = Derived(configuration)
        self.gyroBias = gyroBias
        self.startupRemainingSeconds = configuration.startupSeconds
    }

    /// True during the start-up ramp (or before the first sample).
    @inline(__always)
    public var isStartingUp: Bool { !isInitialized || startupRemainingSeconds > 0 }

    /// Forgets the orientation and restarts from the next sample (keeps the gyro bias, the learned
    /// reference field and the counters).
    public mutating func restart() {
        isInitialized = false
        startupRemainingSeconds = configuration.startupSeconds
        accelerometerGate.reset()
        magneticGate.resetRecovery()
        accuracy.reset()
    }

    /// Sets the vehicle's forward speed (m/s, nil = unknown) and its rate of change (m/s²) used to
    /// remove the vehicle's own acceleration from the accelerometer (see `vehicleCompensationFactor`).
    public mutating func setVehicleMotion(speedMetersPerSecond: Double?, accelerationMetersPerSecondSquared: Double) {
        vehicleSpeedMetersPerSecond = speedMetersPerSecond.flatMap { $0.isFinite ? $0 : nil }
        vehicleAccelerationMetersPerSecondSquared = accelerationMetersPerSecondSquared.isFinite
            ? accelerationMetersPerSecondSquared : 0
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
        let up = accel.normalized
        guard up.lengthSquared > 0 else {
            counters.invalidSamples &+= 1
            return false
        }
        // TRIAD: east = m × up, north = up × east; without a usable field, north = forward projected.
        var east = magnetic.map { $0.cross(up).normalized } ?? .zero
        if east.lengthSquared == 0 {
            var forward = Vector3(1, 0, 0) - up * up.x
            if forward.lengthSquared < 1e-6 { forward = Vector3(0, 1, 0) - up * up.y }
            east = forward.normalized.cross(up)
        }
        let north = up.cross(east)
        orientation = Quaternion(rotationMatrixRows: east, north, up)
        isInitialized = true
        lastTimestampNanoseconds = timestamp
        startupRemainingSeconds = configuration.startupSeconds
        counters.samples &+= 1
        return true
    }

    @inline(__always)
    private mutating func integrate(gyro rawGyro: Vector3, accel measured: Vector3, magnetic: Vector3?, dt: Double) {
        let c = configuration
        let range = c.gyroscopeRangeDegreesPerSecond * 0.98 * Angle.radiansPerDegree
        if range > 0 && rawGyro.maximumMagnitude > range {
            counters.gyroscopeOverranges &+= 1
            startupRemainingSeconds = c.startupSeconds
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
        let gyro = gyroBias.correct(rawGyro, accelDirection: a, eastDirection: east, dt: dt,
                                    turnChord: derived.biasTurnChord, moving: moving, configuration: c)

        // Start-up ramp: gains boosted by a factor falling linearly to 1.
        let startup = startupRemainingSeconds > 0
        var boost = 1.0
        if startup {
            boost = c.startupSeconds > 0 ? 1 + (c.startupGainFactor - 1) * startupRemainingSeconds / c.startupSeconds : 1
            startupRemainingSeconds = max(0, startupRemainingSeconds - dt)
        }
        // Corrections are angles (gain·dt·error) with gain·dt ≤ 0.5, so a long step or a large gain
        // cannot overshoot.

        let m = orientation.matrix
        let up = Vector3(m.6, m.7, m.8)                 // earth z in the sensor frame (estimated "up")
        var correction = Vector3.zero                   // radians, sensor frame
        var accelGainUsed = 0.0

        // Accelerometer: tilt.
        if accelNorm > 0 {
            var error = a.cross(up)
            let sinAngle = error.length
            let cosAngle = a.dot(up)
            let deviation = (accelNorm - AHRSFilter.standardGravity) * derived.inverseAccelerationTolerance
            let magnitudeOK = abs(deviation) <= 1
            let angleOK = cosAngle > 0 && sinAngle <= derived.sinAccelerationRejection
            let decision = accelerometerGate.decide(magnitudeOK: magnitudeOK, angleOK: angleOK, startup: startup,
                                                    dt: dt, configuration: c)
            lastAccelerometerDecision = decision
            if decision == .accepted {
                if cosAngle < 0 && sinAngle > 0 { error = error * (1 / sinAngle) }   // > 90°: full effort (Fusion)
                let weight = max(0, 1 - deviation * deviation)
                let gainDt = min(c.accelerometerGainPerSecond * boost * (startup ? 1 : weight) * dt, 0.5)
                correction += error * gainDt
                accelGainUsed = c.accelerometerGainPerSecond
            } else {
                counters.accelerometerRejections &+= 1
            }
        } else {
            lastAccelerometerDecision = .invalid
        }

        // Magnetometer: heading only, about the vertical.
        var magGainUsed = 0.0
        var innovationUsed: Double? = nil
        if let field = magnetic {
            let east = m.0 * field.x + m.1 * field.y + m.2 * field.z
            let north = m.3 * field.x + m.4 * field.y + m.5 * field.z
            let vertical = up.dot(field)
            let horizontal = (east * east + north * north).squareRoot()
            let innovation = atan2(east, north)         // field east of the estimated north → positive
            let innovationDegrees = innovation * Angle.degreesPerRadian
            let magnitude = fieldNorm
            lastFieldMicrotesla = magnitude
            lastCosDip = horizontal / magnitude
            lastSinDip = -vertical / magnitude
            lastInnovationDegrees = innovationDegrees
            let decision = magneticGate.decide(fieldMicrotesla: magnitude, cosDip: lastCosDip, sinDip: lastSinDip,
                                               innovationDegrees: innovationDegrees,
                                               cosDipTolerance: derived.cosDipTolerance, startup: startup,
                                               dt: dt, configuration: c)
            lastMagnetometerDecision = decision
            if decision.isUsed {
                let factor = decision == .recovering ? c.magneticRecoveryGainFactor : 1
                let gainDt = min(c.magnetometerGainPerSecond * boost * factor * dt, 0.5)
                correction += up * (innovation * gainDt)
                magGainUsed = c.magnetometerGainPerSecond
                innovationUsed = innovationDegrees
            } else {
                counters.magnetometerRejections &+= 1
            }
        } else {
            lastMagnetometerDecision = .absent
            lastInnovationDegrees = 0
            lastFieldMicrotesla = 0
            lastCosDip = 1
            lastSinDip = 0
        }

        // Integrate the corrected rate over the step with the exponential map.
        orientation = (orientation * Quaternion.rotationVector(gyro * dt + correction)).renormalized

        // Accuracy propagation.
        let d2 = Angle.degreesPerRadian * Angle.degreesPerRadian
        let verticalRate = gyro.dot(up)
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
