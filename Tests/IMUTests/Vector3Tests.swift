@testable import IMU
import Testing

@Suite struct IMUSampleTests {
    @Test func sampleKeepsAbsentMagnetometerAbsent() {
        let s = IMUSample(timestampNanoseconds: 10, gyroRadiansPerSecond: .zero,
                          accelerationMetersPerSecondSquared: Vector3(0, 0, 9.81), magneticFieldMicrotesla: nil)
        #expect(s.magneticFieldMicrotesla == nil)
        #expect(s.accelerationMetersPerSecondSquared.z == 9.81)
    }
}
