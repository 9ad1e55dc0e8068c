@testable import IMU
import Angles
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif
@testable import Heading

/// Behaviour of the filter on hand-made sample streams (ENU, magnetic north = +y).
@Suite struct AHRSFilterTests {
    /// Earth field, µT: north 20, down 44 (dip 65.6°).
    static let field = Vector3(0, 20, -44)
    static let gravity = Vector3(0, 0, AHRSFilter.standardGravity)

    /// A sample of a board held at `orientation`, rotating at `gyro` (rad/s), with optional field override.
    static func sample(_ t: Double, _ orientation: Quaternion, gyro: Vector3 = .zero, field: Vector3? = Self.field,
                       linear: Vector3 = .zero) -> IMUSample {
        IMUSample(timestampNanoseconds: Int64((t * 1e9).rounded()), gyroRadiansPerSecond: gyro,
                  accelerationMetersPerSecondSquared: orientation.inverseRotate(gravity + linear),
                  magneticFieldMicrotesla: field.map { orientation.inverseRotate($0) })
    }

    static func heading(_ degrees: Double) -> Quaternion { Quaternion.aboutVertical(radians: (90 - degrees) * Angle.radiansPerDegree) }

    @Test func firstSampleInitialisesFromGravityAndField() {
        let truth = Self.heading(30) * Quaternion.rotationVector(Vector3(0.2, -0.1, 0))
        var f = AHRSFilter()
        f.update(Self.sample(0, truth))
        #expect(f.isInitialized && f.isStartingUp)
        #expect((f.orientation * truth.conjugate).angleDegrees < 1e-9)
    }

    /// A bad first sample (the accelerometer read mid-update: 30° off) sets a wrong tilt and heading;
    /// start-up averages it away instead of carrying it into the heading for a minute.
    @Test func aBadFirstSampleIsForgottenDuringStartUp() {
        var f = AHRSFilter()
        var first = Self.sample(0, Self.heading(80))
        first.accelerationMetersPerSecondSquared = Quaternion.rotationVector(Vector3(0.5, 0, 0)).rotate(first.accelerationMetersPerSecondSquared)
        f.update(first)
        var t = 0.0
        while t < 5 { t += 0.01; f.update(Self.sample(t, Self.heading(80))) }
        #expect(abs(Angle.wrap180(f.orientation.headingDegrees - 80)) < 0.5, "heading \(f.orientation.headingDegrees)°")
        #expect(abs(f.orientation.rollDegrees) < 0.5)
    }

    @Test func timeStepComesFromTimestamps() {
        // 90 °/s about the vertical, samples with ±4 ms jitter, no magnetometer: pure integration.
        var f = AHRSFilter()
        let rate = -90 * Angle.radiansPerDegree       // clockwise seen from above: heading increases
        var rng = SeededRandom(seed: 11)
        f.update(Self.sample(0, Self.heading(0)))
        var t = 0.0
        while t < 2 {
            t += 0.01 + rng.uniform(-0.004, 0.004)
            f.update(Self.sample(t, Self.heading(90 * t), gyro: Vector3(0, 0, rate), field: nil))
        }
        #expect(abs(Angle.wrap180(f.orientation.headingDegrees - 90 * t)) < 1e-6)
    }

    @Test func duplicateOrBackwardTimestampsAreSkipped() {
        var f = AHRSFilter()
        f.update(Self.sample(0, .identity))
        f.update(Self.sample(0.01, .identity))
        let before = f.orientation
        let duplicate = f.update(Self.sample(0.01, .identity, gyro: Vector3(1, 0, 0)))
        let backward = f.update(Self.sample(0.005, .identity, gyro: Vector3(1, 0, 0)))
        #expect(!duplicate && !backward)
        #expect(f.counters.nonMonotonicTimestamps == 2)
        #expect(f.orientation == before)
        let invalid = f.update(IMUSample(timestampNanoseconds: 30_000_000, gyroRadiansPerSecond: Vector3(.nan, 0, 0),
                                         accelerationMetersPerSecondSquared: Self.gravity, magneticFieldMicrotesla: nil))
        #expect(!invalid)
        #expect(f.counters.invalidSamples == 1)
    }

