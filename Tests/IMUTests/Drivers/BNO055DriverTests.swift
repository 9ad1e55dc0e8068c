import IMU
@testable import Simulation
import Testing

/// BNO055 (NDOF fusion mode) through the register-level simulated twin.
@Suite struct BNO055DriverTests {
    @Test func initResetsWaitsForTheChipAndEntersNDOF() {
        let imu = SimulatedIMU(board: .bno055)
        var device = IMUDevice(bus: imu.bus)
        let end = DriverHarness.runUntilRunning(&device)
        #expect(DriverHarness.triples(imu.bus.writeLog) == [
            [0x28, 0x07, 0x00],             // PAGE_ID 0
            [0x28, 0x3D, 0x00],             // OPR_MODE CONFIG
            [0x28, 0x3F, 0x20],             // SYS_TRIGGER RST_SYS
            [0x28, 0x3E, 0x00],             // PWR_MODE normal
            [0x28, 0x07, 0x00],             // PAGE_ID 0
            [0x28, 0x3F, 0x00],             // SYS_TRIGGER internal oscillator
            [0x28, 0x3B, 0x00],             // UNIT_SEL m/s², dps, degrees, °C (only writable in CONFIG)
            [0x28, 0x3D, 0x0C],             // OPR_MODE NDOF
        ])
        #expect(imu.primary.peek(0x3B) == 0x00)                     // the write was accepted in CONFIG mode
        #expect(end >= 25_000_000 + 650_000_000 + 10_000_000 + 20_000_000)   // mode switches + boot time
        #expect(device.status.errors[.noAcknowledge] == 0)           // NACKs while booting are expected, not errors
        #expect(imu.primary.transferCount > 12)                      // it polled CHIP_ID through the NACKs
    }

    @Test func registersScaleToSIAndFusionOutput() throws {
        let imu = SimulatedIMU(board: .bno055)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        let chip = imu.primary
        chip.poke(0x08, [0xD5, 0x03, 0x00, 0x00, 0x9C, 0xFF])      // accel 981, 0, −100 (1 m/s² = 100 LSB)
        chip.poke(0x0E, [0x40, 0x01, 0x00, 0x00, 0x80, 0xFD])      // mag 320, 0, −640 (1 µT = 16 LSB)
        chip.poke(0x14, [0x10, 0x00, 0xF0, 0xFF, 0x00, 0x00])      // gyro 16, −16, 0 (1 dps = 16 LSB)
        chip.poke(0x1A, [0xA0, 0x05, 0x10, 0x00, 0xF0, 0xFF])      // heading 1440, roll 16, pitch −16
        chip.poke(0x20, [0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0xC0])  // w 16384, z −16384
        chip.poke(0x34, [0xE7, 0xE4])                               // −25 °C, calib 3/2/1/0
        let reading = device.poll(nowNanoseconds: now + 10_000_000)
        let r = try #require(reading)
        let rad = DriverHarness.radiansPerDegree
        #expect(DriverHarness.close(r.sample.accelerationMetersPerSecondSquared, Vector3(9.81, 0, -1), within: 1e-12))
        #expect(DriverHarness.close(r.sample.magneticFieldMicrotesla, Vector3(20, 0, -40), within: 1e-12))
        #expect(DriverHarness.close(r.sample.gyroRadiansPerSecond, Vector3(rad, -rad, 0), within: 1e-12))
        #expect(r.sample.temperatureCelsius == -25)
        let f = try #require(r.chipFusion)
        #expect(f.headingDegrees == 90 && f.rollDegrees == 1 && f.pitchDegrees == -1)
        #expect(f.quaternionW == 1 && f.quaternionX == 0 && f.quaternionY == 0 && f.quaternionZ == -1)
        #expect(f.calibration.system == 3 && f.calibration.gyroscope == 2 && f.calibration.accelerometer == 1
                && f.calibration.magnetometer == 0)
    }

    @Test func fusionOutputRoundTripsThroughTheChipRegisters() throws {
        let imu = SimulatedIMU(board: .bno055)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        let s = 0.5.squareRoot()
        let truth = BNO055Fusion(headingDegrees: 271.25, rollDegrees: -3.5, pitchDegrees: 12.0625, quaternionW: s,
                                 quaternionX: 0, quaternionY: 0, quaternionZ: -s,
                                 calibration: BNO055CalibrationStatus(system: 3, gyroscope: 3, accelerometer: 2, magnetometer: 3))
        let reading = DriverHarness.readOnce(imu, &device, DriverHarness.sample(field: Vector3(20, 1, -40)),
                                             fusion: truth, at: &now)
        let f = try #require(reading?.chipFusion)
        #expect(f.headingDegrees == 271.25 && f.rollDegrees == -3.5 && f.pitchDegrees == 12.0625)
        #expect(abs(f.quaternionW - s) <= 0.5 / 16384 && abs(f.quaternionZ + s) <= 0.5 / 16384)
        #expect(f.calibration == truth.calibration)
    }

    @Test func readsOnItsOwnTenMillisecondTimer() {
        let imu = SimulatedIMU(board: .bno055)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, now: &now)
        var readings = 0
        let bursts = imu.bus.blockReadCount
        for i in 1...100 {                                           // 200 ms of polls every 2 ms
            imu.present(DriverHarness.noisySample(i))
            if device.poll(nowNanoseconds: now + Int64(i) * 2_000_000) != nil { readings += 1 }
        }
        #expect(readings == 21)                                      // at 2 ms, then every 10 ms up to 200 ms
        #expect(imu.bus.blockReadCount - bursts == 42)                // 32-byte data + 2-byte tail per reading
    }
}
