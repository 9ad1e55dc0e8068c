import IMU
@testable import Simulation
import Testing

/// LSM6DSL + LIS3MDL (BerryIMU v3 / BerryGPS-IMU v4) through the register-level simulated twin.
@Suite struct LSM6DSLDriverTests {
    // Datasheet sensitivities (docs/hardware.md §1.2.2, §1.2.3), written here independently of the driver.
    let gyroDPSPerLSB = 0.070          // ±2000 dps
    let accelGPerLSB = 0.122e-3        // ±4 g
    let magGaussPerLSB = 1 / 6842.0    // ±4 gauss

    @Test func initWritesTheDocumentedSequenceWithResetDelays() {
        let imu = SimulatedIMU(board: .berryIMUv3)
        var device = IMUDevice(bus: imu.bus)
        _ = device.poll(nowNanoseconds: 0)
        // Probe found the chip, init wrote SW_RESET and now waits 10 ms before touching it again.
        #expect(device.status.chip == IMUChipInstance(chip: .lsm6dslWithLIS3MDL, primaryAddress: 0x6A, primaryID: 0x6A,
                                                      magnetometerAddress: 0x1C, magnetometerID: 0x3D))
        #expect(DriverHarness.triples(imu.bus.writeLog) == [[0x6A, 0x12, 0x01]])
        #expect(device.nextPollNanoseconds >= 10_000_000)
        _ = device.poll(nowNanoseconds: 5_000_000)                 // too early: nothing happens
        #expect(imu.bus.writeLog.count == 1)
        DriverHarness.runUntilRunning(&device, from: device.nextPollNanoseconds)
        #expect(DriverHarness.triples(imu.bus.writeLog) == [
            [0x6A, 0x12, 0x01],             // CTRL3_C SW_RESET
            [0x6A, 0x12, 0x44],             // CTRL3_C BDU + IF_INC
            [0x6A, 0x10, 0x48],             // CTRL1_XL 104 Hz, ±4 g
            [0x6A, 0x11, 0x4C],             // CTRL2_G 104 Hz, ±2000 dps
            [0x1C, 0x21, 0x0C],             // CTRL_REG2 REBOOT | SOFT_RST
            [0x1C, 0x20, 0x7C],             // CTRL_REG1 UHP, 80 Hz
            [0x1C, 0x21, 0x00],             // CTRL_REG2 ±4 gauss
            [0x1C, 0x23, 0x0C],             // CTRL_REG4 Z UHP
            [0x1C, 0x24, 0x40],             // CTRL_REG5 BDU
            [0x1C, 0x22, 0x00],             // CTRL_REG3 continuous
        ])
        #expect(imu.primary.outputDataRateHertz == 104)
        #expect(imu.magnetometer!.outputDataRateHertz == 80)
    }

    @Test func rawRegistersScaleToSIWithLittleEndianBytes() throws {
        let imu = SimulatedIMU(board: .berryIMUv3)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        let ag = imu.primary, mag = imu.magnetometer!
        ag.poke(0x20, [0x00, 0x02])                                 // temperature +512 → 27 °C
        ag.poke(0x22, [0x34, 0x12, 0x18, 0xFC, 0xFF, 0x7F])        // gyro 0x1234, −1000, 32767 (low byte first)
        ag.poke(0x28, [0x00, 0x80, 0x01, 0x00, 0x08, 0x20])        // accel −32768, 1, 8200
        ag.poke(0x1E, 0x03)                                         // XLDA | GDA
        mag.poke(0x28, [0xBA, 0x1A, 0xA3, 0xF2, 0x00, 0x00])       // 6842, −3421, 0
        mag.poke(0x27, 0x08)                                        // ZYXDA
        let reading = device.poll(nowNanoseconds: now + 10_000_000)
        let r = try #require(reading)
        let rad = DriverHarness.radiansPerDegree, g = DriverHarness.g
        #expect(DriverHarness.close(r.sample.gyroRadiansPerSecond,
                                    Vector3(4660 * gyroDPSPerLSB * rad, -1000 * gyroDPSPerLSB * rad, 32767 * gyroDPSPerLSB * rad),
                                    within: 1e-12))
        #expect(DriverHarness.close(r.sample.accelerationMetersPerSecondSquared,
                                    Vector3(-32768 * accelGPerLSB * g, 1 * accelGPerLSB * g, 8200 * accelGPerLSB * g),
                                    within: 1e-12))
        #expect(DriverHarness.close(r.sample.magneticFieldMicrotesla, Vector3(100, -50, 0), within: 1e-9))
        #expect(r.sample.temperatureCelsius == 27)
    }

    @Test func dataReadyStatusGatesTheBurstAndTheMagnetometer() {
        let imu = SimulatedIMU(board: .berryIMUv3)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        let bursts = imu.bus.blockReadCount
        imu.primary.poke(0x1E, 0x01)                                // accel ready, gyro not
        #expect(device.poll(nowNanoseconds: now + 2_000_000) == nil)
        #expect(imu.bus.blockReadCount == bursts)                   // status byte only, no burst
        imu.primary.poke(0x1E, 0x03)
        imu.magnetometer!.poke(0x27, 0x00)                          // no new field
        let r = device.poll(nowNanoseconds: now + 4_000_000)
        #expect(r != nil && r?.sample.magneticFieldMicrotesla == nil)
        #expect(imu.primary.peek(0x1E) & 0x03 == 0)                 // the burst cleared XLDA/GDA
        #expect(device.poll(nowNanoseconds: now + 6_000_000) == nil)
    }

    @Test func magnetometerIsReadWithTheAutoIncrementFlag() {
        // Without bit 7 the LIS3MDL repeats one register; the driver's 0xA7 burst must see distinct bytes.
        let imu = SimulatedIMU(board: .berryIMUv3)
        imu.magnetometer!.poke(0x27, [0x08, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06])
        let plain = try? imu.bus.readBlock(address: 0x1C, register: 0x27, count: 3)
        #expect(plain == I2CBlock([0x08, 0x08, 0x08]))
        let flagged = try? imu.bus.readBlock(address: 0x1C, register: 0xA7, count: 3)
        #expect(flagged == I2CBlock([0x08, 0x01, 0x02]))
    }

    @Test func boardMagnetometerAlignmentIsConfigurable() throws {
        // A board whose LIS3MDL is turned 180° about z relative to the LSM6DSL: chip = (−x, −y, z).
        let relation = try #require(IMUAxisRemap(parsing: "-x,-y,z"))
        let imu = SimulatedIMU(board: .berryIMUv3)
        imu.magnetometer!.hostToChipAxes = relation
        var configuration = IMUDeviceConfiguration()
        configuration.lis3mdlAxisRemap = relation.inverse
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, configuration: configuration, now: &now)
        let field = Vector3(20, -5, -40)
        let r = DriverHarness.readOnce(imu, &device, DriverHarness.sample(field: field), at: &now)
        #expect(DriverHarness.close(r?.sample.magneticFieldMicrotesla, field, within: 0.5 * 100 / 6842))
        // With the default (identity) alignment the same board reads x and y reversed.
        let imu2 = SimulatedIMU(board: .berryIMUv3)
        imu2.magnetometer!.hostToChipAxes = relation
        var now2: Int64 = 0
        var plain = DriverHarness.runningDevice(imu2, now: &now2)
        let r2 = DriverHarness.readOnce(imu2, &plain, DriverHarness.sample(field: field), at: &now2)
        #expect(DriverHarness.close(r2?.sample.magneticFieldMicrotesla, Vector3(-20, 5, -40), within: 0.01))
    }
}
