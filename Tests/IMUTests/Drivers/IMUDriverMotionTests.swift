import Glibc
import Heading
import IMU
@testable import Simulation
import Testing

/// A motion script through the simulated chips at their own configured data rates (e.g. LSM6DSL
/// 104 Hz with the LIS3MDL at 80 Hz): the device delivers one reading per accel/gyro conversion, the
/// field only when the magnetometer converted, and the field's direction follows the true rotation.
@Suite struct IMUDriverMotionTests {
    struct Case: Sendable, CustomStringConvertible {
        var board: SimulatedIMUBoard
        var sampleRateHertz: Double
        var fieldRateHertz: Double
        var description: String { "\(board)" }
    }

    static let cases: [Case] = [
        Case(board: .berryIMUv3, sampleRateHertz: 104, fieldRateHertz: 80),
        Case(board: .senseHAT, sampleRateHertz: 119, fieldRateHertz: 80),
        Case(board: .icm20948, sampleRateHertz: 1125.0 / 11, fieldRateHertz: 100),
        Case(board: .mpu9250, sampleRateHertz: 100, fieldRateHertz: 100),
        Case(board: .bno055, sampleRateHertz: 100, fieldRateHertz: 100),
    ]

    static let yawRateDegreesPerSecond = 30.0

    /// Level, turning left (counter-clockwise seen from above) at 30°/s in a field of 20 µT north, 40 µT down.
    static func truth(_ t: Int64) -> IMUSample {
        let yaw = yawRateDegreesPerSecond * Double(t) / 1e9 * Double.pi / 180
        return IMUSample(timestampNanoseconds: t,
                         gyroRadiansPerSecond: Vector3(0, 0, yawRateDegreesPerSecond * Double.pi / 180),
                         accelerationMetersPerSecondSquared: Vector3(0, 0, 9.80665),
                         magneticFieldMicrotesla: Vector3(20 * cos(yaw), -20 * sin(yaw), -40 + Double(t % 7) * 1e-3),
                         temperatureCelsius: 30)
    }

    @Test(arguments: cases)
    func readingsFollowTheChipsOwnRatesAndTheRotation(_ c: Case) {
        let imu = SimulatedIMU(board: c.board)
        var configuration = IMUDeviceConfiguration()
        configuration.stuckSampleLimit = 0               // the motion is noise-free: identical gyro bytes are real here
        var start: Int64 = 0
        var device = DriverHarness.runningDevice(imu, configuration: configuration, now: &start)
        var readings = 0, fields = 0
        var worstHeadingErrorDegrees = 0.0
        var t = start
        while t < start + 2_000_000_000 {
            t += 2_000_000
            imu.advance(toNanoseconds: t, truth: Self.truth)
            guard let r = device.poll(nowNanoseconds: t) else { continue }
            readings += 1
            guard let m = r.sample.magneticFieldMicrotesla else { continue }
            fields += 1
            let measured = atan2(-m.y, m.x) * 180 / Double.pi
            let expected = Self.yawRateDegreesPerSecond * Double(r.sample.timestampNanoseconds) / 1e9
            var error = (measured - expected).truncatingRemainder(dividingBy: 360)
            if error > 180 { error -= 360 } else if error < -180 { error += 360 }
            worstHeadingErrorDegrees = max(worstHeadingErrorDegrees, abs(error))
        }
        #expect(abs(Double(readings) - 2 * c.sampleRateHertz) <= 3, "\(readings) readings in 2 s")
        #expect(abs(Double(fields) - 2 * min(c.fieldRateHertz, c.sampleRateHertz)) <= 4, "\(fields) fields in 2 s")
        // Latency ≤ one magnetometer period + one poll: ≤ 14.5 ms × 30°/s ≈ 0.44°.
        #expect(worstHeadingErrorDegrees < 0.6, "heading error \(worstHeadingErrorDegrees)°")
        #expect(device.status.faults == 0)
    }
}
