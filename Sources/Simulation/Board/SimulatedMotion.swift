#if canImport(Glibc)
import IMU
import Angles
import Glibc
#endif
import Heading

/// The simulated vehicle's motion, generated deterministically from a replayed drive, as the true IMU
/// sample (board frame: x forward, y left, z up; SI units) at any monotonic time.
///
/// - Heading follows the drive's course over ground (fixes at ≥ 0.5 m/s), linearly between epochs
///   along the shorter way round; where the drive stands or crawls the last heading is kept.
/// - The board is level; the accelerometer sees gravity plus the vehicle's along-track and centripetal
///   acceleration (from the drive's speed and turn rate).
/// - The magnetometer sees the WMM2025 field at the drive's first position and date, rotated into
///   the board frame; the gyroscope sees the turn rate.
/// - A little deterministic noise (a hash of time and channel, not a random generator): gyro ±3 mrad/s,
///   accelerometer ±0.03 m/s², magnetometer ±0.3 µT.
/// - `startTumble` adds what a person does for a magnetometer calibration: the board is rolled,
///   pitched and turned through all orientations for a while, easing in and out.
/// - `startStill` is what a person does for a gyroscope calibration: the vehicle stops and the board
///   is held still (the pose of that moment, no motion) for a while.
/// - `gyroBiasRadiansPerSecond` is added to every gyroscope reading (a MEMS gyro's offset; zero unless
///   set, e.g. by a test of `calibrate gyro`).
///
/// Replays loop with the schedule's lap. Evaluation allocates nothing.
public final class SimulatedMotion {
    /// Replay start, monotonic nanoseconds.
    public let startNanoseconds: Int64
    /// Lap length (0: no looping; times past the end hold the last keyframe).
    public let lapNanoseconds: Int64
    /// Earth field, ENU µT (east, north, up).
    public let fieldEastNorthUpMicrotesla: Vector3
    /// Declination of that field, degrees east-positive.
    public let declinationDegrees: Double
    /// Where the field was evaluated.
    public let fieldLatitudeDegrees: Double
    public let fieldLongitudeDegrees: Double
    /// Add noise.
    public var noise: Bool
    /// Added to every gyroscope reading, rad/s.
    public var gyroBiasRadiansPerSecond = Vector3.zero

    private let times: [Int64]
    private let headings: [Double]          // true heading, degrees, unwrapped (continuous)
    private let speeds: [Double]
    private var tumbleStart: Int64 = .min
    private var tumbleDuration: Int64 = 0
    private var stillStart: Int64 = .min
    private var stillDuration: Int64 = 0
    private static let gravity = 9.80665

    /// Motion for `schedule` replayed from `startNanoseconds` (looping when `loop`).
    public init(schedule: SimulatedReplaySchedule, startNanoseconds: Int64, loop: Bool, noise: Bool = true,
                model: WorldMagneticModel = .wmm2025) {
        self.startNanoseconds = startNanoseconds
        self.lapNanoseconds = loop ? schedule.lapNanoseconds : 0
        self.noise = noise
        var times: [Int64] = [], headings: [Double] = [], speeds: [Double] = []
        let firstCourse = schedule.keyframes.first { $0.courseDegrees != nil }?.courseDegrees ?? 0
        var heading = firstCourse
        for frame in schedule.keyframes {
            if let course = frame.courseDegrees {
                var delta = (course - heading).truncatingRemainder(dividingBy: 360)
                if delta > 180 { delta -= 360 } else if delta < -180 { delta += 360 }
                heading += delta
            }
            times.append(frame.offsetNanoseconds)
            headings.append(heading)
            speeds.append(frame.speedMetersPerSecond)
        }
        if times.isEmpty {
            times = [0]
            headings = [0]
            speeds = [0]
        }
        self.times = times
        self.headings = headings
        self.speeds = speeds
        let place = schedule.firstPosition
        let lat = place?.latitudeDegrees ?? 0, lon = place?.longitudeDegrees ?? 0
        let year = place?.utcNanoseconds.map { DecimalYear.from(utcNanoseconds: $0) } ?? 2025.5
        let f = model.field(latitudeDegrees: lat, longitudeDegrees: lon,
                            heightKilometers: (place?.altitudeMeters ?? 0) / 1000, decimalYear: year)
        fieldEastNorthUpMicrotesla = Vector3(f.eastNanotesla / 1000, f.northNanotesla / 1000, -f.downNanotesla / 1000)
        declinationDegrees = f.declinationDegrees
        fieldLatitudeDegrees = lat
        fieldLongitudeDegrees = lon
    }

    /// Starts the calibration tumble at `nowNanoseconds` for `durationNanoseconds`.
    public func startTumble(atNanoseconds now: Int64, durationNanoseconds: Int64) {
        tumbleStart = now
        tumbleDuration = durationNanoseconds
    }

    /// Holds the board still from `now` for `durationNanoseconds` (the pose of `now`, no motion).
    public func startStill(atNanoseconds now: Int64, durationNanoseconds: Int64) {
        stillStart = now
        stillDuration = durationNanoseconds
    }

    /// True while the board is held still at `time`.
    public func isStill(atNanoseconds time: Int64) -> Bool {
        time >= stillStart && time < stillStart &+ stillDuration
    }

    /// True while the tumble runs at `time`.
    public func isTumbling(atNanoseconds time: Int64) -> Bool {
        time >= tumbleStart && time < tumbleStart &+ tumbleDuration
    }

