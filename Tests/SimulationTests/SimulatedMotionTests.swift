import CBundledData
import Glibc
import IMU
import Heading
@testable import Simulation
import Testing

/// The simulated board's replay schedule and the IMU motion generated from the drive.
@Suite struct SimulatedMotionTests {
    nonisolated(unsafe) static let drive = UnsafeRawBufferPointer(start: bundled_drive_bytes(), count: bundled_drive_count())
    static let schedule = SimulatedReplaySchedule(log: drive, maximumGapNanoseconds: 2_000_000_000)

    @Test func driveIsCutIntoItsEpochsWithTheGapCompressed() {
        let s = Self.schedule
        #expect(s.epochs.count == 122)
        #expect(s.typicalStepNanoseconds == 100_000_000)
        #expect(s.compressedGapCount == 1)
        // 13:28:29.90 → 13:38:59.80 in the log: 629.9 s, replayed as 2 s.
        #expect(s.removedNanoseconds == 627_900_000_000)
        var previousEnd = 0
        var previousOffset: Int64 = -1
        for epoch in s.epochs {
            #expect(epoch.start == previousEnd)
            #expect(epoch.offsetNanoseconds > previousOffset)
            previousEnd = epoch.end
            previousOffset = epoch.offsetNanoseconds
        }
        #expect(previousEnd == Self.drive.count)
        #expect(s.lapNanoseconds == s.epochs.last!.offsetNanoseconds + 1_000_000_000)
        // Every epoch is one GGA + one RMC of the same time.
        let first = String(decoding: UnsafeRawBufferPointer(rebasing: Self.drive[s.epochs[0].start..<s.epochs[0].end]), as: UTF8.self)
        #expect(first.hasPrefix("$GNGGA,132819.60") && first.contains("$GNRMC,132819.60") && first.utf8.last == UInt8(ascii: "\n"))
    }

    func motion(noise: Bool = false) -> SimulatedMotion {
        SimulatedMotion(schedule: Self.schedule, startNanoseconds: 1_000_000_000_000, loop: true, noise: noise)
    }

    /// Two boards built alike give the same samples, and the noise is what SimulatedMotion documents: a
    /// function of the time (recorded values below), within ±3 mrad/s, ±0.03 m/s², ±0.3 µT, centred.
    @Test func sameInputsGiveIdenticalSamples() {
        let a = motion(noise: true), b = motion(noise: true), clean = motion(noise: false)
        var t: Int64 = 1_000_000_000_000
        var count = 0.0, gyroSum = 0.0, largest = (gyro: 0.0, force: 0.0, field: 0.0)
        while t < 1_030_000_000_000 {
            let s = a.sample(atNanoseconds: t), c = clean.sample(atNanoseconds: t)
            #expect(s == b.sample(atNanoseconds: t))
            let gyro = s.gyroRadiansPerSecond - c.gyroRadiansPerSecond
            let force = s.accelerationMetersPerSecondSquared - c.accelerationMetersPerSecondSquared
            let field = s.magneticFieldMicrotesla! - c.magneticFieldMicrotesla!
            largest.gyro = max(largest.gyro, abs(gyro.x), abs(gyro.y), abs(gyro.z))
            largest.force = max(largest.force, abs(force.x), abs(force.y), abs(force.z))
            largest.field = max(largest.field, abs(field.x), abs(field.y), abs(field.z))
            gyroSum += gyro.z
            count += 1
            t += 9_615_385
        }
        #expect(largest.gyro <= 0.003 + 1e-12 && largest.gyro > 0.0029)
        #expect(largest.force <= 0.03 + 1e-12 && largest.force > 0.029)
        #expect(largest.field <= 0.3 + 1e-12 && largest.field > 0.29)
        #expect(abs(gyroSum / count) < 0.0003, "the gyro noise is centred")
        // Recorded: the gyro noise (z) at three instants, the same on every machine (integer hash).
        let recorded: [(Int64, Double)] = [(1_000_000_000_000, -0.0015512018946747023), (1_012_345_678_000, -0.0018640998913976021),
                                          (1_029_999_999_000, 0.0024359849262679083)]
        for (time, noise) in recorded {
            let z = a.sample(atNanoseconds: time).gyroRadiansPerSecond.z - clean.sample(atNanoseconds: time).gyroRadiansPerSecond.z
            #expect(abs(z - noise) < 1e-12, "gyro z noise at \(time): \(z)")
        }
    }

