import IMU
@testable import Simulation
import Testing

/// A real recording (x-io Fusion example data, 13 514 samples) presented to each simulated chip —
/// converted to its raw LSBs with its own axes, full-scale bits and byte order — and read back through
/// the real driver: every axis must come back within half an LSB.
@Suite struct IMUDriverRoundTripTests {
    struct Case: Sendable, CustomStringConvertible {
        var board: SimulatedIMUBoard
        /// Half an LSB: gyro rad/s, accel m/s², field µT (largest axis sensitivity).
        var gyro: Double, accel: Double, field: Double
        var description: String { "\(board)" }
    }

    static let rad = Double.pi / 180
    static let g = 9.80665
    static let cases: [Case] = [
        Case(board: .berryIMUv3, gyro: 0.5 * 0.070 * rad, accel: 0.5 * 0.122e-3 * g, field: 0.5 * 100 / 6842),
        Case(board: .senseHAT, gyro: 0.5 * 0.070 * rad, accel: 0.5 * 0.122e-3 * g, field: 0.5 * 0.014),
        Case(board: .icm20948, gyro: 0.5 / 16.4 * rad, accel: 0.5 / 8192 * g, field: 0.5 * 0.15),
        Case(board: .mpu9250, gyro: 0.5 / 16.4 * rad, accel: 0.5 / 8192 * g, field: 0.5 * 0.15 * 1.2),
        Case(board: .bno055, gyro: 0.5 / 16 * rad, accel: 0.5 / 100, field: 0.5 / 16),
    ]

    @Test(arguments: cases)
    func recordedSamplesRoundTripWithinHalfAnLSB(_ c: Case) throws {
        let data = RecordedIMUData.samples
        try #require(data.count == 13_514)
        let imu = SimulatedIMU(board: c.board)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        var worst = (gyro: 0.0, accel: 0.0, field: 0.0)
        var readings = 0
        var index = 0
        while index < data.count {
            let truth = data[index]
            imu.present(truth)
            now += 10_000_000
            guard let r = device.poll(nowNanoseconds: now) else { index += 1; continue }
            readings += 1
            worst.gyro = max(worst.gyro, Self.maxError(r.sample.gyroRadiansPerSecond, truth.gyroRadiansPerSecond))
            worst.accel = max(worst.accel, Self.maxError(r.sample.accelerationMetersPerSecondSquared,
                                                         truth.accelerationMetersPerSecondSquared))
            if let m = r.sample.magneticFieldMicrotesla, let t = truth.magneticFieldMicrotesla {
                worst.field = max(worst.field, Self.maxError(m, t))
            } else {
                Issue.record("sample \(index): field missing")
            }
            index += 1
        }
        #expect(readings == data.count)
        #expect(worst.gyro <= c.gyro * (1 + 1e-9), "gyro error \(worst.gyro) rad/s")
        #expect(worst.accel <= c.accel * (1 + 1e-9), "accel error \(worst.accel) m/s²")
        #expect(worst.field <= c.field * (1 + 1e-9), "field error \(worst.field) µT")
        #expect(device.status.faults == 0 && device.status.samples == data.count)
    }

    static func maxError(_ a: Vector3, _ b: Vector3) -> Double {
        max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
    }
}
