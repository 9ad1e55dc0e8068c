import Angles
import Testing

/// The one angle helper every module uses: wrapping at the boundaries and at −0.0, shortest arcs,
/// degrees ↔ radians.
@Suite struct AngleTests {
    @Test func wrap360NeverGivesNegativeZero() {
        for input in [-0.0, 0.0, 360.0, -360.0, 720.0, -720.0] {
            let wrapped = Angle.wrap360(input)
            #expect(wrapped == 0 && wrapped.sign == .plus, "wrap360(\(input)) = \(wrapped)")
        }
    }

    @Test func wrap360AtTheBoundaries() {
        #expect(Angle.wrap360(359.5) == 359.5)
        #expect(Angle.wrap360(-0.5) == 359.5)
        #expect(Angle.wrap360(360.5) == 0.5)
        #expect(Angle.wrap360(-359.5) == 0.5)
        #expect(Angle.wrap360(359.99999999999994) == 359.99999999999994)       // the largest double below 360
        // −1e-20 + 360 rounds to 360, which is outside 0..<360: it wraps to 0.
        let tiny = Angle.wrap360(-1e-20)
        #expect(tiny == 0 && tiny.sign == .plus)
        #expect(Angle.wrap360(.nan).isNaN && Angle.wrap360(.infinity).isNaN)
    }

    @Test func wrap180AndShortestDeltaAgreeOnTheHalfOpenRange() {
        #expect(Angle.wrap180(180) == -180 && Angle.wrap180(-180) == -180)
        #expect(Angle.wrap180(350) == -10 && Angle.wrap180(190) == -170 && Angle.wrap180(-190) == 170)
        #expect(Angle.shortestDelta(from: 0, to: 180) == -180 && Angle.shortestDelta(from: 180, to: 0) == -180)
        #expect(Angle.shortestDelta(from: 350, to: 10) == 20 && Angle.shortestDelta(from: 10, to: 350) == -20)
        #expect(Angle.interpolateShortest(from: 350, to: 10, fraction: 0.5) == 0)
    }

    @Test func longitudeWrapsOnlyFromOutsideTheRange() {
        #expect(Angle.wrapLongitude(180) == 180 && Angle.wrapLongitude(-180) == -180)
        #expect(Angle.wrapLongitude(181) == -179 && Angle.wrapLongitude(540) == -180)
    }

    @Test func degreesAndRadians() {
        #expect(180 * Angle.radiansPerDegree == Double.pi)
        #expect(Double.pi * Angle.degreesPerRadian == 180)
    }
}
