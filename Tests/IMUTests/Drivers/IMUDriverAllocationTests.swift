import IMU
@testable import Simulation
import TestSupport
import Testing

/// Fixed allocation: after start-up, polling a running device (status read, burst reads, decode,
/// scaling, remap, mounting) on the simulated bus allocates nothing — in debug and in release.
@Suite struct IMUDriverAllocationTests {
    @Test(arguments: SimulatedIMUBoard.allCases.filter { $0 != .mpu6500 })
    func hundredThousandSampleReadsAllocateNothing(_ board: SimulatedIMUBoard) throws {
        let data = RecordedIMUData.samples
        try #require(!data.isEmpty)
        let imu = SimulatedIMU(board: board)
        var configuration = IMUDeviceConfiguration()
        configuration.mounting = try MountingOrientation(parsing: "x-left,z-up,yaw=3.5")
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, configuration: configuration, now: &now)
        var readings = 0
        func cycle(_ count: Int) {
            var i = 0
            while i < count {
                imu.present(data[i % data.count])
                now += 10_000_000
                if device.poll(nowNanoseconds: now) != nil { readings += 1 }
                i += 1
            }
        }
        cycle(1_000)                                   // warm-up: metadata and witness caches
        readings = 0
        let allocations = allocationCount { cycle(100_000) }
        let delivered = readings
        #expect(allocations == 0)
        #expect(delivered == 100_000)
    }
}