    @Test func longGapReinitialisesAndGyroOverrangeRestartsTheRamp() {
        var f = AHRSFilter()
        for k in 0..<500 { f.update(Self.sample(Double(k) * 0.01, Self.heading(10))) }
        #expect(!f.isStartingUp)
        f.update(Self.sample(10, Self.heading(200)))           // 5 s of silence, board turned meanwhile
        #expect(f.counters.gaps == 1 && f.isStartingUp)
        #expect(abs(Angle.wrap180(f.orientation.headingDegrees - 200)) < 1e-6)
        for k in 1...400 { f.update(Self.sample(10 + Double(k) * 0.01, Self.heading(200))) }
        #expect(!f.isStartingUp)
        f.update(Self.sample(14.01, Self.heading(200), gyro: Vector3(0, 0, 40)))   // 2292 °/s
        #expect(f.counters.gyroscopeOverranges == 1 && f.isStartingUp)
    }

    @Test func gyroBiasIsEstimatedAtRest() {
        var f = AHRSFilter()
        let bias = Vector3(0.5, -0.3, 0.2) * Angle.radiansPerDegree
        for k in 0..<6000 { f.update(Self.sample(Double(k) * 0.01, Self.heading(45), gyro: bias)) }
        #expect(f.gyroBias.isEstimated)
        #expect((f.gyroBias.biasRadiansPerSecond - bias).length * Angle.degreesPerRadian < 0.01)
        #expect(abs(Angle.wrap180(f.orientation.headingDegrees - 45)) < 0.5)
    }

