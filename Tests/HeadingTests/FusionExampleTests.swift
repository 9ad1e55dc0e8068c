import IMU
import Angles
import Testing
#if canImport(Glibc)
import Glibc
#endif
import Heading

/// x-io Fusion's example data (no ground truth, but a known stationary magnetic disturbance) and
/// Fusion's own output on it (`Tests/Fixtures/imu/fusion-example/`).
@Suite struct FusionExampleTests {
    /// Our magnetic heading per input row, with the data's own calibration (already calibrated by x-io).
    static let headings: [Double] = {
        var estimator = HeadingEstimator(calibration: .identity)
        return IMUFixtures.fusionExample.map { r in
            estimator.update(r.sample)
            return estimator.filter.orientation.headingDegrees
        }
    }()

    static func circularMean(_ values: [Double]) -> Double {
        var s = 0.0, c = 0.0
        for v in values { s += sin(v * Angle.radiansPerDegree); c += cos(v * Angle.radiansPerDegree) }
        return Angle.wrap360(atan2(s, c) * Angle.degreesPerRadian)
    }

    @Test func dataAndReferenceAreComplete() {
        #expect(IMUFixtures.fusionExample.count == 13_514)
        #expect(IMUFixtures.fusionOutput.count == 13_514)
        #expect(Self.headings.count == 13_514)
    }

    /// The board is stationary from ≈ 95 s to 130 s while a magnet swings the compass by ≈ 150° during
    /// 100.5–116.5 s: the heading must not move by more than 2°.
    @Test func stationaryMagneticDisturbanceDoesNotDragTheHeading() {
        let records = IMUFixtures.fusionExample, h = Self.headings
        let before = Self.circularMean(records.indices.filter { records[$0].timeSeconds > 95 && records[$0].timeSeconds < 100 }
            .map { h[$0] })
        var worstDuring = 0.0, worstAfter = 0.0
        for i in records.indices {
            let t = records[i].timeSeconds
            let change = abs(Angle.wrap180(h[i] - before))
            if t >= 100.5 && t <= 116.5 { worstDuring = max(worstDuring, change) }
            if t > 116.5 && t <= 130 { worstAfter = max(worstAfter, change) }
        }
        #expect(worstDuring <= 2, "heading moved \(worstDuring)° during the disturbance")
        #expect(worstAfter <= 2, "heading moved \(worstAfter)° after the disturbance")
    }

    /// Outside the disturbance (and Fusion's start-up), our heading agrees with Fusion's to ≤ 1.5° RMS.
    /// 100–130 s is excluded: Fusion's 5 s rejection timeout makes it follow the disturbed field there.
    @Test func agreesWithFusionOutsideDisturbances() {
        let records = IMUFixtures.fusionExample, reference = IMUFixtures.fusionOutput, h = Self.headings
        var sum = 0.0, n = 0.0
        for i in records.indices {
            let t = records[i].timeSeconds
            guard t > 3, t < 100 || t > 130 else { continue }
            #expect(abs(reference[i].time - t) < 1e-5)
            let d = Angle.wrap180(h[i] - reference[i].heading)
            sum += d * d
            n += 1
        }
        let rms = (sum / n).squareRoot()
        #expect(n > 10_000)
        #expect(rms <= 1.5, "RMS difference to Fusion \(rms)°")
    }

    /// The reported accuracy grows while the magnetometer is rejected, and the rejection is reported.
    @Test func accuracyGrowsWhileTheMagnetometerIsRejected() {
        var estimator = HeadingEstimator(calibration: .identity)
        var atStart = -1.0, atEnd = -1.0, rejected = 0, total = 0
        for r in IMUFixtures.fusionExample {
            estimator.update(r.sample)
            let t = r.timeSeconds
            if t >= 100.5 && t < 100.52 { atStart = estimator.headingAccuracyDegrees ?? -1 }
            if t >= 116.3 && t < 116.32 { atEnd = estimator.headingAccuracyDegrees ?? -1 }
            if t > 102 && t < 115 {
                total += 1
                if !estimator.filter.lastMagnetometerDecision.isUsed { rejected += 1 }
            }
        }
        #expect(rejected == total && total > 1000)
        #expect(atStart > 0 && atEnd > atStart, "accuracy \(atStart)° → \(atEnd)°")
    }
}
