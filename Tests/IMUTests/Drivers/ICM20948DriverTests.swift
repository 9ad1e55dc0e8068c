import IMU
@testable import Simulation
import Testing

/// ICM-20948 + AK09916 (bypass mode) through the register-level simulated twin.
@Suite struct ICM20948DriverTests {
    let accelLSBPerG = 8192.0       // ±4 g
    let gyroLSBPerDPS = 16.4        // ±2000 dps
    let magMicroteslaPerLSB = 0.15

    @Test func initWritesTheDocumentedSequenceAcrossBanks() {
        let imu = SimulatedIMU(board: .icm20948)
        #expect(imu.bus.chip(at: 0x0C) == nil)                       // AK09916 hidden until bypass is on
        var device = IMUDevice(bus: imu.bus)
        DriverHarness.runUntilRunning(&device)
        #expect(device.status.chip == IMUChipInstance(chip: .icm20948, primaryAddress: 0x68, primaryID: 0xEA,
                                                      magnetometerAddress: 0x0C))
        #expect(DriverHarness.triples(imu.bus.writeLog) == [
            [0x68, 0x7F, 0x00],             // bank 0
            [0x68, 0x06, 0x80],             // PWR_MGMT_1 reset
            [0x68, 0x06, 0x01],             // wake, auto clock
            [0x68, 0x07, 0x00],             // PWR_MGMT_2 all on
            [0x68, 0x03, 0x00],             // USER_CTRL I2C master off
            [0x68, 0x0F, 0x02],             // INT_PIN_CFG BYPASS_EN
            [0x68, 0x11, 0x01],             // INT_ENABLE_1 raw data ready
            [0x68, 0x7F, 0x20],             // bank 2
            [0x68, 0x00, 0x0A],             // GYRO_SMPLRT_DIV 10
            [0x68, 0x01, 0x1F],             // GYRO_CONFIG_1 DLPF 3, 2000 dps
            [0x68, 0x10, 0x00],             // ACCEL_SMPLRT_DIV_1
            [0x68, 0x11, 0x0A],             // ACCEL_SMPLRT_DIV_2 10
            [0x68, 0x14, 0x1B],             // ACCEL_CONFIG DLPF 3, ±4 g
            [0x68, 0x7F, 0x00],             // bank 0
            [0x0C, 0x32, 0x01],             // AK09916 CNTL3 soft reset
            [0x0C, 0x31, 0x08],             // CNTL2 continuous 100 Hz
        ])
        // Bank 2 writes landed in bank 2, not on top of the bank-0 registers with the same numbers.
        #expect(imu.primary.peek(0x01, bank: 2) == 0x1F && imu.primary.peek(0x14, bank: 2) == 0x1B)
        #expect(imu.primary.peek(0x11, bank: 0) == 0x01 && imu.primary.peek(0x11, bank: 2) == 0x0A)
        #expect(abs(imu.primary.outputDataRateHertz - 102.27) < 0.01)
    }

    @Test func bigEndianAccelGyroAndLittleEndianMagnetometer() throws {
        let imu = SimulatedIMU(board: .icm20948)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        let icm = imu.primary, ak = imu.magnetometer!
        icm.poke(0x2D, [0x12, 0x34, 0xFF, 0x38, 0x20, 0x00])       // accel 0x1234, −200, 8192 (high byte first)
        icm.poke(0x33, [0x00, 0xA4, 0x80, 0x00, 0x00, 0x00])       // gyro 164, −32768, 0
        icm.poke(0x39, [0x00, 0x15])                                // temperature 21 → 21 °C
        icm.poke(0x1A, 0x01)
        ak.poke(0x10, [0x01, 0xE8, 0x03, 0xE8, 0x03, 0xE8, 0x03, 0x00, 0x00])  // ST1 DRDY, 1000 ×3, TMPS, ST2
        let reading = device.poll(nowNanoseconds: now + 10_000_000)
        let r = try #require(reading)
        let g = DriverHarness.g, rad = DriverHarness.radiansPerDegree
        #expect(DriverHarness.close(r.sample.accelerationMetersPerSecondSquared,
                                    Vector3(4660 / accelLSBPerG * g, -200 / accelLSBPerG * g, 1 * g), within: 1e-12))
        #expect(DriverHarness.close(r.sample.gyroRadiansPerSecond,
                                    Vector3(10 * rad, -32768 / gyroLSBPerDPS * rad, 0), within: 1e-12))
        #expect(abs(r.sample.temperatureCelsius! - 21) < 1e-9)
        // AK09916 → ICM axes: (mx, −my, −mz).
        #expect(DriverHarness.close(r.sample.magneticFieldMicrotesla, Vector3(150, -150, -150), within: 1e-9))
        #expect(ak.peek(0x10) & 0x01 == 0)                          // reading ST2 ended the cycle
    }

    @Test func fieldAlongEachBoardAxisComesBackOnThatAxis() {
        let imu = SimulatedIMU(board: .icm20948)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        for field in [Vector3(30, 0, 0), Vector3(0, 30, 0), Vector3(0, 0, 30)] {
            let r = DriverHarness.readOnce(imu, &device, DriverHarness.sample(field: field), at: &now)
            #expect(DriverHarness.close(r?.sample.magneticFieldMicrotesla, field, within: 0.075))
        }
    }

    @Test func magneticOverflowDropsTheFieldAndIsCounted() {
        let imu = SimulatedIMU(board: .icm20948)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        imu.magnetometer!.magneticOverflow = true
        let r = DriverHarness.readOnce(imu, &device, DriverHarness.sample(field: Vector3(1, 2, 3)), at: &now)
        #expect(r != nil && r?.sample.magneticFieldMicrotesla == nil && r?.magnetometerOverflow == true)
        #expect(device.status.errors.magnetometerOverflows == 1)
    }

    @Test func probeFindsAnICMLeftInBankTwoAndInitStartsFromBankZero() {
        let imu = SimulatedIMU(board: .icm20948)
        imu.primary.busWrite(0x7F, 0x20)                              // a previous program left bank 2 selected
        var device = IMUDevice(bus: imu.bus)
        DriverHarness.runUntilRunning(&device)
        #expect(device.status.chip?.chip == .icm20948)
        let report = device.lastProbe!
        #expect((0..<report.count).contains { report[$0].register == 0x7F && report[$0].outcome == .wrote(0x00) })
    }

    @Test func aGlitchIntoBankTwoWhileRunningIsRecoveredByReinit() {
        let imu = SimulatedIMU(board: .icm20948)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        imu.primary.busWrite(0x7F, 0x20)                              // status register now reads from bank 2
        var samples = 0
        for i in 0..<200 {
            now += 5_000_000
            imu.present(DriverHarness.noisySample(i))
            if device.poll(nowNanoseconds: now) != nil { samples += 1 }
        }
        #expect(device.status.errors.dataTimeouts == 1)
        #expect(device.status.errors.wrongChip == 0)                 // re-init selected bank 0 before WHO_AM_I
        #expect(device.status.initializations == 2)
        #expect(device.status.state == .running && samples > 100)
    }
}
