#if canImport(Glibc)
import IMU
import Angles
import Glibc
#endif
import Heading
import NMEA

/// A synthetic town drive for the GNSS-aided heading (docs/heading.md, "Vehicle"): the truth is a
/// vehicle route (a stop, straight roads, 90° corners, a long gentle curve, traffic lights, a
/// roundabout, reversing into a parking space), the IMU samples (100 Hz, board frame = vehicle frame)
/// are generated from it with MEMS errors, and the GNSS side is what a 1 Hz receiver prints: RMC + GGA
/// sentences (speed and course with their noise), parsed by the real `NMEAPipeline`. A magnetic
/// disturbance fixed to the vehicle (a current in the wiring, a magnetised load) grows for three
/// minutes and shrinks for three: slowly enough that the field gate cannot tell it from the earth's.
/// Shared by the heading tests and `make bench`; deterministic (fixed seed).
public struct SyntheticDrive: Sendable {
    /// IMU samples and the true orientation (sensor → ENU, magnetic north) of each.
    public private(set) var samples: [IMUSample] = []
    public private(set) var truths: [Quaternion] = []
    /// The disturbance's magnitude at each sample, µT.
    public private(set) var disturbanceMicrotesla: [Double] = []
    /// True where the vehicle stands or reverses.
    public private(set) var standingOrReversing: [Bool] = []
    /// NMEA text of each GNSS epoch and the monotonic time its bytes arrive, nanoseconds.
    public private(set) var epochs: [(arrivalNanoseconds: Int64, bytes: [UInt8])] = []

    /// Largest magnitude of the disturbance, µT, and when it grows and shrinks, seconds.
    public static let disturbancePeakMicrotesla = 14.0
    public static let disturbanceStartSeconds = 100.0, disturbanceEndSeconds = 460.0
    public static let rateHertz = 100.0
    /// The disturbance's direction in the vehicle (sensor) frame.
    public static let disturbanceDirection = Vector3(0.7, -0.6, 0.25).normalized
    /// The sample at the disturbance's peak.
    public var peakIndex: Int { Int((Self.disturbanceStartSeconds + Self.disturbanceEndSeconds) / 2 * Self.rateHertz) - 1 }
    /// Where and when: Bristol, 2026-07-01 12:00 UTC.
    public static let latitudeDegrees = 51.4545, longitudeDegrees = -2.5879
    static let startUTCNanoseconds: Int64 = 1_782_907_200_000_000_000

    /// The route: (seconds, target speed m/s — negative reverses —, heading rate °/s clockwise).
    public static let plan: [(seconds: Double, speed: Double, turn: Double)] = [
        (30, 0, 0), (40, 12, 0), (6, 7, 15), (50, 14, 0), (60, 14, -1), (20, 0, 0), (30, 10, 0),
        (6, 7, -15), (60, 16, 0), (20, 6, 18), (40, 12, 0), (10, 0, 0), (10, -2, -4), (15, 0, 0),
        (40, 12, 0), (20, 0, 0),
    ]

