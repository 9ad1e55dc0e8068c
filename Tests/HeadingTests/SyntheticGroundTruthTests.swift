import IMU
import Angles
import Testing
import TestSupport
@testable import Heading

/// Synthetic motion with known orientation (docs/hardware.md §4): what the filter does with perfect sensors,
/// with realistic errors, uncalibrated versus calibrated, and whether the ellipsoid fit recovers the
/// distortion it was given. Fixed seeds: the same numbers on every run.
@Suite struct SyntheticGroundTruthTests {
    static let driveSeconds = 180.0

    /// Perfect sensors on a drive with turns and speed changes, GPS speed once per second: the
    /// vehicle-acceleration compensation keeps the tilt, hence the heading, right. Without the speed
    /// the accelerometer follows the vehicle's acceleration and the heading error grows several-fold.
    @Test func perfectSensorsTrackTheTruth() {
        let samples = SyntheticIMU.drive(seconds: Self.driveSeconds, seed: 1, errors: .none)
        var estimator = HeadingEstimator(calibration: .identity)
        let e = SyntheticIMU.headingError(samples, estimator: &estimator, settleSeconds: 5)
        #expect(e.rms < 0.6, "heading RMSE \(e.rms)°")
        #expect(e.maximum < 2)
        var withoutSpeed = HeadingEstimator(calibration: .identity)
        let blind = SyntheticIMU.headingError(samples, estimator: &withoutSpeed, settleSeconds: 5, gpsSpeed: false)
        #expect(blind.rms > 3 * e.rms, "without GPS speed \(blind.rms)°, with \(e.rms)°")
    }

    @Test func realisticErrorsWithTheTrueCalibration() {
        let errors = SyntheticErrors.realistic
        let samples = SyntheticIMU.drive(seconds: Self.driveSeconds, stationarySeconds: 30, seed: 2, errors: errors)
        var estimator = HeadingEstimator(calibration: errors.trueCalibration)
        let e = SyntheticIMU.headingError(samples, estimator: &estimator, settleSeconds: 30)
        #expect(e.rms < 3, "heading RMSE \(e.rms)°")
        #expect(estimator.filter.gyroBias.isEstimated)
        let bias = estimator.filter.gyroBias.biasRadiansPerSecond * Angle.degreesPerRadian
        #expect((bias - errors.gyroBiasDegreesPerSecond).length < 0.1, "bias estimate \(bias) °/s")
        #expect(estimator.filter.counters.nonMonotonicTimestamps == 0)
    }

    /// Uncalibrated hard and soft iron turn the heading by tens of degrees; the calibration fitted from
    /// a tumble run (with the same distortion) brings it back to the level of the true calibration.
    @Test func uncalibratedVersusFittedCalibration() throws {
        let errors = SyntheticErrors.realistic
        let samples = SyntheticIMU.drive(seconds: Self.driveSeconds, stationarySeconds: 30, seed: 3, errors: errors)

        var raw = HeadingEstimator(calibration: nil)
        let uncalibrated = SyntheticIMU.headingError(samples, estimator: &raw, settleSeconds: 30)
        #expect(uncalibrated.rms > 20, "uncalibrated heading RMSE \(uncalibrated.rms)°")
        #expect(raw.calibrationState == .uncalibrated && raw.calibrationNeeded)
        #expect((raw.headingAccuracyDegrees ?? -1) >= 30)

        var run = MagnetometerCalibrationRun()
        for s in SyntheticIMU.tumble(seconds: 90, seed: 4, errors: errors) {
            run.add(s.sample.magneticFieldMicrotesla!)
        }
        let fitted = try run.fit()
        var calibrated = HeadingEstimator(calibration: fitted)
        let after = SyntheticIMU.headingError(samples, estimator: &calibrated, settleSeconds: 30)
        #expect(after.rms < 3, "calibrated heading RMSE \(after.rms)° (uncalibrated \(uncalibrated.rms)°)")
        #expect(calibrated.calibrationState == .calibrated && !calibrated.calibrationNeeded)
    }

    /// The fit recovers h and S: W·S = (R/|m|)·I, h to 0.5 µT.
    @Test func calibrationRecoversTheGivenDistortion() throws {
        let errors = SyntheticErrors.realistic
        var run = MagnetometerCalibrationRun()
        for s in SyntheticIMU.tumble(seconds: 90, seed: 5, errors: errors) { run.add(s.sample.magneticFieldMicrotesla!) }
        #expect(run.coverageFraction > 0.9)
        let field = SyntheticIMU.fieldENU.length
        let c = try run.fit(expectedFieldMicrotesla: field)
        #expect((c.hardIronMicrotesla - errors.hardIronMicrotesla).length < 0.5, "h \(c.hardIronMicrotesla)")
        // W·S should be the identity (the expected field was given).
        let s = errors.softIron
        let rows = [c.softIronRow0, c.softIronRow1, c.softIronRow2]
        for i in 0..<3 {
            for j in 0..<3 {
                let ws = rows[i].dot(s.row(j))          // S symmetric: column j = row j
                #expect(abs(ws - (i == j ? 1 : 0)) < 0.01, "(W·S)[\(i)][\(j)] = \(ws)")
            }
        }
        #expect(c.residualFraction < 0.01)
        #expect(c.coverageFraction > 0.9)
        #expect(abs(c.fieldMicrotesla - field) < 1e-9)
    }

    /// A vehicle can only turn about the vertical: the samples lie on a ring, the fit must refuse.
    @Test func planarTurnsAreNotEnoughForAnEllipsoidFit() {
        var run = MagnetometerCalibrationRun()
        var rng = SeededRandom(seed: 6)
        for k in 0..<3000 {
            let heading = Double(k) * 0.6 * Angle.radiansPerDegree
            let q = Quaternion.aboutVertical(radians: heading)
            run.add(SyntheticErrors.realistic.softIron.multiply(q.inverseRotate(SyntheticIMU.fieldENU))
                    + SyntheticErrors.realistic.hardIronMicrotesla + rng.gaussianVector(0.3))
        }
        #expect(run.coverageFraction < MagnetometerCalibrationRun.minimumCoverage)
        #expect(throws: MagnetometerCalibrationError.self) { try run.fit() }
    }
}
