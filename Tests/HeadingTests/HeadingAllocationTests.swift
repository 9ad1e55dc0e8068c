@testable import IMU
import Testing
import TestSupport
@testable import Heading

/// The device loop's per-sample work allocates nothing (debug and release builds).
@Suite struct HeadingAllocationTests {
    @Test func hundredThousandSamplesThroughFilterAndPublishAllocateNothing() {
        let errors = SyntheticErrors.realistic
        let drive = SyntheticIMU.drive(seconds: 200, stationarySeconds: 20, seed: 21, errors: errors)
        var samples = [IMUSample]()
        samples.reserveCapacity(100_000)
        var offset: Int64 = 0
        while samples.count < 100_000 {
            for s in drive where samples.count < 100_000 {
                var x = s.sample
                x.timestampNanoseconds += offset
                samples.append(x)
            }
            offset += 210_000_000_000
        }
        var estimator = HeadingEstimator(calibration: errors.trueCalibration)
        // Warm up (metadata caches, the declination computation), outside the measurement.
        estimator.updateLocation(latitudeDegrees: 51.45, longitudeDegrees: -2.59, heightMeters: 10,
                                 utcNanoseconds: 1_782_864_000_000_000_000)
        for i in 0..<1000 { estimator.update(samples[i]) }
        var published = 0
        var headingSum = 0.0
        let count = allocationCount {
            for i in 1000..<samples.count {
                if i % 100 == 0 {
                    estimator.updateSpeed(metersPerSecond: 12, timestampNanoseconds: samples[i].timestampNanoseconds)
                    estimator.updateLocation(latitudeDegrees: 51.45 + Double(i) * 1e-6, longitudeDegrees: -2.59,
                                             heightMeters: 10, utcNanoseconds: 1_782_864_000_000_000_000)
                    // GNSS course aiding (history lookup, Kalman update, offset learning).
                    estimator.updateCourse(trueDegrees: estimator.current.trueHeadingDegrees ?? 0, speedMetersPerSecond: 12,
                                           ageNanoseconds: 1_000_000_000)
                }
                if estimator.update(samples[i]), let p = estimator.published {
                    published += 1
                    headingSum += p.trueHeadingDegrees ?? 0
                }
            }
        }
        #expect(count == 0, "\(count) heap allocations in 99 000 samples")
        #expect(published > 100 && headingSum > 0)
        #expect(estimator.filter.course.usedCount > 0)
    }

    @Test func csvRowParsingAllocatesNothing() throws {
        let header = Array("time_s,gyr_x_rad_s,gyr_y_rad_s,gyr_z_rad_s,acc_x_m_s2,acc_y_m_s2,acc_z_m_s2,mag_x_uT,mag_y_uT,mag_z_uT,ref_qw,ref_qx,ref_qy,ref_qz,movement".utf8)
        let row = Array("0.003500,0.003195698,0.002131047,-0.005326745,0.01932829,0.05996021,9.763933,0.1091898,14.64445,-39.8591,nan,nan,nan,nan,0".utf8)
        var parser = try header.withUnsafeBytes { raw throws(IMUCSVError) in try IMUCSVParser(header: raw) }
        let line = UnsafeMutableRawBufferPointer.allocate(byteCount: row.count, alignment: 1)
        defer { line.deallocate() }
        line.copyBytes(from: row)
        let raw = UnsafeRawBufferPointer(line)
        var sum = 0.0, parsed = 0
        sum += (try? parser.parse(line: raw))??.timeSeconds ?? 0
        let count = allocationCount {
            for _ in 0..<1000 {
                if let record = (try? parser.parse(line: raw)) ?? nil {
                    sum += record.timeSeconds
                    parsed += 1
                }
            }
        }
        #expect(count == 0 && parsed == 1000)
        #expect(abs(sum - 1001 * 0.0035) < 1e-9)
    }
}
