@testable import IMU
import Angles
import Testing
import TestSupport
@testable import Heading

/// GNSS course aiding on a synthetic town drive with a magnetic disturbance fixed to the vehicle that
/// grows and shrinks (`SyntheticDrive`): with the course the heading stays right and the offset is
/// learned; without it the magnetometer drags the heading away. Standstill and reversing keep today's
/// rules (magnetometer and gyro, no course) but profit from the learned offset.
@Suite struct VehicleAidingTests {
    static let drive = SyntheticDrive()
    static let scores = drive.compareAiding()

    @Test func courseKeepsTheHeadingThroughTheDisturbance() {
        let (aided, unaided) = Self.scores
        #expect(unaided.disturbed.rms > 5, "the disturbance must matter without aiding: \(unaided.disturbed.rms)°")
        #expect(aided.disturbed.rms < 2.5, "aided heading RMSE during the disturbance \(aided.disturbed.rms)°")
        #expect(aided.all.rms < 0.25 * unaided.all.rms, "aided \(aided.all.rms)°, unaided \(unaided.all.rms)°")
        #expect(aided.coursesUsed > 200)
        // The learned offset is the disturbance (a vector fixed to the vehicle) in the horizontal
        // plane, where it turns the heading; its vertical part blends with the learned reference dip.
        let miss = aided.learnedOffsetAtPeak - aided.disturbanceAtPeak
        #expect((miss.x * miss.x + miss.y * miss.y).squareRoot() < 2.5,
                "offset \(aided.learnedOffsetAtPeak) µT, disturbance \(aided.disturbanceAtPeak) µT")
    }

    @Test func standstillAndReversingUseTheLearnedOffset() {
        let (aided, unaided) = Self.scores
        #expect(aided.standingOrReversing.rms < 2.5, "aided error standing or reversing \(aided.standingOrReversing.rms)°")
        #expect(aided.standingOrReversing.rms < 0.5 * unaided.standingOrReversing.rms)
    }
}

/// The rules of `CourseAiding` on a filter fed by hand: speed, yaw rate, reversing, recovery, latency.
@Suite struct CourseAidingTests {
    typealias S = AHRSFilterTests

    /// A filter that stood 20 s at heading `estimate`° (magnetometer and gyro agree), then drives
    /// `seconds` without magnetometer, one fix per second whose course is `truth`° (plus the turn).
    static func drive(estimate: Double, truth: Double, speed: Double, seconds: Double,
                      turnDegreesPerSecond: Double = 0) -> AHRSFilter {
        var f = AHRSFilter()
        var t = 0.0
        f.update(S.sample(t, S.heading(estimate)))
        while t < 20 { t += 0.01; f.update(S.sample(t, S.heading(estimate))) }
        var heading = estimate, course = truth
        let rate = turnDegreesPerSecond
        var nextFix = t + 1
        while t < 20 + seconds {
            t += 0.01
            heading += rate * 0.01
            course += rate * 0.01
            f.update(S.sample(t, S.heading(heading), gyro: Vector3(0, 0, -rate * Angle.radiansPerDegree), field: nil))
            if t >= nextFix {
                f.aid(courseMagneticDegrees: Angle.wrap360(course), speedMetersPerSecond: speed)
                nextFix += 1
            }
        }
        return f
    }

    @Test func straightAtSpeedTheCourseCorrectsTheHeading() {
        let f = Self.drive(estimate: 10, truth: 14, speed: 12, seconds: 30)
        #expect(abs(Angle.wrap180(f.orientation.headingDegrees - 14)) < 0.5, "heading \(f.orientation.headingDegrees)")
        #expect(f.course.usedCount > 25)
    }

    @Test func slowOrTurningVehiclesKeepTheirHeading() {
        let slow = Self.drive(estimate: 10, truth: 14, speed: 3, seconds: 30)
        #expect(slow.course.usedCount == 0 && abs(Angle.wrap180(slow.orientation.headingDegrees - 10)) < 0.1)
        let turning = Self.drive(estimate: 10, truth: 14, speed: 12, seconds: 30, turnDegreesPerSecond: 8)
        #expect(turning.course.usedCount == 0)
    }

    @Test func aReversingCourseIsIgnored() {
        let f = Self.drive(estimate: 10, truth: 190, speed: 6, seconds: 30)
        #expect(f.course.usedCount == 0 && f.course.reversingCount > 25)
        #expect(abs(Angle.wrap180(f.orientation.headingDegrees - 10)) < 0.1)
    }

    /// A 60° disagreement is an outlier at first; persisting for `courseRecoverySeconds` it resets the
    /// heading.
    @Test func aPersistentDisagreementResetsTheHeading() {
        let early = Self.drive(estimate: 10, truth: 70, speed: 12, seconds: 5)
        #expect(early.course.usedCount == 0 && early.course.rejectedCount >= 4)
        let late = Self.drive(estimate: 10, truth: 70, speed: 12, seconds: 30)
        #expect(abs(Angle.wrap180(late.orientation.headingDegrees - 70)) < 1, "heading \(late.orientation.headingDegrees)")
    }

    /// A fix arrives an epoch period after its time: its course is compared with the heading of then.
    @Test func theCourseIsComparedWithTheHeadingOfItsMoment() {
        var f = Self.drive(estimate: 10, truth: 10, speed: 12, seconds: 10)
        let before = f.orientation.headingDegrees
        // The board turned 2° in the last second (within the yaw-rate limit); a fix of one second ago
        // says 10°: it agrees with the heading of one second ago, no correction.
        var t = 30.0
        for k in 1...100 {
            f.update(S.sample(t + Double(k) * 0.01, S.heading(before + 0.02 * Double(k)),
                              gyro: Vector3(0, 0, -2 * Angle.radiansPerDegree), field: nil))
        }
        t += 1
        f.aid(courseMagneticDegrees: before, speedMetersPerSecond: 12, ageNanoseconds: 1_000_000_000)
        #expect(abs(Angle.wrap180(f.orientation.headingDegrees - (before + 2))) < 0.05)
    }
}
