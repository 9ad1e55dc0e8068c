import IMU
@testable import Simulation
import Testing

/// The bus probe: the right chip for every WHO_AM_I, the documented order, and clear reasons.
@Suite struct IMUProbeTests {
    struct Expected: Sendable, CustomStringConvertible {
        var board: SimulatedIMUBoard
        var instance: IMUChipInstance
        var description: String { "\(board)" }
    }

    static let boards: [Expected] = [
        Expected(board: .berryIMUv3, instance: IMUChipInstance(chip: .lsm6dslWithLIS3MDL, primaryAddress: 0x6A, primaryID: 0x6A,
                                                               magnetometerAddress: 0x1C, magnetometerID: 0x3D)),
        Expected(board: .senseHAT, instance: IMUChipInstance(chip: .lsm9ds1, primaryAddress: 0x6A, primaryID: 0x68,
                                                             magnetometerAddress: 0x1C, magnetometerID: 0x3D)),
        Expected(board: .icm20948, instance: IMUChipInstance(chip: .icm20948, primaryAddress: 0x68, primaryID: 0xEA,
                                                             magnetometerAddress: 0x0C)),
        Expected(board: .mpu9250, instance: IMUChipInstance(chip: .mpu9250, primaryAddress: 0x68, primaryID: 0x71,
                                                            magnetometerAddress: 0x0C)),
        Expected(board: .bno055, instance: IMUChipInstance(chip: .bno055, primaryAddress: 0x28, primaryID: 0xA0)),
    ]

    @Test(arguments: boards)
    func findsEachSupportedBoardWithoutWritingToIt(_ expected: Expected) {
        let imu = SimulatedIMU(board: expected.board)
        var bus = imu.bus
        let report = IMUProbe.run(bus: &bus)
        #expect(report.found == expected.instance)
        #expect(report.failure == nil)
        #expect(imu.bus.writeLog.isEmpty)
    }

    @Test func lsm9ds1AndLSM6DSLShareAddressesAndTheMagnetometerIDSoTheAccelGyroIDDecides() {
        for (model, chip) in [(SimulatedChipModel.lsm6dsl, IMUChip.lsm6dslWithLIS3MDL), (.lsm9ds1AccelGyro, .lsm9ds1)] {
            let bus = SimulatedI2CBus(chips: [SimulatedChip(model: model, address: 0x6A),
                                              SimulatedChip(model: .lis3mdl, address: 0x1C)])
            var b = bus
            let report = IMUProbe.run(bus: &b)
            #expect(report.found?.chip == chip)
            #expect(report.found?.magnetometerID == 0x3D)
        }
    }

    @Test func mpu6500IsRefusedBecauseItHasNoMagnetometer() {
        let imu = SimulatedIMU(board: .mpu6500)
        var bus = imu.bus
        let report = IMUProbe.run(bus: &bus)
        #expect(report.found == nil)
        #expect(report.failure == .noMagnetometer(.mpu6500, address: 0x68, id: 0x70))
        let message = report.failure!.message
        #expect(message.contains("0x68") && message.contains("0x70") && message.contains("no magnetometer"))
    }

    @Test func emptyBusSaysWhatToCheck() {
        var bus = SimulatedI2CBus()
        let report = IMUProbe.run(bus: &bus)
        #expect(report.failure == .nothingFound)
        #expect((0..<report.count).allSatisfy { report[$0].outcome == .failed(.noAcknowledge(address: report[$0].address)) })
        #expect(report.failure!.message.contains("raspi-config") && report.failure!.message.contains("i2cdetect"))
    }

    @Test func kernelDriverOwningTheAddressIsReportedAsEBUSYWithTheFix() {
        let imu = SimulatedIMU(board: .senseHAT)
        imu.primary.injectFault(.busy)
        imu.magnetometer!.injectFault(.busy)
        var bus = imu.bus
        let report = IMUProbe.run(bus: &bus)
        #expect(report.failure == .busy(address: 0x6A))
        let message = report.failure!.message
        #expect(message.contains("kernel driver owns 0x6a") && message.contains("unbind"))
    }

    @Test func accelGyroWithoutMagnetometerIsExplained() {
        var bus = SimulatedI2CBus(chips: [SimulatedChip(model: .lsm6dsl, address: 0x6A)])
        let report = IMUProbe.run(bus: &bus)
        #expect(report.failure == .magnetometerMissing(.lsm6dsl, accelGyroAddress: 0x6A))
        #expect(report.failure!.message.contains("0x1c"))
    }

