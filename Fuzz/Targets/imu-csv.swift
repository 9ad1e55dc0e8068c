// libFuzzer target: a recorded-IMU CSV (BROAD or x-io Fusion header, then rows) through IMUCSVParser,
// every sample checked finite, and through the heading estimator as `puckd heading replay` does.
// fuzz-max-len: 8192
import Heading
import IMU

@_cdecl("LLVMFuzzerTestOneInput")
public func imuCSVFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    guard let (_, records) = try? IMUCSVParser.parseAll(bytes) else { return 0 }
    var estimator = HeadingEstimator(configuration: HeadingConfiguration())
    for record in records {
        let s = record.sample
        guard s.gyroRadiansPerSecond.isFinite, s.accelerationMetersPerSecondSquared.isFinite,
              abs(record.timeSeconds) <= IMUCSVParser.maximumTimeSeconds else {
            fatalError("IMUCSVParser returned a sample it should have refused")
        }
        _ = estimator.update(s)
    }
    return 0
}
