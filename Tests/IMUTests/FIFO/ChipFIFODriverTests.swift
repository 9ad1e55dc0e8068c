import IMU
@testable import Simulation
import TestSupport
import Testing

/// Byte-level tests of the LSM9DS1, MPU-9250 and ICM-20948 FIFO drivers. The expected register
/// numbers and values are written here from the sources named in docs/hardware.md §1.7.3–1.7.4 (the
/// Linux inv_mpu6050 driver's inv_mpu_iio.h for the MPU-9250, ST's lsm9ds1_reg.h and SparkFun's
/// LSM9DS1 library for the LSM9DS1, TDK's register map as SparkFun's ICM-20948 library uses it), not
/// from the drivers' constants; the raw FIFO bytes are pushed into the twins' FIFOs directly.
@Suite struct ChipFIFODriverTests {
    /// A device on `board` started in FIFO mode at 10 bursts/s, and the FIFO writes of its program.
    static func start(_ board: SimulatedIMUBoard) -> (SimulatedIMU, IMUDevice<SimulatedI2CBus>, [[UInt8]], Int64) {
        let imu = SimulatedIMU(board: board)
        var now: Int64 = 0
        let device = DriverHarness.runningDevice(imu, configuration: FIFOTrial.configuration(burstHertz: 10), now: &now)
        let writes = DriverHarness.triples(imu.bus.writeLog).filter { $0[0] == imu.primary.address }
        return (imu, device, writes, now)
    }

    static func push(_ chip: SimulatedChip, _ bytes: [UInt8], times: Int = 1) {
        var sample = InlineArray<12, UInt8>(repeating: 0)
        var i = 0
        while i < 12 { sample[i] = bytes[i]; i += 1 }
        var k = 0
        while k < times { chip.fifo?.push(sample, stream: true); k += 1 }
    }

    @Test func theLSM9DS1ProgramTurnsTheFIFOOnInContinuousModeWithOneBurstAsThreshold() {
        let (imu, device, writes, _) = Self.start(.senseHAT)
        // CTRL_REG9 (0x23) FIFO_EN = bit 1; FIFO_CTRL (0x2E) FMODE continuous = 110 in bits 7:5,
        // FTH = 12 samples (119 Hz / 10 Hz, rounded up).
        #expect(Array(writes.suffix(3)) == [[0x6A, 0x2E, 0x00], [0x6A, 0x23, 0x02], [0x6A, 0x2E, 0xCC]])
        #expect(device.fifoWatermarkSamples == 12)
        #expect(imu.primary.fifoLevelSamples == 0)
    }