    @Test func unknownDeviceAtAnIMUAddressIsNeitherWrittenNorMistaken() {
        // A real-time clock at 0x68 (common on GPS/RTC boards): registers hold time, not IMU IDs.
        let rtc = SimulatedChip(model: .registerFile(presets: [0x00: 0x59, 0x75: 0x00, 0x7F: 0x00]), address: 0x68)
        var bus = SimulatedI2CBus(chips: [rtc])
        let report = IMUProbe.run(bus: &bus)
        #expect(report.found == nil)
        #expect(report.failure == .unrecognized(address: 0x68, register: 0x75, value: 0x00))
        #expect(bus.writeLog.isEmpty)
    }

    @Test func recognizedButUnsupportedPartsAreNamed() {
        var bus = SimulatedI2CBus(chips: [SimulatedChip(model: .registerFile(presets: [0x0F: 0x6B]), address: 0x6A),
                                          SimulatedChip(model: .mmc5983ma, address: 0x30)])
        let report = IMUProbe.run(bus: &bus)
        #expect(report.failure == .unsupported(.ism330dhcx, address: 0x6A, id: 0x6B))
        #expect(report.failure!.message.contains("ISM330DHCX"))
    }

    @Test func probeOrderPrefersSTThenInvenSenseThenBNO055() {
        let both = SimulatedIMU(board: .berryIMUv3)
        for chip in SimulatedIMU(board: .mpu9250, bus: SimulatedI2CBus()).bus.chips { both.bus.attach(chip) }
        var bus1 = both.bus
        #expect(IMUProbe.run(bus: &bus1).found?.chip == .lsm6dslWithLIS3MDL)

        let icmAndBNO = SimulatedIMU(board: .bno055)
        for chip in SimulatedIMU(board: .icm20948, bus: SimulatedI2CBus()).bus.chips { icmAndBNO.bus.attach(chip) }
        var bus2 = icmAndBNO.bus
        #expect(IMUProbe.run(bus: &bus2).found?.chip == .icm20948)

        // A supported accel/gyro at 0x6B wins over an unsupported one at 0x6A.
        var bus3 = SimulatedI2CBus(chips: [SimulatedChip(model: .registerFile(presets: [0x0F: 0x73]), address: 0x6A),
                                           SimulatedChip(model: .lsm6dsl, address: 0x6B),
                                           SimulatedChip(model: .lis3mdl, address: 0x1E)])
        let report3 = IMUProbe.run(bus: &bus3)
        #expect(report3.found == IMUChipInstance(chip: .lsm6dslWithLIS3MDL, primaryAddress: 0x6B, primaryID: 0x6A,
                                                 magnetometerAddress: 0x1E, magnetometerID: 0x3D))
    }

    @Test func ioErrorDuringProbeIsReported() {
        let imu = SimulatedIMU(board: .berryIMUv3)
        imu.primary.injectFault(.io)
        var bus = imu.bus
        let report = IMUProbe.run(bus: &bus)
        #expect(report.failure == .bus(.io(address: 0x6A)))
        #expect(report.failure!.message.contains("EIO"))
    }

    @Test func reportListsEveryTransferAndTheVerdict() {
        let imu = SimulatedIMU(board: .berryIMUv3)
        var bus = imu.bus
        let lines = IMUProbe.run(bus: &bus).lines
        #expect(lines.contains("  0x6a reg 0x0f: read 0x6a  → LSM6DSL accel/gyro"))
        #expect(lines.contains("  0x1c reg 0x0f: read 0x3d  → LIS3MDL or LSM9DS1 magnetometer"))
        #expect(lines.contains("  0x68 reg 0x75: no answer (NACK)"))
        #expect(lines.last == "found LSM6DSL + LIS3MDL: accel/gyro 0x6a (ID 0x6a), magnetometer 0x1c (ID 0x3d) "
                + "(BerryIMU v3, BerryGPS-IMU v4)")
    }

    @Test func deviceKeepsProbingUntilAnIMUIsPluggedIn() {
        let bus = SimulatedI2CBus()
        var device = IMUDevice(bus: bus)
        _ = device.poll(nowNanoseconds: 0)
        #expect(device.status.state == .faulted && device.status.lastFault == .probe(.nothingFound))
        let later = SimulatedIMU(board: .senseHAT, bus: SimulatedI2CBus())
        for chip in later.bus.chips { bus.attach(chip) }
        DriverHarness.runUntilRunning(&device, from: device.nextPollNanoseconds)
        #expect(device.status.chip?.chip == .lsm9ds1 && device.status.errors.probeFailures == 1)
    }
}
