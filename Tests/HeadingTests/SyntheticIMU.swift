#if canImport(Glibc)
@testable import IMU
import Angles
import Glibc
#endif
import TestSupport
@testable import Heading

extension SeededRandom {
    /// Three independent normal draws scaled by `sigma`.
    mutating func gaussianVector(_ sigma: Double) -> Vector3 { Vector3(gaussian(), gaussian(), gaussian()) * sigma }
}

/// Sensor errors of a synthetic run (docs/hardware.md §4 recipe). Units as named.
struct SyntheticErrors {
    var gyroBiasDegreesPerSecond = Vector3.zero
    var gyroNoiseDegreesPerSecond = 0.0
    var accelNoiseMetersPerSecondSquared = 0.0
    var magNoiseMicrotesla = 0.0
    /// Hard iron h, µT.
    var hardIronMicrotesla = Vector3.zero
    /// Soft iron S (symmetric, rows): m_measured = S·m_true + h.
    var softIron = SymmetricMatrix3(xx: 1, xy: 0, xz: 0, yy: 1, yz: 0, zz: 1)
    /// Timestamp jitter, ± nanoseconds (uniform).
    var jitterNanoseconds: Int64 = 0
    /// Probability that a sample is dropped.
    var dropProbability = 0.0
    /// Quantise to typical chip resolutions (gyro 0.07 °/s, accel 0.6 mg, mag 0.015 µT).
    var quantize = false

    static let none = SyntheticErrors()
    /// Realistic MEMS errors (docs/hardware.md §4): bias, noise, jitter, drops, hard and soft iron.
    static let realistic = SyntheticErrors(
        gyroBiasDegreesPerSecond: Vector3(0.8, -0.5, 0.3), gyroNoiseDegreesPerSecond: 0.1,
        accelNoiseMetersPerSecondSquared: 0.03, magNoiseMicrotesla: 0.3,
        hardIronMicrotesla: Vector3(25, -12, 8),
        softIron: SymmetricMatrix3(xx: 1.08, xy: 0.04, xz: -0.03, yy: 0.93, yz: 0.05, zz: 1.02),
        jitterNanoseconds: 500_000, dropProbability: 0.005, quantize: true)

    /// The calibration that exactly undoes the hard and soft iron.
    var trueCalibration: MagnetometerCalibration {
        let w = EllipsoidFit.inverse(softIron)!
        return MagnetometerCalibration(hardIronMicrotesla: hardIronMicrotesla, softIronRow0: w.row(0),
                                       softIronRow1: w.row(1), softIronRow2: w.row(2), fieldMicrotesla: 0)
    }
}

/// One synthetic sample with its truth.
struct SyntheticSample {
    var sample: IMUSample
    /// True orientation, sensor → ENU earth (magnetic north).
    var truth: Quaternion
    var timeSeconds: Double
    /// Forward speed of the vehicle, m/s (0 for the tumble).
    var speed: Double = 0
}

/// Synthetic IMU data with known orientation (docs/hardware.md §4): a vehicle-like drive (stationary
/// start, constant-heading legs, turns of 10–90 °/s, gentle roll and pitch, speed changes and
/// centripetal acceleration) or a calibration "tumble" through all orientations; gyro from the interval
/// rate rotvec(q⁻¹ₖ₋₁ ⊗ qₖ)/dt, accelerometer = specific force Rᵀ(a + g ẑ), magnetometer = S·Rᵀm + h.
/// ENU earth frame with y = magnetic north (the filter's frame); the field is WMM2025 at Bristol,
/// 2026-07-01 (F 49.0 µT, dip 66.4°). `speed` is the vehicle's forward speed (what GPS would report).
enum SyntheticIMU {
    static let rateHertz = 100.0
    /// Earth field at Bristol 2026.5 in ENU with y = magnetic north, µT.
    static let fieldENU: Vector3 = {
        let e = WorldMagneticModel.wmm2025.field(latitudeDegrees: 51.4545, longitudeDegrees: -2.5879,
                                                 heightKilometers: 0, decimalYear: 2026.4959)
        return Vector3(0, e.horizontalNanotesla, -e.downNanotesla) * 0.001
    }()

    /// A drive of `seconds` seconds starting with `stationarySeconds` at rest.
    static func drive(seconds: Double, stationarySeconds: Double = 20, seed: UInt64,
                      errors: SyntheticErrors) -> [SyntheticSample] {
        var rng = SeededRandom(seed: seed)
        var heading = rng.uniform(0, 360) * Angle.radiansPerDegree
        var headingRate = 0.0, currentRate = 0.0, legRemaining = 0.0, speed = 0.0, speedRate = 0.0
        let n = Int(seconds * rateHertz)
        return generate(count: n, seed: seed &+ 1, errors: errors) { t, dt in
            // Orientation: yaw legs and turns after the stationary start; gentle roll and pitch.
            if t > stationarySeconds {
                legRemaining -= dt
                if legRemaining <= 0 {
                    let turning = headingRate == 0
                    headingRate = turning ? rng.uniform(10, 90) * (rng.uniform() < 0.5 ? -1 : 1) * Angle.radiansPerDegree : 0
                    legRemaining = turning ? rng.uniform(1, 4) : rng.uniform(3, 10)
                    speedRate = rng.uniform(-1.5, 1.5)
                }
                // A vehicle: lateral acceleration speed·rate stays below 3 m/s² (0.3 g).
                let rate = speed > 0 ? min(abs(headingRate), 3 / speed) : abs(headingRate)
                heading += (headingRate < 0 ? -rate : rate) * dt
                currentRate = headingRate < 0 ? -rate : rate
                speed = min(25, max(0, speed + speedRate * dt))
            }
            let moving = t > stationarySeconds ? 1.0 : 0
            let roll = moving * 12 * sin(2 * Double.pi * t / 7.3) * Angle.radiansPerDegree
            let pitch = moving * 8 * sin(2 * Double.pi * t / 11.1 + 1) * Angle.radiansPerDegree
            let q = Quaternion.aboutVertical(radians: Double.pi / 2 - heading)
                * Quaternion(w: cos(pitch / 2), x: 0, y: sin(pitch / 2), z: 0)
                * Quaternion(w: cos(roll / 2), x: sin(roll / 2), y: 0, z: 0)
            // Horizontal acceleration: along-track speed change plus centripetal (left for a left turn).
            let forward = Vector3(sin(heading), cos(heading), 0), left = Vector3(-cos(heading), sin(heading), 0)
            let along = speed > 0 && speed < 25 ? speedRate * moving : 0
            let acceleration = forward * along + left * (-currentRate * speed * moving)
            return (q, acceleration, speed)
        }
    }

