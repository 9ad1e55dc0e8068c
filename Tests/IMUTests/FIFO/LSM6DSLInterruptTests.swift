import IMU
@testable import Simulation
import TestSupport
import Testing

/// The LSM6DSL's FIFO watermark on INT1 (docs/hardware.md §1.7.7): with `watermarkInterrupt` the
/// program sets INT1_CTRL's INT1_FTH, the twin's INT1 then follows the watermark flag, and a burst
/// read with the edge's time is timed from the edge, exactly.
@Suite struct LSM6DSLInterruptTests {
    static let period = Int64(1e9 / 104)

    static func configuration(interrupt: Bool) -> IMUDeviceConfiguration {
        var c = IMUDeviceConfiguration()
        c.burstIntervalNanoseconds = 100_000_000
        c.stuckSampleLimit = 0
        c.watermarkInterrupt = interrupt
        return c
    }

    @Test func theProgramRoutesTheWatermarkToINT1OnlyWhenAsked() throws {
        for interrupt in [false, true] {
            let imu = SimulatedIMU(board: .berryIMUv3)
            var now: Int64 = 0
            let device = DriverHarness.runningDevice(imu, configuration: Self.configuration(interrupt: interrupt), now: &now)
            #expect(imu.primary.peek(0x0D) == (interrupt ? 0x08 : 0x00), "INT1_CTRL")
            #expect(imu.primary.fifoInterruptEnabled == interrupt)
            #expect(device.routesWatermark == interrupt && device.signalsWatermark == interrupt)
        }
    }

    @Test func int1FollowsTheWatermarkAndTheEdgeTimesTheBurst() throws {
        let imu = SimulatedIMU(board: .berryIMUv3)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, configuration: Self.configuration(interrupt: true), now: &now)
        let chip = imu.primary
        var burst = IMUBurst()
        device.poll(nowNanoseconds: now, into: &burst)              // empty the FIFO
        let sample = DriverHarness.noisySample(1)
        imu.advance(toNanoseconds: now) { _ in sample }
        device.poll(nowNanoseconds: now, into: &burst)
        #expect(!chip.interrupt1High && chip.conversionsToWatermark == 11)
        // The 11th conversion from here raises INT1; the one before does not.
        let edge = try #require(imu.primaryConversionNanoseconds(ahead: 11))
        imu.advance(toNanoseconds: edge - 1) { _ in sample }
        #expect(!chip.interrupt1High && chip.conversionsToWatermark == 1)
        imu.advance(toNanoseconds: edge) { _ in sample }
        #expect(chip.interrupt1High)
        // Read 3 conversions after the edge, with the edge's time: 14 samples, the 11th at the edge.
        let read = edge + 3 * Self.period + Self.period / 3
        imu.advance(toNanoseconds: read) { _ in sample }
        device.poll(nowNanoseconds: read, into: &burst, watermarkEdgeNanoseconds: edge)
        #expect(burst.count == 14)
        #expect(burst[10].sample.timestampNanoseconds == edge)
        // The twin's period is whole nanoseconds (9 615 384), the clock's 9 615 384.6: 2 ns in 3 periods.
        #expect(abs(burst[13].sample.timestampNanoseconds - (edge + 3 * Self.period)) <= 3)
        #expect(!chip.interrupt1High, "the read took the FIFO below its watermark: INT1 falls")
        // A stale edge (before the samples in this burst) leaves the read-based times alone.
        let next = try #require(imu.primaryConversionNanoseconds(ahead: 11))
        imu.advance(toNanoseconds: next + 5_000_000) { _ in sample }
        device.poll(nowNanoseconds: next + 5_000_000, into: &burst, watermarkEdgeNanoseconds: edge)
        #expect(burst.count == 11)
        #expect(burst[10].sample.timestampNanoseconds > edge + 3 * Self.period)
    }
}