    public init(seed: UInt64 = 15) {
        var rng = SeededRandom(seed: seed)
        let field = WorldMagneticModel.wmm2025.field(latitudeDegrees: Self.latitudeDegrees,
                                                     longitudeDegrees: Self.longitudeDegrees, heightKilometers: 0,
                                                     decimalYear: DecimalYear.from(utcNanoseconds: Self.startUTCNanoseconds))
        let fieldENU = Vector3(0, field.horizontalNanotesla, -field.downNanotesla) * 0.001   // magnetic north
        let declination = field.declinationDegrees
        let direction = Self.disturbanceDirection
        let gyroBias = Vector3(0.3, -0.2, 0.25) * Angle.radiansPerDegree
        let dt = 1 / Self.rateHertz
        var speed = 0.0, heading = 35.0, east = 0.0, north = 0.0   // true heading, degrees; metres
        var previous: Quaternion? = nil
        var k = 0
        var nextEpoch = 1.0
        for leg in Self.plan {
            var legTime = 0.0
            while legTime < leg.seconds {
                let t = Double(k) * dt
                // Speed toward the target (2 m/s² up, 3 m/s² down); turns only while rolling.
                let limit = (abs(leg.speed) > abs(speed) ? 2.0 : 3.0) * dt
                let accel = max(-limit, min(limit, leg.speed - speed)) / dt
                speed += accel * dt
                let rate = abs(speed) > 0.5 ? leg.turn : 0
                heading += rate * dt
                east += speed * sin(heading * Angle.radiansPerDegree) * dt
                north += speed * cos(heading * Angle.radiansPerDegree) * dt
                // Body roll outward in a turn, pitch with braking and the road's grade.
                let lateral = speed * rate * Angle.radiansPerDegree
                let roll = 0.8 * lateral * Angle.radiansPerDegree
                let pitch = (0.5 * accel + 1.5 * sin(t / 40)) * Angle.radiansPerDegree
                let psi = (heading - declination) * Angle.radiansPerDegree
                let q = Quaternion.aboutVertical(radians: Double.pi / 2 - psi)
                    * Quaternion(w: cos(pitch / 2), x: 0, y: sin(pitch / 2), z: 0)
                    * Quaternion(w: cos(roll / 2), x: sin(roll / 2), y: 0, z: 0)
                let forward = Vector3(sin(psi), cos(psi), 0), left = Vector3(-cos(psi), sin(psi), 0)
                let specificForce = q.inverseRotate(forward * accel - left * lateral + Vector3(0, 0, AHRSFilter.standardGravity))
                let envelope = Self.envelope(t)
                if let p = previous {
                    var gyro = (p.conjugate * q).rotationVector * (1 / dt) + gyroBias
                    gyro += Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * (0.05 * Angle.radiansPerDegree)
                    let accelerometer = specificForce + Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * 0.03
                    let magnetometer = q.inverseRotate(fieldENU) + direction * (Self.disturbancePeakMicrotesla * envelope)
                        + Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * 0.3
                    samples.append(IMUSample(timestampNanoseconds: Int64((t * 1e9).rounded()), gyroRadiansPerSecond: gyro,
                                             accelerationMetersPerSecondSquared: accelerometer,
                                             magneticFieldMicrotesla: magnetometer))
                    truths.append(q)
                    disturbanceMicrotesla.append(Self.disturbancePeakMicrotesla * envelope)
                    standingOrReversing.append(speed < 0.5)
                }
                previous = q
                if t >= nextEpoch {
                    // A receiver's velocity: 0.05 m/s noise per axis; the course of a reversing
                    // vehicle points backwards.
                    let ve = speed * sin(heading * Angle.radiansPerDegree) + 0.05 * rng.gaussian()
                    let vn = speed * cos(heading * Angle.radiansPerDegree) + 0.05 * rng.gaussian()
                    var course = atan2(ve, vn) * Angle.degreesPerRadian
                    if course < 0 { course += 360 }
                    let text = Self.sentences(utcNanoseconds: Self.startUTCNanoseconds + Int64(nextEpoch * 1e9),
                                              east: east, north: north, speed: (ve * ve + vn * vn).squareRoot(),
                                              course: course)
                    epochs.append((Int64((nextEpoch + 0.05) * 1e9), text))
                    nextEpoch += 1
                }
                legTime += dt
                k += 1
            }
        }
    }

    /// The disturbance's envelope at `t` seconds: a raised cosine from 0 to 1 and back.
    static func envelope(_ t: Double) -> Double {
        let a = Self.disturbanceStartSeconds, b = Self.disturbanceEndSeconds
        guard t > a && t < b else { return 0 }
        return 0.5 - 0.5 * cos(2 * Double.pi * (t - a) / (b - a))
    }

    /// RMC and GGA of one epoch at `east`, `north` metres from the start point.
    public static func sentences(utcNanoseconds: Int64, east: Double, north: Double, speed: Double, course: Double) -> [UInt8] {
        let latitude = Self.latitudeDegrees + north / 6_371_000 * Angle.degreesPerRadian
        let longitude = Self.longitudeDegrees
            + east / (6_371_000 * cos(Self.latitudeDegrees * Angle.radiansPerDegree)) * Angle.degreesPerRadian
        let secondOfDay = (utcNanoseconds / 1_000_000_000) % 86_400
        let time = format("%02d%02d%02d.00", Int32(secondOfDay / 3600), Int32(secondOfDay / 60 % 60), Int32(secondOfDay % 60))
        let lat = format("%02d%09.6f", Int32(abs(latitude)), abs(latitude).truncatingRemainder(dividingBy: 1) * 60)
            + (latitude < 0 ? ",S" : ",N")
        let lon = format("%03d%09.6f", Int32(abs(longitude)), abs(longitude).truncatingRemainder(dividingBy: 1) * 60)
            + (longitude < 0 ? ",W" : ",E")
        let rmc = "GPRMC,\(time),A,\(lat),\(lon),\(format("%.3f", speed * 1.943_844)),\(format("%.2f", course)),010726,,,A"
        let gga = "GPGGA,\(time),\(lat),\(lon),1,10,0.9,50.0,M,48.0,M,,"
        return Array((checksummed(rmc) + checksummed(gga)).utf8)
    }