    /// A calibration run: the board tumbled through all orientations for `seconds`.
    static func tumble(seconds: Double, seed: UInt64, errors: SyntheticErrors) -> [SyntheticSample] {
        var q = Quaternion.identity
        return generate(count: Int(seconds * rateHertz), seed: seed, errors: errors) { t, dt in
            let axis = Vector3(sin(0.31 * t) * cos(0.17 * t), sin(0.23 * t + 0.5), cos(0.29 * t)).normalized
            q = (q * Quaternion.rotationVector(axis * (50 * Angle.radiansPerDegree * dt))).normalized
            return (q, .zero, 0)
        }
    }

    /// Samples from a truth function (orientation, earth-frame linear acceleration at time t).
    private static func generate(count: Int, seed: UInt64, errors e: SyntheticErrors,
                                 truth: (Double, Double) -> (Quaternion, Vector3, Double)) -> [SyntheticSample] {
        var rng = SeededRandom(seed: seed)
        var out: [SyntheticSample] = []
        out.reserveCapacity(count)
        let nominal = Int64(1e9 / rateHertz)
        var previousTime: Int64 = 0
        var previous = truth(0, 0).0   // (orientation at t = 0)
        for k in 1..<count {
            var time = Int64(k) * nominal
            if e.jitterNanoseconds > 0 { time += Int64(rng.uniform(-1, 1) * Double(e.jitterNanoseconds)) }
            let dt = Double(time - previousTime) * 1e-9
            let (q, acceleration, speed) = truth(Double(time) * 1e-9, dt)
            var gyro = (previous.conjugate * q).rotationVector * (1 / dt)
            gyro += e.gyroBiasDegreesPerSecond * Angle.radiansPerDegree
            gyro += rng.gaussianVector(e.gyroNoiseDegreesPerSecond * Angle.radiansPerDegree)
            var accel = q.inverseRotate(acceleration + Vector3(0, 0, AHRSFilter.standardGravity))
            accel += rng.gaussianVector(e.accelNoiseMetersPerSecondSquared)
            var mag = e.softIron.multiply(q.inverseRotate(fieldENU)) + e.hardIronMicrotesla
            mag += rng.gaussianVector(e.magNoiseMicrotesla)
            if e.quantize {
                gyro = quantized(gyro, 0.07 * Angle.radiansPerDegree)
                accel = quantized(accel, 0.000_61 * AHRSFilter.standardGravity)
                mag = quantized(mag, 0.0146)
            }
            previous = q
            previousTime = time
            if rng.uniform() < e.dropProbability { continue }
            out.append(SyntheticSample(sample: IMUSample(timestampNanoseconds: time, gyroRadiansPerSecond: gyro,
                                                         accelerationMetersPerSecondSquared: accel,
                                                         magneticFieldMicrotesla: mag),
                                       truth: q, timeSeconds: Double(time) * 1e-9, speed: speed))
        }
        return out
    }

    private static func quantized(_ v: Vector3, _ lsb: Double) -> Vector3 {
        Vector3((v.x / lsb).rounded() * lsb, (v.y / lsb).rounded() * lsb, (v.z / lsb).rounded() * lsb)
    }

    /// Heading RMS error (BROAD metric) of `estimator` over `samples` after `settleSeconds`; with
    /// `gpsSpeed` the forward speed is given to the estimator once per second, as a GPS would.
    static func headingError(_ samples: [SyntheticSample], estimator: inout HeadingEstimator,
                             settleSeconds: Double, gpsSpeed: Bool = true) -> ErrorStatistics {
        var stats = ErrorStatistics()
        var nextFix: Int64 = 0
        for s in samples {
            if gpsSpeed && s.sample.timestampNanoseconds >= nextFix {
                estimator.updateSpeed(metersPerSecond: s.speed, timestampNanoseconds: s.sample.timestampNanoseconds)
                nextFix = s.sample.timestampNanoseconds + 1_000_000_000
            }
            estimator.update(s.sample)
            guard s.timeSeconds > settleSeconds else { continue }
            stats.add(OrientationError.headingAndInclination(estimate: estimator.filter.orientation, reference: s.truth).headingDegrees)
        }
        return stats
    }
}