    /// A magnet next to a stationary board: the field's magnitude changes, the reading is refused
    /// (whatever direction it points), the heading stays; afterwards the magnetometer is used again.
    @Test func magneticDisturbanceIsRejectedAndForgotten() {
        var f = AHRSFilter()
        var t = 0.0
        for _ in 0..<1000 { f.update(Self.sample(t, Self.heading(0))); t += 0.01 }
        let disturbed = Quaternion.aboutVertical(radians: 2).rotate(Self.field) * 0.7 + Vector3(5, 0, 0)
        for k in 0..<3000 {                                  // 30 s, longer than the recovery timeout
            f.update(Self.sample(t, Self.heading(0), field: disturbed)); t += 0.01
            #expect(!f.lastMagnetometerDecision.isUsed)
            // The current field is low-passed over `fieldCurrentSeconds` (0.1 s) against noise.
            if k >= 20 { #expect(f.lastMagnetometerDecision == .rejectedField) }
        }
        #expect(abs(Angle.wrap180(f.orientation.headingDegrees)) < 0.5)
        // Back to the earth's field: trusted again once it stayed for `fieldSettleSeconds`.
        f.update(Self.sample(t, Self.heading(0))); t += 0.01
        #expect(f.lastMagnetometerDecision == .rejectedField)
        for _ in 0..<200 { f.update(Self.sample(t, Self.heading(0))); t += 0.01 }
        #expect(f.lastMagnetometerDecision == .accepted)
    }

    /// A disturbance inside the tolerance (a weak magnet, 15 % stronger field) that points the compass
    /// 100° away is refused by the innovation gate and never recovered onto: only a field that
    /// matches the reference well can say the heading is lost.
    @Test func innovationGateHoldsAWeakDisturbance() {
        var f = AHRSFilter()
        var t = 0.0
        for _ in 0..<1000 { f.update(Self.sample(t, Self.heading(0))); t += 0.01 }
        let disturbed = Quaternion.aboutVertical(radians: 100 * Angle.radiansPerDegree).rotate(Self.field) * 1.15
        for _ in 0..<4000 {
            f.update(Self.sample(t, Self.heading(0), field: disturbed)); t += 0.01
            #expect(!f.lastMagnetometerDecision.isUsed)
        }
        #expect(abs(Angle.wrap180(f.orientation.headingDegrees)) < 0.5)
    }

    /// The estimate drifted (the gyro missed a turn) while the field stayed the reference: the
    /// innovation is rejected at first; after `magneticRecoverySeconds` the heading counts as lost and
    /// the filter re-converges onto the magnetometer.
    @Test func magneticRecoveryAfterTheEstimateDrifted() {
        var f = AHRSFilter()
        var t = 0.0
        for _ in 0..<1000 { f.update(Self.sample(t, Self.heading(0))); t += 0.01 }
        // The board turned to 60° but the gyro reported nothing.
        f.update(Self.sample(t, Self.heading(60))); t += 0.01
        #expect(f.lastMagnetometerDecision == .rejectedInnovation)
        var recoveredAt = -1.0
        for _ in 0..<3000 {
            f.update(Self.sample(t, Self.heading(60))); t += 0.01
            if recoveredAt < 0 && f.lastMagnetometerDecision == .recovering { recoveredAt = t }
        }
        #expect(recoveredAt > 30 && recoveredAt < 30.5, "recovery started at \(recoveredAt) s")
        #expect(abs(Angle.wrap180(f.orientation.headingDegrees - 60)) < 0.5)
        #expect(!f.magneticGate.isRecovering && f.lastMagnetometerDecision == .accepted)
    }

    /// The board is carried to a new place for good (the earth's field there is 30 % weaker): a field
    /// that stays consistent with itself while the board turns a full circle becomes the reference.
    /// A field fixed to the board (a magnet attached to it) changes as the board turns and never does.
    @Test func newEnvironmentIsRelearnedButAnAttachedMagnetIsNot() {
        func run(attachedMicrotesla: Vector3) -> AHRSFilter {
            var c = AHRSConfiguration()
            c.fieldRelearnSeconds = 10
            var f = AHRSFilter(configuration: c)
            var t = 0.0
            for _ in 0..<500 { f.update(Self.sample(t, Self.heading(0))); t += 0.01 }
            let rate = 45.0                                   // °/s clockwise: 360° in 8 s
            let start = t
            for _ in 0..<2000 {
                let q = Self.heading(rate * (t - start))
                var s = Self.sample(t, q, gyro: Vector3(0, 0, -rate * Angle.radiansPerDegree), field: Self.field * 0.7)
                s.magneticFieldMicrotesla! += attachedMicrotesla
                f.update(s)
                t += 0.01
            }
            return f
        }
        let moved = run(attachedMicrotesla: .zero)
        #expect(moved.magneticGate.relearnCount == 1)
        #expect(moved.lastMagnetometerDecision.isUsed)
        #expect(abs(moved.magneticGate.referenceMicrotesla - (Self.field * 0.7).length) < 1)
        let magnet = run(attachedMicrotesla: Vector3(15, 0, 0))
        #expect(magnet.magneticGate.relearnCount == 0)
        #expect(magnet.counters.magnetometerRejections > 1500)
    }

    /// Translation back and forth (±4 m/s², far from g) and taps do not tilt the estimate: in the
    /// quasi-inertial frame they average out. A sustained vertical acceleration (|a| ≠ g) is refused.
    @Test func linearAccelerationAveragesOutOrIsRefused() {
        var f = AHRSFilter()
        var t = 0.0
        for _ in 0..<1000 { f.update(Self.sample(t, .identity)); t += 0.01 }
        var worst = 0.0
        for k in 0..<3000 {
            // The motion fades in over 5 s; a tap is a sharp push and its rebound every 2.5 s.
            let tap = k % 250 == 0 ? 60.0 : (k % 250 == 1 ? -60.0 : 0)
            let a = 4 * min(1, Double(k) / 500) * sin(2 * Double.pi * 0.7 * t) + tap
            f.update(Self.sample(t, .identity, linear: Vector3(a, 0.5 * a, 0))); t += 0.01
            worst = max(worst, abs(f.orientation.pitchDegrees), abs(f.orientation.rollDegrees))
        }
        #expect(worst < 1, "tilt error \(worst)°")
        let before = f.counters.accelerometerRejections
        for _ in 0..<300 { f.update(Self.sample(t, .identity, linear: Vector3(0.5, 0, 4))); t += 0.01 }
        #expect(f.counters.accelerometerRejections > before + 100)
        #expect(abs(f.orientation.pitchDegrees) < 1 && abs(f.orientation.rollDegrees) < 1)
    }

    /// A tilt estimate that jumped (a gyro glitch reports a 15° roll that did not happen) converges
    /// back with the tilt time constant.
    @Test func aDriftedTiltConvergesBack() {
        var f = AHRSFilter()
        var t = 0.0
        for _ in 0..<1000 { f.update(Self.sample(t, .identity)); t += 0.01 }
        f.update(Self.sample(t, .identity, gyro: Vector3(15 * Angle.radiansPerDegree / 0.01, 0, 0))); t += 0.01
        #expect(abs(f.orientation.rollDegrees) > 12)
        for _ in 0..<1000 { f.update(Self.sample(t, .identity)); t += 0.01 }
        #expect(abs(f.orientation.rollDegrees) < 0.5)
    }

    /// Samples lost while a turn ends (a stalled bus, 0.3 s in which the rate falls from 90 °/s to 0):
    /// the step after the gap is integrated at the new rate and misses ≈ 14°; the unseen rotation makes
    /// the heading uncertain, so the magnetometer brings it back within seconds instead of a minute.
    @Test func lostSamplesWhileTurningAreRecoveredQuickly() {
        var f = AHRSFilter()
        var t = 0.0, heading = 0.0
        for _ in 0..<1000 { f.update(Self.sample(t, Self.heading(0))); t += 0.01 }
        for k in 0..<400 {
            t += 0.01
            let rate = k < 200 ? 90.0 : max(0, 90 - 3 * Double(k - 200))
            heading += rate * 0.01
            if k >= 200 && k < 230 { continue }             // 30 samples lost; the next one spans them
            f.update(Self.sample(t, Self.heading(heading), gyro: Vector3(0, 0, -rate * Angle.radiansPerDegree)))
        }
        for _ in 0..<500 { t += 0.01; f.update(Self.sample(t, Self.heading(heading))) }
        #expect(abs(Angle.wrap180(f.orientation.headingDegrees - heading)) < 2,
                "heading \(f.orientation.headingDegrees)° 5 s after the loss, truth \(heading)°")
    }

