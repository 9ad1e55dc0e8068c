@testable import IMU
import Angles
import Testing
import NMEA
@testable import Heading

/// Publication (every valid update), true heading, calibration states and accuracy validity.
@Suite struct HeadingEstimatorTests {
    typealias S = AHRSFilterTests

    /// Feeds a board turning clockwise at `rate` °/s from heading 0 for `seconds`, after 10 s at rest.
    static func turn(_ estimator: inout HeadingEstimator, rate: Double, seconds: Double) -> Int {
        var published = 0, t = 0.0
        while t < 10 {
            if estimator.update(S.sample(t, S.heading(0))) { published += 1 }
            t += 0.01
        }
        let start = t
        while t < 10 + seconds {
            let h = rate * (t - start)
            if estimator.update(S.sample(t, S.heading(h), gyro: Vector3(0, 0, -rate * Angle.radiansPerDegree))) {
                published += 1
            }
            t += 0.01
        }
        return published
    }

    /// The estimator publishes every fused update once the heading is valid: the one heading filter
    /// (`heading_filter_deg`) is the tracking core's (tracking.md 4.2), so the key no longer thins
    /// what the estimator publishes.
    @Test func publishesEveryValidUpdateWhateverTheHeadingFilter() {
        var standard = HeadingEstimator(calibration: .identity)
        let n1 = Self.turn(&standard, rate: 2, seconds: 10)          // 20° of turning, 100 Hz
        #expect(n1 > 1500, "published \(n1) headings")               // every sample after the start-up
        #expect(n1 == standard.publishedCount)
        let last = standard.published!
        #expect(last == standard.current)
        #expect(abs(Angle.wrap180(last.magneticHeadingDegrees - 20)) < 1.5)
        #expect(last.isValid && last.calibrationState == .calibrated && !last.calibrationNeeded)

        var c = HeadingConfiguration()
        c.headingFilterDegrees = 45
        var coarse = HeadingEstimator(configuration: c, calibration: .identity)
        #expect(Self.turn(&coarse, rate: 2, seconds: 10) == n1)
    }

    @Test func invalidDuringStartupThenValid() {
        var e = HeadingEstimator(calibration: .identity)
        e.update(S.sample(0, S.heading(0)))
        #expect(e.headingAccuracyDegrees == nil && e.published == nil)
        var t = 0.01
        while t < 2.9 { e.update(S.sample(t, S.heading(0))); t += 0.01 }
        #expect(!e.current.isValid)
        var published = false
        while t < 3.2 && !published { published = e.update(S.sample(t, S.heading(0))); t += 0.01 }
        #expect(published && e.publishedCount == 1)
        // The published estimate is the current one at that sample (accuracy floor included).
        #expect(e.published == e.current)
        #expect(e.current.isValid && e.published!.calibrationState == .calibrated)
        #expect((e.headingAccuracyDegrees ?? -1) >= 1 && (e.headingAccuracyDegrees ?? -1) < 3)
    }

    /// Without magnetometer readings the accuracy grows with the gyro-bias drift and the heading
    /// becomes invalid once it passes `maximumValidAccuracyDegrees`.
    @Test func accuracyGrowsWithoutMagnetometerUntilInvalid() {
        var c = HeadingConfiguration()
        c.maximumValidAccuracyDegrees = 10
        var e = HeadingEstimator(configuration: c, calibration: .identity)
        var t = 0.0
        while t < 10 { e.update(S.sample(t, S.heading(0))); t += 0.01 }
        let good = e.headingAccuracyDegrees ?? -1
        while t < 70 { e.update(S.sample(t, S.heading(0), field: nil)); t += 0.01 }
        let later = e.headingAccuracyDegrees ?? -1
        #expect(good > 0 && later > good + 2, "accuracy \(good)° → \(later)°")
        while t < 250 { e.update(S.sample(t, S.heading(0), field: nil)); t += 0.01 }
        #expect(e.headingAccuracyDegrees == nil && e.published?.isValid == false)
        #expect(e.current.magnetometer == .absent)
    }

    @Test func sixAxisIMUNeverHasAnAbsoluteHeading() {
        var e = HeadingEstimator(calibration: nil)
        var t = 0.0
        while t < 20 { e.update(S.sample(t, S.heading(0), field: nil)); t += 0.01 }
        #expect(e.headingAccuracyDegrees == nil && e.published == nil)
    }

