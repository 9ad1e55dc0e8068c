@testable import IMU
import Angles
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import Heading

@Suite struct QuaternionTests {
    /// A board pitched, rolled and headed by known amounts reads those angles back (ENU, x forward,
    /// y left, z up; pitch nose-up positive, roll right-side-down positive, heading clockwise).
    @Test func attitudeConventions() {
        let heading = 30.0, pitch = 10.0, roll = -5.0
        let yawENU = (90 - heading) * Angle.radiansPerDegree
        let noseUp = Quaternion(w: cos(-pitch * Angle.radiansPerDegree / 2), x: 0, y: sin(-pitch * Angle.radiansPerDegree / 2), z: 0)
        let rightDown = Quaternion(w: cos(roll * Angle.radiansPerDegree / 2), x: sin(roll * Angle.radiansPerDegree / 2), y: 0, z: 0)
        let q = Quaternion.aboutVertical(radians: yawENU) * noseUp * rightDown
        #expect(abs(q.headingDegrees - heading) < 1e-9)
        #expect(abs(q.pitchDegrees - pitch) < 1e-9)
        #expect(abs(q.rollDegrees - roll) < 1e-9)
        // The forward axis points north-east-ish and above the horizon.
        let forward = q.rotate(Vector3(1, 0, 0))
        #expect(forward.x > 0 && forward.y > 0 && forward.z > 0)
        // Heading 0 = forward axis north; 90 = east.
        #expect(abs(Quaternion.aboutVertical(radians: Double.pi / 2).headingDegrees) < 1e-9)
        #expect(abs(Quaternion.identity.headingDegrees - 90) < 1e-9)
    }

    @Test func exponentialAndLogarithmMapsAreInverse() {
        for v in [Vector3(0.001, -0.002, 0.0005), Vector3(0.03, 0.02, -0.01), Vector3(1.2, -0.4, 2.0)] {
            let q = Quaternion.rotationVector(v)
            #expect(abs(q.normSquared - 1) < 1e-15)
            #expect((q.rotationVector - v).length < 1e-12)
        }
        // Series and trigonometric branches agree at the switch-over (θ = 0.05 rad).
        let a = Quaternion.rotationVector(Vector3(0.049_999_999, 0, 0))
        let b = Quaternion.rotationVector(Vector3(0.050_000_001, 0, 0))
        #expect(abs(a.x - b.x) < 1e-9 && abs(a.w - b.w) < 1e-9)
    }

    @Test func matrixRoundTripAndRotation() {
        let q = Quaternion(w: 0.3, x: -0.5, y: 0.7, z: 0.2).normalized
        let m = q.matrix
        let back = Quaternion(rotationMatrixRows: Vector3(m.0, m.1, m.2), Vector3(m.3, m.4, m.5), Vector3(m.6, m.7, m.8))
        #expect(abs(abs(back.w) - abs(q.w)) < 1e-12 && (back * q.conjugate).angleDegrees < 1e-9)
        let v = Vector3(1, 2, 3)
        #expect((q.inverseRotate(q.rotate(v)) - v).length < 1e-12)
        let p = q * Quaternion(w: 0, x: v.x, y: v.y, z: v.z) * q.conjugate
        #expect((Vector3(p.x, p.y, p.z) - q.rotate(v)).length < 1e-12)
    }

    @Test func angleWrapping() {
        #expect(Angle.wrap360(-0.5) == 359.5)
        #expect(Angle.wrap360(720) == 0)
        #expect(Angle.wrap180(350) == -10)
        #expect(Angle.wrap180(190) == -170)
        #expect(Angle.wrap180(-190) == 170)
    }

    /// BROAD metric: a pure yaw error is all heading; a pure tilt error is all inclination.
    @Test func orientationErrorSeparatesHeadingAndInclination() {
        let reference = Quaternion(w: 0.9, x: 0.1, y: -0.2, z: 0.3).normalized
        let yawed = Quaternion.aboutVertical(radians: 5 * Angle.radiansPerDegree) * reference
        let e = OrientationError.headingAndInclination(estimate: yawed, reference: reference)
        #expect(abs(e.headingDegrees - 5) < 1e-9 && e.inclinationDegrees < 1e-5)
        let tilted = Quaternion.rotationVector(Vector3(3 * Angle.radiansPerDegree, 0, 0)) * reference
        let t = OrientationError.headingAndInclination(estimate: tilted, reference: reference)
        #expect(t.headingDegrees < 1e-9 && abs(t.inclinationDegrees - 3) < 1e-9)
    }

    @Test func statisticsMatchNumpy() {
        var s = ErrorStatistics()
        for v in [1.0, 2, 3, 4, 10] { s.add(v) }
        #expect(abs(s.rms - (130.0 / 5).squareRoot()) < 1e-12)
        #expect(abs(s.percentile(95) - 8.8) < 1e-12)      // numpy.percentile([1,2,3,4,10], 95)
        #expect(s.maximum == 10)
    }
}
