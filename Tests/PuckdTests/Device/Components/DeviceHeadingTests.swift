import Angles
import Testing
import TestSupport
@testable import Puckd
@testable import Tracking

/// The IMU heading reaches the tracking core while the board stands still (found by the HIL scenario:
/// the estimator publishes only 1° changes, and the core drops an IMU heading 10 s old).
@Suite struct DeviceHeadingTests {
    @Test func aBoardStandingStillKeepsItsIMUHeadingAndItsDeclination() throws {
        // No loop: after the drive's last epoch (15 s) the simulated board stands still for good.
        let h = try SimulatedDeviceHarness(overrides: ["sim.loop=false"])
        defer { h.removeDirectory() }
        h.advance(by: 15_000_000_000)
        #expect(h.device.core.currentBearingSelection?.source == .imuHeading)
        // 25 s more standing still: far past the core's 10 s IMU timeout.
        h.advance(by: 25_000_000_000)
        let selection = try #require(h.device.core.currentBearingSelection, "the heading was dropped")
        #expect(selection.source == .imuHeading)
        // The bearing is the true heading: magnetic + the WMM declination the fixes made known.
        let estimate = h.device.imuLink.heading.current
        let declination = try #require(estimate.declinationDegrees)
        let expected = Angle.wrap360(estimate.magneticHeadingDegrees + declination)
        #expect(abs(Angle.shortestDelta(from: expected, to: selection.degrees)) < 0.5)
    }
}
