import IMU
import Heading
import TestSupport

/// Recorded IMU data sets from `Tests/Fixtures/imu/`, parsed once per test process.
enum IMUFixtures {
    static let broad07: [IMUCSVRecord] = load("imu/broad/07_undisturbed_fast_rotation_B.csv.xz")
    static let broad30: [IMUCSVRecord] = load("imu/broad/30_disturbed_stationary_magnet_C.csv.xz")
    static let fusionExample: [IMUCSVRecord] = load("imu/fusion-example/sensor_data.csv.xz")

    /// Fusion's output on the example data: (time_s, heading_mag_deg) per row.
    static let fusionOutput: [(time: Double, heading: Double)] = {
        let rows = csvRows(Fixtures.xzBytes("imu/fusion-example/fusion_ahrs_output.csv.xz") ?? [])
        return rows.dropFirst().map { (Double($0[0])!, Double($0[4])!) }
    }()

    static func load(_ path: String) -> [IMUCSVRecord] {
        guard let bytes = Fixtures.xzBytes(path) else { return [] }
        return (try? bytes.withUnsafeBytes { raw throws(IMUCSVError) in try IMUCSVParser.parseAll(raw).1 }) ?? []
    }

    /// Splits CSV text (LF or CRLF line ends) into rows of fields (tests only).
    static func csvRows(_ bytes: [UInt8]) -> [[Substring]] {
        bytes.split(separator: UInt8(ascii: "\n")).map { line in
            let text = String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
            return text.split(separator: ",", omittingEmptySubsequences: false)
        }
    }
}

/// Scores of one filter run on a BROAD trial with the BROAD metric.
struct TrialScore {
    var heading = ErrorStatistics()
    var inclination = ErrorStatistics()
    /// Scored samples whose heading error was within the reported accuracy.
    var covered = 0
}

/// Runs `estimator` over `records` and scores it where BROAD scores (movement, finite reference).
func score(_ records: [IMUCSVRecord], estimator: inout HeadingEstimator) -> TrialScore {
    var result = TrialScore()
    for i in records.indices {
        let r = records[i]
        estimator.update(r.sample)
        guard r.movement == true, let reference = r.referenceOrientation else { continue }
        let e = OrientationError.headingAndInclination(estimate: estimator.filter.orientation, reference: reference)
        result.heading.add(e.headingDegrees)
        result.inclination.add(e.inclinationDegrees)
        if let a = estimator.headingAccuracyDegrees, e.headingDegrees <= a { result.covered += 1 }
    }
    return result
}
