import Angles
import IMU

/// Converts true physical values into a simulated chip's raw output registers: the inverse of each
/// driver, written from the datasheet facts (axis relations, sensitivities selected by the chip's
/// own full-scale bits, byte order), so a driver that writes the wrong range, reads the wrong
/// bytes or remaps the wrong way gets wrong numbers back.
enum SimulatedChipEncoder {
    static let g = 9.80665

    static func encode(_ s: IMUSample, fusion: BNO055Fusion?, into chip: SimulatedChip, updateOutputs: Bool) {
        let gyroDPS = (s.gyroRadiansPerSecond.x * Angle.degreesPerRadian, s.gyroRadiansPerSecond.y * Angle.degreesPerRadian,
                       s.gyroRadiansPerSecond.z * Angle.degreesPerRadian)
        let accelG = (s.accelerationMetersPerSecondSquared.x / g, s.accelerationMetersPerSecondSquared.y / g,
                      s.accelerationMetersPerSecondSquared.z / g)
        let temperature = s.temperatureCelsius ?? 25
        switch chip.model {
        case .lsm6dsl:
            if updateOutputs {
                // FS_XL bits 3:2: 00 ±2 g, 01 ±16 g, 10 ±4 g, 11 ±8 g (mg/LSB).
                let mgPerLSB = pick(chip.peek(0x10) >> 2 & 3, 0.061, 0.488, 0.122, 0.244)
                // FS_G bits 3:1: 000 250, 001 125, 010 500, 100 1000, 110 2000 dps (mdps/LSB).
                let mdps: Double = switch chip.peek(0x11) >> 1 & 7 {
                case 0: 8.75
                case 1: 4.375
                case 2: 17.5
                case 4: 35
                default: 70
                }
                little(chip, 0x20, (temperature - 25) * 256)
                little3(chip, 0x22, gyroDPS, 1 / (mdps / 1000))
                little3(chip, 0x28, accelG, 1 / (mgPerLSB / 1000))
            }
            chip.setBits(0x1E, 0x07)
        case .lsm9ds1AccelGyro:
            if updateOutputs {
                // FS_XL bits 4:3 of CTRL_REG6_XL: 00 ±2 g, 01 ±16 g, 10 ±4 g, 11 ±8 g.
                let mgPerLSB = pick(chip.peek(0x20) >> 3 & 3, 0.061, 0.732, 0.122, 0.244)
                // FS_G bits 4:3 of CTRL_REG1_G: 00 245, 01 500, 11 2000 dps.
                let mdps = pick(chip.peek(0x10) >> 3 & 3, 8.75, 17.5, 0, 70)
                little(chip, 0x15, (temperature - 25) * 16)
                little3(chip, 0x18, gyroDPS, mdps > 0 ? 1 / (mdps / 1000) : 0)
                little3(chip, 0x28, accelG, 1 / (mgPerLSB / 1000))
            }
            chip.setBits(0x17, 0x07)
            chip.setBits(0x27, 0x07)
        case .lis3mdl, .lsm9ds1Magnetometer:
            if let m = s.magneticFieldMicrotesla {
                if updateOutputs {
                    let gauss = magnetometerAxes(chip, m)
                    let fs = chip.peek(0x21) >> 5 & 3
                    // LIS3MDL: LSB/gauss 6842, 3421, 2281, 1711. LSM9DS1-M: mgauss/LSB 0.14, 0.29, 0.43, 0.58.
                    let lsbPerGauss = chip.model == .lis3mdl ? pick(fs, 6842, 3421, 2281, 1711)
                                                             : 1 / (pick(fs, 0.14, 0.29, 0.43, 0.58) / 1000)
                    little3(chip, 0x28, (gauss.x / 100, gauss.y / 100, gauss.z / 100), lsbPerGauss)
                }
                if chip.peek(0x27) & 0x08 != 0 { chip.setBits(0x27, 0x80) }     // ZYXOR: previous not read
                chip.setBits(0x27, 0x08)
            }
        case .icm20948:
            if updateOutputs {
                let lsbPerG = pick(chip.peek(0x14, bank: 2) >> 1 & 3, 16384, 8192, 4096, 2048)
                let lsbPerDPS = pick(chip.peek(0x01, bank: 2) >> 1 & 3, 131, 65.5, 32.8, 16.4)
                big3(chip, 0x2D, accelG, lsbPerG)
                big3(chip, 0x33, gyroDPS, lsbPerDPS)
                big(chip, 0x39, (temperature - 21) * 333.87 + 21)
            }
            chip.setBits(0x1A, 0x01)                                            // RAW_DATA_0_RDY_INT
        case .mpu9250:
            if updateOutputs {
                let lsbPerG = pick(chip.peek(0x1C) >> 3 & 3, 16384, 8192, 4096, 2048)
                let lsbPerDPS = pick(chip.peek(0x1B) >> 3 & 3, 131, 65.5, 32.8, 16.4)
                big3(chip, 0x3B, accelG, lsbPerG)
                big(chip, 0x41, (temperature - 21) * 333.87)
                big3(chip, 0x43, gyroDPS, lsbPerDPS)
            }
            chip.setBits(0x3A, 0x01)                                            // RAW_DATA_RDY_INT
        case .ak8963:
            if let m = s.magneticFieldMicrotesla {
                if updateOutputs {
                    let a = magnetometerAxes(chip, m)
                    let sixteenBit = chip.peek(0x0A) & 0x10 != 0
                    let lsb = sixteenBit ? 0.15 : 0.6
                    func adj(_ asa: UInt8) -> Double { (Double(asa) - 128) / 256 + 1 }
                    little(chip, 0x03, a.x / (lsb * adj(chip.fuseROM[0])))
                    little(chip, 0x05, a.y / (lsb * adj(chip.fuseROM[1])))
                    little(chip, 0x07, a.z / (lsb * adj(chip.fuseROM[2])))
                    chip.poke(0x09, (sixteenBit ? 0x10 : 0x00) | (chip.magneticOverflow ? 0x08 : 0x00))
                }
                chip.setBits(0x02, 0x01)                                        // DRDY
            }
        case .ak09916:
            if let m = s.magneticFieldMicrotesla {
                if updateOutputs {
                    let a = magnetometerAxes(chip, m)
                    little3(chip, 0x11, (a.x, a.y, a.z), 1 / 0.15)
                    chip.poke(0x18, chip.magneticOverflow ? 0x08 : 0x00)
                }
                chip.setBits(0x10, 0x01)
            }
        case .bno055:
            guard updateOutputs else { return }
            let units = chip.peek(0x3B)
            let accelScale = units & 0x01 == 0 ? 100.0 : 1000 / g              // m/s² or mg
            let gyroScale = units & 0x02 == 0 ? 16.0 : 900 * Angle.radiansPerDegree    // dps or rps (per dps)
            let eulerScale = units & 0x04 == 0 ? 16.0 : 900 * Angle.radiansPerDegree
            let a = s.accelerationMetersPerSecondSquared
            little3(chip, 0x08, (a.x, a.y, a.z), accelScale)
            if let m = s.magneticFieldMicrotesla { little3(chip, 0x0E, (m.x, m.y, m.z), 16) }
            little3(chip, 0x14, gyroDPS, gyroScale)
            if let f = fusion {
                little3(chip, 0x1A, (f.headingDegrees, f.rollDegrees, f.pitchDegrees), eulerScale)
                little(chip, 0x20, f.quaternionW * 16384)
                little3(chip, 0x22, (f.quaternionX, f.quaternionY, f.quaternionZ), 16384)
                chip.poke(0x35, f.calibration.rawValue)
            }
            chip.poke(0x34, UInt8(bitPattern: Int8(max(-128, min(127, temperature.rounded())))))
        case .mmc5983ma, .registerFile:
            break
        }
    }

