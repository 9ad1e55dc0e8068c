import IMU
@testable import Simulation
import Testing

/// The device state machine around the drivers: errors counted by kind, faults, backoff, re-init,
/// mounting and timestamps — all through the simulated twin's injected faults.
@Suite struct IMUDeviceRecoveryTests {
    /// Presents noisy samples every 5 ms and polls; returns the number of readings.
    @discardableResult
    static func run(_ imu: SimulatedIMU, _ device: inout IMUDevice<SimulatedI2CBus>, _ now: inout Int64,
                    milliseconds: Int, from index: Int = 0) -> Int {
        var readings = 0
        for i in 0..<(milliseconds / 5) {
            now += 5_000_000
            imu.present(DriverHarness.noisySample(index + i))
            if device.poll(nowNanoseconds: now) != nil { readings += 1 }
        }
        return readings
    }

    @Test func isolatedIOErrorIsCountedAndSkipped() {
        let imu = SimulatedIMU(board: .berryIMUv3)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        imu.primary.injectFault(.io, transfers: 1)
        #expect(DriverHarness.readOnce(imu, &device, DriverHarness.noisySample(1), at: &now) == nil)
        #expect(device.status.errors[.io] == 1 && device.status.consecutiveErrors == 1)
        #expect(DriverHarness.readOnce(imu, &device, DriverHarness.noisySample(2), at: &now) != nil)
        #expect(device.status.state == .running && device.status.faults == 0 && device.status.consecutiveErrors == 0)
    }

    @Test func persistentIOErrorFaultsBacksOffAndReinitializes() {
        let imu = SimulatedIMU(board: .berryIMUv3)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        let initWrites = DriverHarness.triples(imu.bus.writeLog)
        imu.primary.injectFault(.io, transfers: 3)
        for i in 0..<3 { _ = DriverHarness.readOnce(imu, &device, DriverHarness.noisySample(i), at: &now) }
        #expect(device.status.state == .faulted)
        #expect(device.status.lastFault == .bus(.io(address: 0x6A)))
        #expect(device.status.errors[.io] == 3 && device.status.faults == 1)
        #expect(device.nextPollNanoseconds == now + 50_000_000)          // first backoff: 50 ms
        _ = device.poll(nowNanoseconds: now + 1_000_000)
        #expect(device.status.state == .backoff)
        DriverHarness.runUntilRunning(&device, from: device.nextPollNanoseconds)
        #expect(device.status.initializations == 2)
        #expect(DriverHarness.triples(imu.bus.writeLog) == initWrites + initWrites)   // the whole init again
        now = device.nextPollNanoseconds
        #expect(Self.run(imu, &device, &now, milliseconds: 100) > 5)
    }

    @Test func vanishedChipBacksOffExponentiallyAndReprobesUntilItReturns() {
        let imu = SimulatedIMU(board: .mpu9250)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        imu.primary.injectFault(.noAcknowledge)
        imu.magnetometer!.injectFault(.noAcknowledge)
        var faultTimes: [Int64] = []
        var t = now
        while faultTimes.count < 6 {
            t = max(t + 1_000_000, device.nextPollNanoseconds)
            imu.present(DriverHarness.noisySample(Int(t / 1_000_000)))
            _ = device.poll(nowNanoseconds: t)
            if device.status.state == .faulted, faultTimes.last != device.status.lastFaultNanoseconds {
                faultTimes.append(device.status.lastFaultNanoseconds!)
            }
        }
        let gaps = zip(faultTimes.dropFirst(), faultTimes).map { ($0 - $1) / 1_000_000 }
        #expect(gaps == [50, 100, 200, 400, 800])                        // milliseconds, doubling
        #expect(device.status.errors.probeFailures >= 1)                  // every fourth attempt re-probes
        #expect(device.status.lastFault!.message.contains("0x68") || device.status.lastFault == .probe(.nothingFound))
        imu.primary.clearFault()
        imu.magnetometer!.clearFault()
        DriverHarness.runUntilRunning(&device, from: device.nextPollNanoseconds)
        #expect(device.status.state == .running && device.status.chip?.chip == .mpu9250)
    }