    @Test func trueHeadingAddsWMMDeclination() {
        var e = HeadingEstimator(calibration: .identity)
        var t = 0.0
        while t < 5 { e.update(S.sample(t, S.heading(100))); t += 0.01 }
        #expect(e.current.trueHeadingDegrees == nil && e.current.declinationDegrees == nil)
        // Boulder, 2026-07-01: declination +7.68° (pygeomag).
        var fix = Fix(timeOfDayNanoseconds: 0)
        fix.utcNanoseconds = 20_635 * 86_400_000_000_000
        fix.mode = .threeD
        fix.latitudeDegrees = 40.015
        fix.longitudeDegrees = -105.2705
        fix.altitudeMSLMeters = 1600
        fix.speedMetersPerSecond = 0
        e.update(fix: fix, receivedAtNanoseconds: Int64(t * 1e9))
        let now = e.current
        let d = try! #require(now.declinationDegrees)
        #expect(abs(d - 7.6848) < 0.01)
        #expect(abs(Angle.wrap180(now.trueHeadingDegrees! - now.magneticHeadingDegrees - d)) < 1e-9)
        #expect(abs(Angle.wrap180(now.trueHeadingDegrees! - 107.68)) < 0.5)
        #expect(e.filter.vehicleSpeedMetersPerSecond == 0)
        // A fix without position changes nothing.
        e.update(fix: Fix(timeOfDayNanoseconds: 1), receivedAtNanoseconds: Int64(t * 1e9))
        #expect(e.current.declinationDegrees == d)
    }

    @Test func speedExpiresWithoutFreshFixes() {
        var e = HeadingEstimator(calibration: .identity)
        e.updateSpeed(metersPerSecond: 10, timestampNanoseconds: 0)
        e.updateSpeed(metersPerSecond: 12, timestampNanoseconds: 1_000_000_000)
        #expect(e.filter.vehicleSpeedMetersPerSecond == 12 && e.filter.vehicleAccelerationMetersPerSecondSquared == 2)
        var t = 1.0
        while t < 4.5 { e.update(S.sample(t, S.heading(0))); t += 0.01 }
        #expect(e.filter.vehicleSpeedMetersPerSecond == nil)
    }

    @Test func calibrationStatesAndFloors() {
        func settled(_ calibration: MagnetometerCalibration?) -> HeadingEstimator {
            var e = HeadingEstimator(calibration: calibration)
            var t = 0.0
            while t < 20 { e.update(S.sample(t, S.heading(0))); t += 0.01 }   // bias estimated after ≈ 11 s
            return e
        }
        let field = S.field.length
        let none = settled(nil)
        #expect(none.calibrationState == .uncalibrated && none.calibrationNeeded)
        #expect((none.headingAccuracyDegrees ?? -1) >= 30)
        let good = settled(MagnetometerCalibration(hardIronMicrotesla: .zero, fieldMicrotesla: field, coverageFraction: 0.9))
        #expect(good.calibrationState == .calibrated && !good.calibrationNeeded)
        #expect((good.headingAccuracyDegrees ?? -1) < 3)
        let poor = settled(MagnetometerCalibration(hardIronMicrotesla: .zero, fieldMicrotesla: field, coverageFraction: 0.6))
        #expect(poor.calibrationState == .poorCoverage && poor.calibrationNeeded)
        #expect((poor.headingAccuracyDegrees ?? -1) >= 10)
        let stale = settled(MagnetometerCalibration(hardIronMicrotesla: .zero, fieldMicrotesla: field * 1.3))
        #expect(stale.calibrationState == .fieldMismatch && stale.calibrationNeeded)
        // A calibration that is not usable (singular) is treated as none.
        let broken = settled(MagnetometerCalibration(hardIronMicrotesla: .zero, softIronRow2: .zero, fieldMicrotesla: field))
        #expect(broken.calibration == nil && broken.calibrationState == .uncalibrated)
    }

    @Test func calibrationIsAppliedToRawReadings() {
        // The sensor adds a hard iron of (30, −10, 5) µT; the calibration removes it.
        let h = Vector3(30, -10, 5)
        var e = HeadingEstimator(calibration: MagnetometerCalibration(hardIronMicrotesla: h, fieldMicrotesla: 0))
        var t = 0.0
        while t < 20 {
            var s = S.sample(t, S.heading(250))
            s.magneticFieldMicrotesla = s.magneticFieldMicrotesla! + h
            e.update(s)
            t += 0.01
        }
        #expect(abs(Angle.wrap180(e.current.magneticHeadingDegrees - 250)) < 0.1)
    }

    @Test func configurationKeys() throws {
        var c = HeadingConfiguration()
        try c.set("mag_noise", to: "3.5")
        try c.set("heading_filter_deg", to: "5")
        try c.set("course_speed_mps", to: "8")
        #expect(c.ahrs.magneticNoiseDegreesRootSecond == 3.5 && c.headingFilterDegrees == 5)
        #expect(c.ahrs.courseAidingSpeedMetersPerSecond == 8)
        #expect(c.value(of: "tilt_tau_s") == 3)
        #expect(throws: HeadingConfigurationError.unknownKey("magNoise")) { try c.set("magNoise", to: "1") }
        #expect(throws: HeadingConfigurationError.invalidValue(key: "mag_noise", value: "-1")) { try c.set("mag_noise", to: "-1") }
        for key in HeadingConfiguration.settingKeys { #expect(c.value(of: key) != nil, "\(key) has no field") }
    }
}