    private static func checksummed(_ body: String) -> String {
        var x: UInt8 = 0
        for b in body.utf8 { x ^= b }
        return "$" + body + "*" + format("%02X", Int32(x)) + "\r\n"
    }

    private static func format(_ pattern: String, _ arguments: CVarArg...) -> String {
        withVaList(arguments) { list in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
                let n = vsnprintf(buffer.baseAddress, 64, pattern, list)
                return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: Int(max(0, min(n, 63)))),
                              as: UTF8.self)
            }
        }
    }
}

/// Heading error statistics of a `HeadingEstimator` run over a `SyntheticDrive`, degrees (BROAD's
/// heading metric against the truth).
public struct DriveScore: Sendable {
    /// Over the whole drive after the first 30 s.
    public var all = ErrorStatistics()
    /// While the disturbance is above a third of its peak.
    public var disturbed = ErrorStatistics()
    /// While the vehicle stands or reverses (today's rules: magnetometer and gyro).
    public var standingOrReversing = ErrorStatistics()
    /// Courses used and ignored as reversing.
    public var coursesUsed = 0, reversingIgnored = 0
    /// The magnetometer offset learned against the course at the peak of the disturbance and the
    /// disturbance then, µT (sensor frame).
    public var learnedOffsetAtPeak = Vector3.zero, disturbanceAtPeak = Vector3.zero
}

extension SyntheticDrive {
    /// Runs `estimator` over the drive: every IMU sample, and every GNSS epoch through the NMEA
    /// pipeline as it arrives (`update(fix:receivedAtNanoseconds:)`, as the device does).
    public func score(_ estimator: inout HeadingEstimator) -> DriveScore {
        var result = DriveScore()
        var pipeline = NMEAPipeline()
        var next = 0
        for i in samples.indices {
            let now = samples[i].timestampNanoseconds
            while next < epochs.count && epochs[next].arrivalNanoseconds <= now {
                epochs[next].bytes.withUnsafeBytes { raw in
                    pipeline.feed(raw, nowNanoseconds: now) { fix in estimator.update(fix: fix, receivedAtNanoseconds: now) }
                }
                next += 1
            }
            estimator.update(samples[i])
            if i == peakIndex {
                result.learnedOffsetAtPeak = estimator.filter.course.magneticOffsetMicrotesla
                result.disturbanceAtPeak = Self.disturbanceDirection * disturbanceMicrotesla[i]
            }
            guard Double(now) * 1e-9 > 30 else { continue }
            let e = OrientationError.headingAndInclination(estimate: estimator.filter.orientation, reference: truths[i])
            result.all.add(e.headingDegrees)
            if disturbanceMicrotesla[i] > Self.disturbancePeakMicrotesla / 3 { result.disturbed.add(e.headingDegrees) }
            if standingOrReversing[i] { result.standingOrReversing.add(e.headingDegrees) }
        }
        result.coursesUsed = estimator.filter.course.usedCount
        result.reversingIgnored = estimator.filter.course.reversingCount
        return result
    }

    /// Runs the default estimator with and without GNSS aiding (`courseAidingSpeedMetersPerSecond` 0).
    public func compareAiding() -> (aided: DriveScore, unaided: DriveScore) {
        var aided = HeadingEstimator(calibration: .identity)
        var off = HeadingConfiguration()
        off.ahrs.courseAidingSpeedMetersPerSecond = 0
        var unaided = HeadingEstimator(configuration: off, calibration: .identity)
        return (score(&aided), score(&unaided))
    }
}