    /// One of four values by a 2-bit register field (no array literal: allocation-free in debug builds).
    static func pick(_ field: UInt8, _ v0: Double, _ v1: Double, _ v2: Double, _ v3: Double) -> Double {
        switch field & 3 {
        case 0: v0
        case 1: v1
        case 2: v2
        default: v3
        }
    }

    /// The field in the magnetometer's own axes (µT) from the host-frame field.
    static func magnetometerAxes(_ chip: SimulatedChip, _ host: Vector3) -> Vector3 {
        switch chip.model {
        case .lsm9ds1Magnetometer: Vector3(-host.x, host.y, host.z)     // mag X reversed vs the AG die
        case .ak8963: Vector3(host.y, host.x, -host.z)                  // AK8963 x = MPU y, y = MPU x, z down
        case .ak09916: Vector3(host.x, -host.y, -host.z)                // AK09916 y, z opposite to the ICM's
        default: chip.hostToChipAxes.apply(host)
        }
    }

    /// Rounds to the nearest LSB and saturates like the chip's 16-bit output.
    static func raw(_ value: Double) -> Int16 {
        let r = value.rounded()
        if r >= 32767 { return 32767 }
        if r <= -32768 { return -32768 }
        return Int16(r)
    }

    static func little(_ chip: SimulatedChip, _ register: UInt8, _ value: Double) {
        let v = UInt16(bitPattern: raw(value))
        chip.poke(register, UInt8(v & 0xFF))
        chip.poke(register + 1, UInt8(v >> 8))
    }

    static func big(_ chip: SimulatedChip, _ register: UInt8, _ value: Double) {
        let v = UInt16(bitPattern: raw(value))
        chip.poke(register, UInt8(v >> 8))
        chip.poke(register + 1, UInt8(v & 0xFF))
    }

    static func little3(_ chip: SimulatedChip, _ register: UInt8, _ v: (Double, Double, Double), _ lsbPerUnit: Double) {
        little(chip, register, v.0 * lsbPerUnit)
        little(chip, register + 2, v.1 * lsbPerUnit)
        little(chip, register + 4, v.2 * lsbPerUnit)
    }

    static func big3(_ chip: SimulatedChip, _ register: UInt8, _ v: (Double, Double, Double), _ lsbPerUnit: Double) {
        big(chip, register, v.0 * lsbPerUnit)
        big(chip, register + 2, v.1 * lsbPerUnit)
        big(chip, register + 4, v.2 * lsbPerUnit)
    }
}