    @Test func theMPU9250ProgramResetsAndEnablesTheFIFOForAccelerometerAndGyroscope() {
        let (_, device, writes, _) = Self.start(.mpu9250)
        // inv_mpu_iio.h: INT_ENABLE 0x38 (FIFO overflow 0x10 | data ready 0x01), FIFO_EN 0x23
        // (BIT_ACCEL_OUT 0x08 | BITS_GYRO_OUT 0x70), USER_CTRL 0x6A (BIT_FIFO_RST 0x04, BIT_FIFO_EN 0x40).
        #expect(Array(writes.suffix(5)) == [[0x68, 0x38, 0x11], [0x68, 0x23, 0x00], [0x68, 0x6A, 0x04],
                                            [0x68, 0x23, 0x78], [0x68, 0x6A, 0x40]])
        #expect(device.fifoWatermarkSamples == 10)
    }

    @Test func theICM20948ProgramResetsAndEnablesFIFO0InBank0() {
        let (imu, _, writes, _) = Self.start(.icm20948)
        // Bank 0: FIFO_EN_2 0x67 (accel 0x10 | gyro x,y,z 0x0E), FIFO_MODE 0x69 (0 = stream), FIFO_RST
        // 0x68 (0x1F then 0x1E), USER_CTRL 0x03 (FIFO_EN 0x40), INT_ENABLE_2 0x12 (FIFO 0 overflow).
        #expect(Array(writes.suffix(8)) == [[0x68, 0x7F, 0x00], [0x68, 0x67, 0x00], [0x68, 0x69, 0x00],
                                            [0x68, 0x68, 0x1F], [0x68, 0x68, 0x1E], [0x68, 0x67, 0x1E],
                                            [0x68, 0x03, 0x40], [0x68, 0x12, 0x01]])
        #expect(imu.primary.selectedBank == 0)
    }

    /// One sample as each chip stores it: gyro x = 20 °/s, accelerometer x = 0.5 g, the other axes 0.
    @Test(arguments: [SimulatedIMUBoard.senseHAT, .mpu9250, .icm20948])
    func fifoBytesDecodeInTheChipsOrderAndByteOrder(_ board: SimulatedIMUBoard) throws {
        var (imu, device, _, now) = Self.start(board)
        let bytes: [UInt8]
        let gyroDegrees, accelG: Double
        switch board {
        case .senseHAT:
            // Little-endian, gyro set first: 286 LSB × 70 mdps = 20.02 °/s; 4096 LSB × 0.122 mg.
            bytes = [0x1E, 0x01, 0, 0, 0, 0, 0x00, 0x10, 0, 0, 0, 0]
            (gyroDegrees, accelG) = (286 * 0.070, 4096 * 0.122e-3)
        default:
            // Big-endian, accelerometer first (register order): 4096 LSB / 8192 LSB/g; 328 LSB / 16.4.
            bytes = [0x10, 0x00, 0, 0, 0, 0, 0x01, 0x48, 0, 0, 0, 0]
            (gyroDegrees, accelG) = (328 / 16.4, 0.5)
        }
        Self.push(imu.primary, bytes, times: 3)
        var burst = IMUBurst()
        now += 100_000_000
        device.poll(nowNanoseconds: now, into: &burst)
        try #require(burst.count == 3)
        let s = burst[0].sample
        #expect(abs(s.gyroRadiansPerSecond.x - gyroDegrees * .pi / 180) < 1e-9)
        #expect(abs(s.accelerationMetersPerSecondSquared.x - accelG * 9.80665) < 1e-9)
        #expect(s.gyroRadiansPerSecond.y == 0 && s.accelerationMetersPerSecondSquared.z == 0)
        #expect(imu.primary.fifoLevelBytes == 0, "the burst read the FIFO empty")
        #expect(burst[1].sample.timestampNanoseconds < burst[2].sample.timestampNanoseconds)
    }

    /// An overflow flag (LSM9DS1 OVRN, MPU-9250 INT_STATUS FIFO_OFLOW, ICM-20948 INT_STATUS_2) or, on
    /// the InvenSense parts, a count within three samples of 512 bytes (inv_mpu_ring.c) is an overrun:
    /// counted, the FIFO reset, the next burst flagged as following a gap.
    @Test(arguments: [SimulatedIMUBoard.senseHAT, .mpu9250, .icm20948])
    func anOverflowIsCountedAndTheFIFOReset(_ board: SimulatedIMUBoard) throws {
        var (imu, device, _, now) = Self.start(board)
        let bytes: [UInt8] = [1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0]
        // LSM9DS1: 33 samples into 32 levels; InvenSense: 40 samples = 480 bytes ≥ 512 − 36.
        Self.push(imu.primary, bytes, times: board == .senseHAT ? 33 : 40)
        if board == .senseHAT { #expect(imu.primary.fifoOverrun) }
        var burst = IMUBurst()
        now += 100_000_000
        device.poll(nowNanoseconds: now, into: &burst)
        #expect(burst.overrun && burst.count == 0)
        #expect(device.status.fifoOverruns == 1)
        #expect(imu.primary.fifoLevelBytes == 0 && !imu.primary.fifoOverrun, "the FIFO was reset")
        Self.push(imu.primary, bytes, times: 2)
        now += 100_000_000
        device.poll(nowNanoseconds: now, into: &burst)
        #expect(burst.count == 2 && burst.followsGap)
        if board != .senseHAT {
            // The flag alone (a count far from full) is an overrun too.
            imu.primary.setBits(board == .mpu9250 ? 0x3A : 0x1B, board == .mpu9250 ? 0x10 : 0x01)
            now += 100_000_000
            device.poll(nowNanoseconds: now, into: &burst)
            #expect(burst.overrun && device.status.fifoOverruns == 2)
        }
    }
}
