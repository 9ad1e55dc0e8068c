/// Finds the IMU on a bus by the identification register of its accel/gyro die, in a fixed order
/// that disambiguates every supported board (docs/hardware.md §1.2.11):
///
/// 1. 0x6A, 0x6B register 0x0F: 0x68 LSM9DS1, 0x6A LSM6DSL, 0x6B ISM330DHCX/LSM6DSO, 0x73 LSM6DSV320X;
///    then 0x1C, 0x1E register 0x0F = 0x3D: the LIS3MDL or LSM9DS1 magnetometer (indistinguishable,
///    so the accel/gyro ID decides which board it is).
/// 2. 0x68, 0x69: register 0x75 first (0x71 MPU-9250, 0x73 MPU-9255, 0x70 MPU-6500, 0x68 MPU-6050);
///    else bank-0 register 0x00 = 0xEA ICM-20948. Only when REG_BANK_SEL (0x7F) reads like a bank
///    value (0x10/0x20/0x30: an ICM left in another bank) does the probe write 0x7F ← 0 and read again.
/// 3. 0x28, 0x29 register 0x00 = 0xA0 BNO055; 0x30 register 0x2F = 0x30 MMC5983MA (not supported).
///
/// The first supported chip in that order wins; every transfer is recorded for `puckd imu probe`.
/// Allocation-free.
public enum IMUProbe {
    /// Reads everything and picks the IMU.
    public static func run<Bus: I2CBus>(bus: inout Bus) -> IMUProbeReport {
        var report = IMUProbeReport()
        var stAccelGyro: (part: IMUPart, address: UInt8, id: UInt8)?
        var stMagnetometer: (address: UInt8, id: UInt8)?
        var invenSense: (part: IMUPart, address: UInt8, id: UInt8)?
        var bno: (address: UInt8, id: UInt8)?

        let pair6A: InlineArray<2, UInt8> = [0x6A, 0x6B]
        for index in 0..<2 {
            let address = pair6A[index]
            guard let id = report.read(&bus, address, 0x0F) else { continue }
            let part: IMUPart? = switch id {
            case 0x68: .lsm9ds1AccelGyro
            case 0x6A: .lsm6dsl
            case 0x6B: .ism330dhcx
            case 0x73: .lsm6dsv320x
            default: nil
            }
            report.recognize(part, address: address, register: 0x0F, id: id)
            if let part, stAccelGyro == nil || (stAccelGyro!.part.chip == nil && part.chip != nil) {
                stAccelGyro = (part, address, id)
            }
        }
        let pair1C: InlineArray<2, UInt8> = [0x1C, 0x1E]
        for index in 0..<2 {
            let address = pair1C[index]
            guard let id = report.read(&bus, address, 0x0F) else { continue }
            let part: IMUPart? = id == LIS3MDL.whoAmI ? .stMagnetometer : nil
            report.recognize(part, address: address, register: 0x0F, id: id)
            if part != nil, stMagnetometer == nil { stMagnetometer = (address, id) }
        }
        let pair68: InlineArray<2, UInt8> = [0x68, 0x69]
        for index in 0..<2 {
            let address = pair68[index]
            guard let id75 = report.read(&bus, address, 0x75) else { continue }
            let mpu: IMUPart? = switch id75 {
            case 0x71: .mpu9250
            case 0x73: .mpu9255
            case 0x70: .mpu6500
            case 0x68: .mpu6050
            default: nil
            }
            if let mpu {
                report.recognize(mpu, address: address, register: 0x75, id: id75)
                if invenSense == nil || (invenSense!.part.chip == nil && mpu.chip != nil) { invenSense = (mpu, address, id75) }
                continue
            }
            var id00 = report.read(&bus, address, 0x00)
            if let first = id00, first != ICM20948Driver.whoAmI,
               let bank = report.read(&bus, address, 0x7F), bank & 0xCF == 0, bank != 0 {
                if report.write(&bus, address, 0x7F, 0x00) { id00 = report.read(&bus, address, 0x00) }
            }
            if let id00, id00 == ICM20948Driver.whoAmI {
                report.recognize(.icm20948, address: address, register: 0x00, id: id00)
                if invenSense == nil || invenSense!.part.chip == nil { invenSense = (.icm20948, address, id00) }
            } else {
                report.recognize(nil, address: address, register: 0x75, id: id75)
            }
        }
        let pair28: InlineArray<2, UInt8> = [0x28, 0x29]
        for index in 0..<2 {
            let address = pair28[index]
            guard let id = report.read(&bus, address, 0x00) else { continue }
            let part: IMUPart? = id == BNO055Driver.chipID ? .bno055 : nil
            report.recognize(part, address: address, register: 0x00, id: id)
            if part != nil, bno == nil { bno = (address, id) }
        }
        if let id = report.read(&bus, 0x30, 0x2F) {
            report.recognize(id == 0x30 ? .mmc5983ma : nil, address: 0x30, register: 0x2F, id: id)
        }

        // Choose, in probe order.
        if let ag = stAccelGyro, let chip = ag.part.chip, let mag = stMagnetometer {
            report.found = IMUChipInstance(chip: chip, primaryAddress: ag.address, primaryID: ag.id,
                                           magnetometerAddress: mag.address, magnetometerID: mag.id)
        } else if let inv = invenSense, let chip = inv.part.chip {
            let magAddress = chip == .icm20948 ? ICM20948Driver.magnetometerAddress : MPU9250Driver.magnetometerAddress
            report.found = IMUChipInstance(chip: chip, primaryAddress: inv.address, primaryID: inv.id,
                                           magnetometerAddress: magAddress)
        } else if let bno {
            report.found = IMUChipInstance(chip: .bno055, primaryAddress: bno.address, primaryID: bno.id)
        } else {
            report.failure = report.explainFailure(stAccelGyro: stAccelGyro, invenSense: invenSense)
        }
        return report
    }
}
