import Heading
import IMU
import NMEA
import State
import Tracking

/// The sample state records the state store's tests (StateTests) and the device's state-file tests
/// (PuckdTests) share, and their encoded bytes.
public enum SampleStateRecords {
    /// The magnetometer calibration inside `overview`.
    public static let calibration = MagnetometerCalibration(hardIronMicrotesla: Vector3(12.5, -7.25, 3), fieldMicrotesla: 53.4,
                                                            coverageFraction: 0.8, residualFraction: 0.01, sampleCount: 300)

    /// followWithCourse, the overview viewport, reduced accuracy, a fix in Iowa, a calibration.
    public static let overview = DeviceStateRecord(
        trackingMode: .followWithCourse, viewport: .overview, showsLocation: false, authorization: .authorized,
        accuracy: .reduced,
        lastFix: SavedFix(latitudeDegrees: 41.5749699, longitudeDegrees: -93.7505607, altitudeMSLMeters: 278.2,
                          horizontalAccuracyMeters: 4.3, utcNanoseconds: 1_584_538_099_600_000_000, mode: .threeD),
        calibration: calibration)

    /// followWithHeading with a follow viewport, a fix in Sydney, a gyroscope bias, no calibration.
    public static let followWithHeading = DeviceStateRecord(
        trackingMode: .followWithHeading, viewport: .followPuck, showsLocation: true, authorization: .authorized,
        accuracy: .full,
        lastFix: SavedFix(latitudeDegrees: -33.8688, longitudeDegrees: 151.2093, altitudeMSLMeters: 58,
                          horizontalAccuracyMeters: 1.1, utcNanoseconds: 1_700_000_000_000_000_000, mode: .threeD),
        calibration: nil, gyroBiasRadiansPerSecond: Vector3(0.004, -0.003, 0.0025),
        followViewport: SavedFollowViewport(zoom: 15, pitchDegrees: 30, bearing: .constant(90)))

    /// The bytes of the state file that holds `record`.
    public static func encoded(_ record: DeviceStateRecord) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: DeviceStateRecord.byteCount)
        _ = bytes.withUnsafeMutableBytes { record.encode(into: $0) }
        return bytes
    }
}