    /// The true heading (degrees clockwise from true north, 0 ..< 360) at `time`, without the tumble.
    public func headingDegrees(atNanoseconds time: Int64) -> Double {
        let h = track(at: time).heading.truncatingRemainder(dividingBy: 360)
        return h < 0 ? h + 360 : h
    }

    /// The IMU sample at `time` (monotonic nanoseconds).
    public func sample(atNanoseconds time: Int64) -> IMUSample {
        let step: Int64 = 1_000_000
        let a = orientation(at: time), b = orientation(at: time + step)
        var gyro = (a.q.conjugate * b.q).rotationVector * (1e9 / Double(step))
        let psi = a.heading * Angle.radiansPerDegree
        let forward = Vector3(sin(psi), cos(psi), 0), left = Vector3(-cos(psi), sin(psi), 0)
        let yawRate = -(b.heading - a.heading) * Angle.radiansPerDegree * (1e9 / Double(step))
        let acceleration = forward * a.alongTrack + left * (a.speed * yawRate) + Vector3(0, 0, Self.gravity)
        var specificForce = a.q.inverseRotate(acceleration)
        var field = a.q.inverseRotate(fieldEastNorthUpMicrotesla)
        gyro += gyroBiasRadiansPerSecond
        if noise {
            gyro += Self.noiseVector(time, channel: 0) * 0.003
            specificForce += Self.noiseVector(time, channel: 3) * 0.03
            field += Self.noiseVector(time, channel: 6) * 0.3
        }
        return IMUSample(timestampNanoseconds: time, gyroRadiansPerSecond: gyro,
                         accelerationMetersPerSecondSquared: specificForce, magneticFieldMicrotesla: field,
                         temperatureCelsius: 25)
    }

    // MARK: internals

    private struct Track {
        var heading: Double
        var speed: Double
        var alongTrack: Double
    }

    /// Heading, speed and along-track acceleration at `time` (piecewise linear between keyframes).
    private func track(at time: Int64) -> Track {
        var t = time &- startNanoseconds
        if t < 0 { t = 0 }
        var lapHeading = 0.0
        let last = times.count - 1
        // Between laps the board turns (standing) from the last heading back to the first one the
        // shorter way, so each lap adds whole turns and the heading always matches the replayed course.
        var closing = (headings[0] - headings[last]).truncatingRemainder(dividingBy: 360)
        if closing > 180 { closing -= 360 } else if closing < -180 { closing += 360 }
        if lapNanoseconds > 0 {
            let lap = t / lapNanoseconds
            t -= lap * lapNanoseconds
            lapHeading = Double(lap) * (headings[last] - headings[0] + closing)
        }
        var lo = 0, hi = last
        if t >= times[hi] {
            if lapNanoseconds > times[hi] {
                let u = Double(t - times[hi]) / Double(lapNanoseconds - times[hi])
                return Track(heading: headings[hi] + closing * u + lapHeading, speed: 0, alongTrack: 0)
            }
            return Track(heading: headings[hi] + lapHeading, speed: speeds[hi], alongTrack: 0)
        }
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if times[mid] <= t { lo = mid } else { hi = mid }
        }
        let span = Double(times[hi] - times[lo])
        let u = span > 0 ? Double(t - times[lo]) / span : 0
        let along = span > 0 ? (speeds[hi] - speeds[lo]) / (span * 1e-9) : 0
        return Track(heading: headings[lo] + (headings[hi] - headings[lo]) * u + lapHeading,
                     speed: speeds[lo] + (speeds[hi] - speeds[lo]) * u, alongTrack: min(5, max(-5, along)))
    }

    private struct Pose {
        var q: Quaternion
        var heading: Double
        var speed: Double
        var alongTrack: Double
    }

    private func orientation(at time: Int64) -> Pose {
        if isStill(atNanoseconds: time) {
            let held = track(at: stillStart)
            let yaw = (90 - held.heading) * Angle.radiansPerDegree
            return Pose(q: Quaternion.aboutVertical(radians: yaw), heading: held.heading, speed: 0, alongTrack: 0)
        }
        let track = track(at: time)
        let yaw = (90 - track.heading) * Angle.radiansPerDegree     // ENU yaw, counter-clockwise from east
        var q = Quaternion.aboutVertical(radians: yaw)
        if isTumbling(atNanoseconds: time) {
            let tau = Double(time - tumbleStart) * 1e-9
            let total = Double(tumbleDuration) * 1e-9
            let ease = min(1, tau / 2, (total - tau) / 2)
            let envelope = ease * ease * (3 - 2 * ease)
            let roll = envelope * 2 * Double.pi * tau / 5
            let pitch = envelope * 1.2 * sin(2 * Double.pi * tau / 13)
            let turn = envelope * 2 * Double.pi * tau / 23
            q = q * Quaternion.rotationVector(Vector3(0, 0, turn)) * Quaternion.rotationVector(Vector3(0, pitch, 0))
                * Quaternion.rotationVector(Vector3(roll, 0, 0))
        }
        return Pose(q: q, heading: track.heading, speed: track.speed, alongTrack: track.alongTrack)
    }

    /// Three deterministic values in −1 … 1 from `time` (to the microsecond) and `channel`.
    private static func noiseVector(_ time: Int64, channel: UInt64) -> Vector3 {
        let base = UInt64(bitPattern: time / 1000) &* 0x9E37_79B9_7F4A_7C15
        return Vector3(unit(base &+ channel), unit(base &+ channel &+ 1), unit(base &+ channel &+ 2))
    }

    private static func unit(_ seed: UInt64) -> Double {
        var z = seed &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53) * 2 - 1
    }
}
