import IMU
import CMallocCounter
import Glibc
import Hardware
import Heading
import Simulation

/// `make bench` figures for the IMU drivers: samples per second through status read + burst reads +
/// decode + remap + mounting on the register-level simulated bus (the simulated chip's encoding of
/// each sample included), and heap allocations per sample after warm-up. Call from main.swift.
func runIMUBench() {
    print("IMU drivers on the simulated bus (present + poll + decode + mounting), release build:")
    print("  board        samples/s   ns/sample  allocations/sample")
    for board in SimulatedIMUBoard.allCases where board != .mpu6500 {
        let imu = SimulatedIMU(board: board)
        var configuration = IMUDeviceConfiguration()
        configuration.mounting = MountingOrientation(sensorX: .left, sensorZ: .up, yawOffsetDegrees: 3.5)!
        configuration.stuckSampleLimit = 0
        var device = IMUDevice(bus: imu.bus, configuration: configuration)
        var now: Int64 = 0
        while device.status.state != .running, now < 5_000_000_000 {
            _ = device.poll(nowNanoseconds: now)
            now = max(now + 1, device.nextPollNanoseconds)
        }
        var truth = IMUSample(timestampNanoseconds: 0, gyroRadiansPerSecond: Vector3(0.01, -0.02, 0.3),
                              accelerationMetersPerSecondSquared: Vector3(0.1, -0.2, 9.8),
                              magneticFieldMicrotesla: Vector3(20, 1, -40), temperatureCelsius: 30)
        var checksum = 0.0
        func cycle(_ n: Int) {
            var i = 0
            while i < n {
                truth.gyroRadiansPerSecond.z = Double(i % 1000) * 1e-3
                imu.present(truth)
                now += 10_000_000
                if let r = device.poll(nowNanoseconds: now) { checksum += r.sample.gyroRadiansPerSecond.x }
                i += 1
            }
        }
        cycle(10_000)
        let n = 1_000_000
        let allocationsBefore = mc_thread_allocations()
        var t0 = timespec(), t1 = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t0)
        cycle(n)
        clock_gettime(CLOCK_MONOTONIC, &t1)
        let allocations = mc_thread_allocations() - allocationsBefore
        let seconds = Double(t1.tv_sec - t0.tv_sec) + Double(t1.tv_nsec - t0.tv_nsec) / 1e9
        let name = "\(board)".padding(12)
        let rate = Int(Double(n) / seconds)
        let nsPer = Int(seconds * 1e9 / Double(n))
        print("  \(name) \(String(rate).leftPadded(9))   \(String(nsPer).leftPadded(9))  \(Double(allocations) / Double(n))"
              + (checksum.isNaN ? " (nan)" : ""))
    }
}

private extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