    /// With GPS speed the centripetal acceleration of a turn is removed before the tilt correction.
    @Test func vehicleAccelerationCompensation() {
        func run(speed: Double?) -> Double {
            var f = AHRSFilter()
            var t = 0.0
            for _ in 0..<500 { f.update(Self.sample(t, Self.heading(0))); t += 0.01 }
            f.setVehicleMotion(speedMetersPerSecond: speed, accelerationMetersPerSecondSquared: 0)
            // A right turn at 10 m/s and 10 °/s for 10 s: 1.75 m/s² to the right (10.1° apparent tilt... below the gate).
            let rate = 10 * Angle.radiansPerDegree
            var worst = 0.0
            for k in 0..<1000 {
                let h = Double(k) * 0.1
                let q = Self.heading(h)
                let right = q.rotate(Vector3(0, -1, 0))
                f.update(Self.sample(t, q, gyro: Vector3(0, 0, -rate), linear: right * (10 * rate)))
                t += 0.01
                worst = max(worst, abs(f.orientation.rollDegrees))
            }
            return worst
        }
        let compensated = run(speed: 10), blind = run(speed: nil)
        #expect(compensated < 0.2, "roll error with speed \(compensated)°")
        #expect(blind > 3, "roll error without speed \(blind)°")
    }

    /// A vehicle in a long curve turns at 1.5 °/s, below the rest detector's 2 °/s: without the
    /// direction check the turn is learned as gyro bias; with it (and, with GPS, the speed) it is not.
    @Test func slowTurnsAreNotLearnedAsBias() {
        func learnedBias(turnLimitDegrees: Double, speed: Double?) -> Double {
            var c = AHRSConfiguration()
            c.gyroBiasMaximumTurnDegrees = turnLimitDegrees
            var f = AHRSFilter(configuration: c)
            var t = 0.0
            while t < 20 { f.update(Self.sample(t, Self.heading(0))); t += 0.01 }
            let before = f.gyroBias.biasRadiansPerSecond
            f.setVehicleMotion(speedMetersPerSecond: speed, accelerationMetersPerSecondSquared: 0)
            let rate = 1.5, start = t
            while t < 80 {
                f.update(Self.sample(t, Self.heading(rate * (t - start)), gyro: Vector3(0, 0, -rate * Angle.radiansPerDegree)))
                t += 0.01
            }
            return (f.gyroBias.biasRadiansPerSecond - before).length * Angle.degreesPerRadian
        }
        let unchecked = learnedBias(turnLimitDegrees: 180, speed: nil)
        let directionCheck = learnedBias(turnLimitDegrees: 3, speed: nil)
        let withSpeed = learnedBias(turnLimitDegrees: 180, speed: 20)
        #expect(unchecked > 1, "learned \(unchecked) °/s without the direction check")
        #expect(directionCheck < 0.05, "learned \(directionCheck) °/s")
        #expect(withSpeed == 0)
    }
}
