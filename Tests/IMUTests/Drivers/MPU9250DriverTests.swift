import IMU
@testable import Simulation
import Testing

/// MPU-9250 + AK8963 (bypass mode, fuse-ROM sensitivity adjustment) through the simulated twin.
@Suite struct MPU9250DriverTests {
    @Test func initWritesTheDocumentedSequenceAndWaitsOutTheReset() {
        let imu = SimulatedIMU(board: .mpu9250)
        var device = IMUDevice(bus: imu.bus)
        _ = device.poll(nowNanoseconds: 0)
        #expect(DriverHarness.triples(imu.bus.writeLog) == [[0x68, 0x6B, 0x80]])
        #expect(device.nextPollNanoseconds == 100_000_000)          // 100 ms after H_RESET
        DriverHarness.runUntilRunning(&device, from: device.nextPollNanoseconds)
        #expect(DriverHarness.triples(imu.bus.writeLog) == [
            [0x68, 0x6B, 0x80],             // PWR_MGMT_1 H_RESET
            [0x68, 0x6B, 0x01],             // wake, auto clock
            [0x68, 0x6C, 0x00],             // PWR_MGMT_2 all on
            [0x68, 0x1A, 0x03],             // CONFIG gyro DLPF 41 Hz
            [0x68, 0x19, 0x09],             // SMPLRT_DIV 100 Hz
            [0x68, 0x1B, 0x18],             // GYRO_CONFIG ±2000 dps
            [0x68, 0x1C, 0x08],             // ACCEL_CONFIG ±4 g
            [0x68, 0x1D, 0x03],             // ACCEL_CONFIG2 DLPF ≈45 Hz
            [0x68, 0x6A, 0x00],             // USER_CTRL I2C master off
            [0x68, 0x37, 0x02],             // INT_PIN_CFG BYPASS_EN
            [0x68, 0x38, 0x01],             // INT_ENABLE raw ready
            [0x0C, 0x0A, 0x00],             // AK8963 power down
            [0x0C, 0x0A, 0x0F],             // fuse ROM access (ASA read here)
            [0x0C, 0x0A, 0x00],             // power down
            [0x0C, 0x0A, 0x16],             // 16-bit, continuous mode 2 (100 Hz)
        ])
        #expect(imu.primary.outputDataRateHertz == 100 && imu.magnetometer!.outputDataRateHertz == 100)
    }

    @Test func bigEndianScalingAndFuseROMAdjustedMagnetometer() throws {
        let imu = SimulatedIMU(board: .mpu9250)
        imu.magnetometer!.fuseROM = [176, 179, 165]                 // ASA as a real part reports them
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        let mpu = imu.primary, ak = imu.magnetometer!
        mpu.poke(0x3A, [0x01,                                      // INT_STATUS raw ready
                        0x20, 0x00, 0xE0, 0x00, 0x00, 0x01,        // accel 8192, −8192, 1 (high byte first)
                        0x0D, 0x0B,                                // temperature 3339
                        0x00, 0xA4, 0xFF, 0x5C, 0x7F, 0xFF])       // gyro 164, −164, 32767
        ak.poke(0x02, [0x01, 0xE8, 0x03, 0xE8, 0x03, 0xE8, 0x03, 0x10])   // ST1, HX/HY/HZ = 1000, ST2
        let reading = device.poll(nowNanoseconds: now + 10_000_000)
        let r = try #require(reading)
        let g = DriverHarness.g, rad = DriverHarness.radiansPerDegree
        #expect(DriverHarness.close(r.sample.accelerationMetersPerSecondSquared, Vector3(g, -g, g / 8192), within: 1e-12))
        #expect(DriverHarness.close(r.sample.gyroRadiansPerSecond,
                                    Vector3(10 * rad, -10 * rad, 32767 / 16.4 * rad), within: 1e-12))
        #expect(abs(r.sample.temperatureCelsius! - (3339 / 333.87 + 21)) < 1e-9)
        // H·((ASA − 128)/256 + 1)·0.15 µT per AK8963 axis; AK8963 → MPU axes (my, mx, −mz).
        let sx = 0.15 * (Double(176 - 128) / 256 + 1), sy = 0.15 * (Double(179 - 128) / 256 + 1)
        let sz = 0.15 * (Double(165 - 128) / 256 + 1)
        #expect(DriverHarness.close(r.sample.magneticFieldMicrotesla, Vector3(1000 * sy, 1000 * sx, -1000 * sz),
                                    within: 1e-9))
    }

    @Test func fieldAlongEachBoardAxisComesBackOnThatAxis() {
        let imu = SimulatedIMU(board: .mpu9250)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        for field in [Vector3(30, 0, 0), Vector3(0, 30, 0), Vector3(0, 0, 30)] {
            let r = DriverHarness.readOnce(imu, &device, DriverHarness.sample(field: field), at: &now)
            #expect(DriverHarness.close(r?.sample.magneticFieldMicrotesla, field, within: 0.1))
        }
        // A field along board +x (the AK8963's y axis) lands in the AK's HY register.
        _ = DriverHarness.readOnce(imu, &device, DriverHarness.sample(field: Vector3(30, 0, 0)), at: &now)
        let ak = imu.magnetometer!
        #expect(ak.peek(0x03) == 0 && ak.peek(0x04) == 0 && (ak.peek(0x05) != 0 || ak.peek(0x06) != 0))
    }

    @Test func statusByteGatesTheSample() {
        let imu = SimulatedIMU(board: .mpu9250)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        #expect(device.poll(nowNanoseconds: now + 2_000_000) == nil)            // INT_STATUS clear
        imu.present(DriverHarness.sample(field: Vector3(1, 2, 3)))
        #expect(imu.primary.peek(0x3A) == 0x01)
        #expect(device.poll(nowNanoseconds: now + 4_000_000) != nil)
        #expect(imu.primary.peek(0x3A) == 0x00)                                 // cleared by the read
        #expect(device.poll(nowNanoseconds: now + 6_000_000) == nil)
    }

    @Test func mpu9255UsesItsOwnWhoAmI() {
        let bus = SimulatedI2CBus()
        let mpu = SimulatedChip(model: .mpu9250(whoAmI: 0x73), address: 0x69)
        let ak = SimulatedChip(model: .ak8963, address: 0x0C)
        ak.bypassHost = mpu
        bus.attach(mpu)
        bus.attach(ak)
        var device = IMUDevice(bus: bus)
        DriverHarness.runUntilRunning(&device)
        #expect(device.status.chip == IMUChipInstance(chip: .mpu9250, primaryAddress: 0x69, primaryID: 0x73,
                                                      magnetometerAddress: 0x0C))
        #expect(device.status.state == .running)
    }
}
