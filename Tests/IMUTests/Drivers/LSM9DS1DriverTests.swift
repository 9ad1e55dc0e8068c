import IMU
@testable import Simulation
import Testing

/// LSM9DS1 (Raspberry Pi Sense HAT, BerryIMU v2) through the register-level simulated twin.
@Suite struct LSM9DS1DriverTests {
    let gyroDPSPerLSB = 0.070           // ±2000 dps
    let accelGPerLSB = 0.122e-3         // ±4 g
    let magMicroteslaPerLSB = 0.014     // ±4 gauss: 0.14 mgauss/LSB

    @Test func initWritesTheDocumentedSequence() {
        let imu = SimulatedIMU(board: .senseHAT)
        var device = IMUDevice(bus: imu.bus)
        DriverHarness.runUntilRunning(&device)
        #expect(device.status.chip?.chip == .lsm9ds1)
        #expect(DriverHarness.triples(imu.bus.writeLog) == [
            [0x6A, 0x22, 0x01],             // CTRL_REG8 SW_RESET
            [0x6A, 0x22, 0x44],             // CTRL_REG8 BDU + IF_ADD_INC
            [0x6A, 0x10, 0x78],             // CTRL_REG1_G 119 Hz, 2000 dps
            [0x6A, 0x20, 0x70],             // CTRL_REG6_XL 119 Hz, ±4 g
            [0x1C, 0x21, 0x0C],             // CTRL_REG2_M REBOOT | SOFT_RST
            [0x1C, 0x20, 0xFC],             // CTRL_REG1_M temp comp, UHP, 80 Hz
            [0x1C, 0x21, 0x00],             // CTRL_REG2_M ±4 gauss
            [0x1C, 0x23, 0x0C],             // CTRL_REG4_M Z UHP
            [0x1C, 0x24, 0x40],             // CTRL_REG5_M BDU
            [0x1C, 0x22, 0x00],             // CTRL_REG3_M continuous
        ])
        #expect(imu.primary.outputDataRateHertz == 119)
    }

    @Test func rawRegistersScaleToSI() throws {
        let imu = SimulatedIMU(board: .senseHAT)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        let ag = imu.primary, mag = imu.magnetometer!
        ag.poke(0x15, [0x50, 0x00])                                  // temperature +80 → 30 °C
        ag.poke(0x18, [0xE8, 0x03, 0x00, 0x00, 0x01, 0x80])         // gyro 1000, 0, −32767
        ag.poke(0x28, [0x00, 0x00, 0x00, 0x00, 0x00, 0x20])         // accel 0, 0, 8192
        ag.poke(0x17, 0x03)
        mag.poke(0x28, [0xE8, 0x03, 0xE8, 0x03, 0xE8, 0x03])        // 1000, 1000, 1000
        mag.poke(0x27, 0x08)
        let reading = device.poll(nowNanoseconds: now + 10_000_000)
        let r = try #require(reading)
        let rad = DriverHarness.radiansPerDegree
        #expect(DriverHarness.close(r.sample.gyroRadiansPerSecond,
                                    Vector3(1000 * gyroDPSPerLSB * rad, 0, -32767 * gyroDPSPerLSB * rad), within: 1e-12))
        #expect(DriverHarness.close(r.sample.accelerationMetersPerSecondSquared,
                                    Vector3(0, 0, 8192 * accelGPerLSB * DriverHarness.g), within: 1e-12))
        // Magnetometer X is reversed relative to the accel/gyro die: board = (−mx, my, mz).
        #expect(DriverHarness.close(r.sample.magneticFieldMicrotesla,
                                    Vector3(-1000 * magMicroteslaPerLSB, 1000 * magMicroteslaPerLSB,
                                            1000 * magMicroteslaPerLSB), within: 1e-12))
        #expect(r.sample.temperatureCelsius == 30)
    }

    @Test func fieldAlongEachBoardAxisComesBackOnThatAxis() {
        let imu = SimulatedIMU(board: .senseHAT)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        for field in [Vector3(40, 0, 0), Vector3(0, 40, 0), Vector3(0, 0, -40)] {
            let r = DriverHarness.readOnce(imu, &device, DriverHarness.sample(field: field), at: &now)
            #expect(DriverHarness.close(r?.sample.magneticFieldMicrotesla, field, within: 0.007))
        }
        // North along board +x makes the die's own X register negative.
        _ = DriverHarness.readOnce(imu, &device, DriverHarness.sample(field: Vector3(40, 0, 0)), at: &now)
        #expect(Int16(bitPattern: UInt16(imu.magnetometer!.peek(0x28)) | UInt16(imu.magnetometer!.peek(0x29)) << 8) < 0)
    }

    @Test func accelerometerWaitsForBothReadyFlags() {
        let imu = SimulatedIMU(board: .senseHAT)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        imu.primary.poke(0x17, 0x02)                                 // gyro only
        let bursts = imu.bus.blockReadCount
        #expect(device.poll(nowNanoseconds: now + 1_000_000) == nil)
        #expect(imu.bus.blockReadCount == bursts + 1)               // the 9-byte head burst, no accel burst
    }
}