    @Test func headingFollowsTheCourseAndTheFieldSaysSo() {
        let m = motion()
        var checked = 0
        for frame in Self.schedule.keyframes {
            guard let course = frame.courseDegrees else { continue }
            let t = m.startNanoseconds + frame.offsetNanoseconds
            #expect(abs(Self.wrap180(m.headingDegrees(atNanoseconds: t) - course)) < 1e-9)
            let s = m.sample(atNanoseconds: t)
            let field = s.magneticFieldMicrotesla!
            // Level board: the horizontal field turns with the heading; true = magnetic + declination.
            let magnetic = atan2(field.y, field.x) * 180 / Double.pi
            #expect(abs(Self.wrap180(magnetic + m.declinationDegrees - course)) < 1e-6)
            #expect(abs(field.length - m.fieldEastNorthUpMicrotesla.length) < 1e-9)
            #expect(abs(s.accelerationMetersPerSecondSquared.z - 9.80665) < 1e-9)
            checked += 1
        }
        #expect(checked > 40)
        // A realistic Earth field at the drive (Iowa, 2020): ~53 µT, inclination ~69°.
        #expect(m.fieldEastNorthUpMicrotesla.length > 50 && m.fieldEastNorthUpMicrotesla.length < 57)
        #expect(m.fieldEastNorthUpMicrotesla.z < -45)
    }

    @Test func standingStillKeepsTheLastHeading() {
        let m = motion()
        let standing = Self.schedule.keyframes.suffix(20)
        let first = m.headingDegrees(atNanoseconds: m.startNanoseconds + standing.first!.offsetNanoseconds)
        for frame in standing {
            #expect(frame.courseDegrees == nil)
            #expect(m.headingDegrees(atNanoseconds: m.startNanoseconds + frame.offsetNanoseconds) == first)
        }
    }

    @Test func gyroIntegratesToTheHeadingChange() {
        let m = motion()
        let t0 = m.startNanoseconds + 500_000_000, t1 = m.startNanoseconds + 9_000_000_000
        var integrated = 0.0
        var t = t0
        let step: Int64 = 1_000_000
        while t < t1 {
            integrated += m.sample(atNanoseconds: t).gyroRadiansPerSecond.z * 1e-3
            t += step
        }
        let change = m.headingDegrees(atNanoseconds: t1) - m.headingDegrees(atNanoseconds: t0)
        // Gyro z is counter-clockwise positive; compass heading is clockwise.
        #expect(abs(Self.wrap180(-integrated * 180 / Double.pi - change)) < 0.5)
    }

    @Test func lapsJoinWithoutAJumpAndMatchTheCourseAgain() {
        let m = motion()
        let lap = Self.schedule.lapNanoseconds
        var t = m.startNanoseconds + lap - 200_000_000
        var previous = m.headingDegrees(atNanoseconds: t)
        while t < m.startNanoseconds + lap + 200_000_000 {
            t += 10_000_000
            let h = m.headingDegrees(atNanoseconds: t)
            #expect(abs(Self.wrap180(h - previous)) < 5)
            previous = h
        }
        let frame = Self.schedule.keyframes.first { $0.courseDegrees != nil }!
        #expect(abs(Self.wrap180(m.headingDegrees(atNanoseconds: m.startNanoseconds + 2 * lap + frame.offsetNanoseconds)
            - frame.courseDegrees!)) < 1e-6)
    }

    @Test func calibrationTumbleCoversTheSphere() {
        let m = motion(noise: true)
        let start = m.startNanoseconds + 20_000_000_000
        m.startTumble(atNanoseconds: start, durationNanoseconds: 40_000_000_000)
        var run = MagnetometerCalibrationRun()
        var t = start
        var tilted = false
        while t < start + 40_000_000_000 {
            let s = m.sample(atNanoseconds: t)
            run.add(s.magneticFieldMicrotesla!)
            if s.accelerationMetersPerSecondSquared.z < 5 { tilted = true }
            t += 20_000_000
        }
        #expect(tilted)
        #expect(run.coverageFraction >= 0.75)
        #expect(!m.isTumbling(atNanoseconds: start + 40_000_000_000))
        // Back level afterwards.
        #expect(abs(m.sample(atNanoseconds: start + 40_000_000_000).accelerationMetersPerSecondSquared.z - 9.80665) < 0.2)
    }

    static func wrap180(_ degrees: Double) -> Double {
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d < -180 { d += 360 }
        return d
    }
}