    @Test func stuckOutputRegistersFaultAndRecover() {
        let imu = SimulatedIMU(board: .icm20948)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        Self.run(imu, &device, &now, milliseconds: 100)
        imu.primary.outputsStuck = true
        Self.run(imu, &device, &now, milliseconds: 600, from: 100)
        #expect(device.status.errors.stuckData >= 1)
        #expect(device.status.lastFault == .stuckData(samples: 101))
        imu.primary.outputsStuck = false
        let readings = Self.run(imu, &device, &now, milliseconds: 300, from: 300)
        #expect(device.status.state == .running && readings > 30)
        #expect(device.status.initializations >= 2)
    }

    @Test func chipResetMidStreamIsDetectedByTheDataTimeoutAndReinitialized() {
        let imu = SimulatedIMU(board: .senseHAT)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        Self.run(imu, &device, &now, milliseconds: 50)
        imu.primary.powerOn()                                            // brown-out: back to power-down defaults
        Self.run(imu, &device, &now, milliseconds: 400, from: 10)
        #expect(device.status.errors.dataTimeouts == 1)
        #expect(device.status.lastFault!.message.contains("no new sample"))
        #expect(device.status.initializations == 2 && device.status.state == .running)
        #expect(Self.run(imu, &device, &now, milliseconds: 100, from: 90) > 10)
    }

    @Test func anotherChipAtTheAddressAfterAFaultIsReprobed() {
        let bus = SimulatedI2CBus()
        let imu = SimulatedIMU(board: .berryIMUv3, bus: bus)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        imu.primary.injectFault(.io)
        Self.run(imu, &device, &now, milliseconds: 15)
        #expect(device.status.state == .faulted)
        bus.detach(address: 0x6A)
        bus.attach(SimulatedChip(model: .lsm9ds1AccelGyro, address: 0x6A))   // board swapped while faulted
        DriverHarness.runUntilRunning(&device, from: device.nextPollNanoseconds)
        #expect(device.status.errors.wrongChip == 1)
        #expect(device.status.chip?.chip == .lsm9ds1)
    }

    @Test func ebusyWhileRunningIsCountedAndExplained() {
        let imu = SimulatedIMU(board: .senseHAT)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        imu.primary.injectFault(.busy)
        Self.run(imu, &device, &now, milliseconds: 15)
        #expect(device.status.errors[.busy] == 3)
        #expect(device.status.lastFault == .bus(.busy(address: 0x6A)))
        #expect(device.status.lastFault!.message.contains("kernel driver owns 0x6a"))
    }

    @Test func mountingRotatesEveryVectorOfTheSample() throws {
        let imu = SimulatedIMU(board: .berryIMUv3)
        var configuration = IMUDeviceConfiguration()
        configuration.mounting = try MountingOrientation(parsing: "x-right,z-down")
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, configuration: configuration, now: &now)
        // Sensor upside down with its x to the vehicle's right: x → right (0,−1,0), z → down (0,0,−1),
        // y = z × x → backward (−1,0,0); so sensor (a, b, c) → vehicle (−b, −a, −c).
        let truth = DriverHarness.sample(gyro: Vector3(0.1, 0.2, 0.3), accel: Vector3(0, 0, -9.80665),
                                         field: Vector3(20, 5, 40))
        let r = try #require(DriverHarness.readOnce(imu, &device, truth, at: &now))
        #expect(DriverHarness.close(r.sample.gyroRadiansPerSecond, Vector3(-0.2, -0.1, -0.3), within: 0.0013))
        #expect(DriverHarness.close(r.sample.accelerationMetersPerSecondSquared, Vector3(0, 0, 9.80665), within: 0.002))
        #expect(DriverHarness.close(r.sample.magneticFieldMicrotesla, Vector3(-5, -20, -40), within: 0.01))
    }

    @Test func timestampIsTheMidpointBetweenTheEmptyPollAndThePollThatSawData() {
        let imu = SimulatedIMU(board: .berryIMUv3)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        let t0 = now + 2_000_000
        #expect(device.poll(nowNanoseconds: t0) == nil)
        imu.present(DriverHarness.noisySample(1))
        let r = device.poll(nowNanoseconds: t0 + 2_000_000)
        #expect(r?.sample.timestampNanoseconds == t0 + 1_000_000)
    }
}
