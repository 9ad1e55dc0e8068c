/// Finds the IMU on a bus from the chip table: it reads the identification register of every part
/// the table knows (`IMUChipTable`, the magnetometers the chips need, `IMUPart.withoutDriver`), one
/// address group after the other in table order (docs/hardware.md §1.2.11):
///
/// 1. 0x6A, 0x6B register 0x0F: 0x6A LSM6DSL, 0x68 LSM9DS1, 0x6B ISM330DHCX/LSM6DSO, 0x73 LSM6DSV320X;
///    then 0x1C, 0x1E register 0x0F = 0x3D: the LIS3MDL or LSM9DS1 magnetometer (indistinguishable,
///    so the accel/gyro ID decides which board it is).
/// 2. 0x68, 0x69: plain WHO_AM_I registers first (0x75: 0x71 MPU-9250, 0x73 MPU-9255, 0x70 MPU-6500,
///    0x68 MPU-6050), then bank-0 register 0x00 = 0xEA ICM-20948. Only when REG_BANK_SEL (0x7F) reads
///    like a bank value (0x10/0x20/0x30: an ICM left in another bank) does the probe write 0x7F ← 0 and
///    read again.
/// 3. 0x28, 0x29 register 0x00 = 0xA0 BNO055; 0x30 register 0x2F = 0x30 MMC5983MA (not supported).
///
/// The first supported chip in that order whose magnetometer answers wins; every transfer is recorded
/// for `puckd imu probe`. Allocation-free after the first call (the plan is built once).
public enum IMUProbe {
    /// One address group: the parts answering at the same addresses and the registers to read there.
    struct Group {
        var address: UInt8
        var alternateAddress: UInt8?
        var parts: [IMUPart]
        /// Identification registers in reading order: those needing no bank select first.
        var registers: [UInt8]
    }

    /// Every known part in probe order: each chip's parts and magnetometer, then the parts without driver.
    static let knownParts: [IMUPart] = {
        var parts: [IMUPart] = []
        for chip in IMUChipTable.all {
            parts += chip.parts
            if case .probed(let magnetometer) = chip.magnetometer { parts.append(magnetometer) }
        }
        return parts + IMUPart.withoutDriver
    }()

    /// The probe plan: address groups in order of first appearance in `knownParts`.
    static let plan: [Group] = {
        var groups: [Group] = []
        for part in knownParts {
            if let g = groups.firstIndex(where: { $0.parts[0].sharesAddresses(with: part) }) {
                if !groups[g].parts.contains(part) { groups[g].parts.append(part) }
            } else {
                groups.append(Group(address: part.address, alternateAddress: part.alternateAddress, parts: [part],
                                    registers: []))
            }
        }
        for g in groups.indices {
            let parts = groups[g].parts
            var registers: [UInt8] = []
            for part in parts where part.bankSelectRegister == nil && !registers.contains(part.register) {
                registers.append(part.register)
            }
            for part in parts where part.bankSelectRegister != nil && !registers.contains(part.register) {
                registers.append(part.register)
            }
            groups[g].registers = registers
        }
        return groups
    }()

    /// Reads everything and picks the IMU.
    public static func run<Bus: I2CBus>(bus: inout Bus) -> IMUProbeReport {
        var report = IMUProbeReport()
        let groups = plan
        var g = 0
        while g < groups.count {
            probe(groups[g], at: groups[g].address, bus: &bus, report: &report)
            if let alternate = groups[g].alternateAddress { probe(groups[g], at: alternate, bus: &bus, report: &report) }
            g += 1
        }
        report.found = report.chooseChip()
        if report.found == nil { report.failure = report.explainFailure() }
        return report
    }

    /// Reads the group's identification registers at `address` until one names a part.
    private static func probe<Bus: I2CBus>(_ group: Group, at address: UInt8, bus: inout Bus,
                                           report: inout IMUProbeReport) {
        var first: (register: UInt8, value: UInt8)?
        var r = 0
        while r < group.registers.count {
            let register = group.registers[r]
            guard var value = report.read(&bus, address, register) else { break }
            if first == nil { first = (register, value) }
            var part = group.part(register: register, id: value)
            if part == nil, let bankSelect = group.bankSelectRegister(for: register),
               let bank = report.read(&bus, address, bankSelect), bank & 0xCF == 0, bank != 0,
               report.write(&bus, address, bankSelect, 0x00) {
                guard let again = report.read(&bus, address, register) else { break }
                value = again
                part = group.part(register: register, id: value)
            }
            if let part {
                report.recognize(part, address: address, register: register, id: value)
                return
            }
            r += 1
        }
        if let first { report.recognize(nil, address: address, register: first.register, id: first.value) }
    }

    /// "0x6a, 0x6b, 0x68, 0x69, 0x28 or 0x29": where supported chips answer (allocates; for messages).
    static var primaryAddressList: String {
        var addresses: [UInt8] = []
        for part in knownParts where part.role == .primary {
            for a in [part.address] + (part.alternateAddress.map { [$0] } ?? []) where !addresses.contains(a) {
                addresses.append(a)
            }
        }
        let text = addresses.map { I2CHex.byte($0) }
        return text.count < 2 ? text.joined() : text.dropLast().joined(separator: ", ") + " or " + text.last!
    }

    /// "LSM6DSL + LIS3MDL, LSM9DS1, …": the supported chips (allocates; for messages).
    static var supportedChipList: String { IMUChipTable.all.map(\.description).joined(separator: ", ") }

    /// True when `address` is one a supported chip's accel/gyro die answers at.
    static func isPrimaryAddress(_ address: UInt8) -> Bool {
        var i = 0
        while i < knownParts.count {
            let p = knownParts[i]
            if p.role == .primary, p.address == address || p.alternateAddress == address { return true }
            i += 1
        }
        return false
    }

    /// True when `register` is a bank-select register of some part (a read of it identifies nothing).
    static func isBankSelectRegister(_ register: UInt8) -> Bool {
        var i = 0
        while i < knownParts.count {
            if knownParts[i].bankSelectRegister == register { return true }
            i += 1
        }
        return false
    }
}

extension IMUProbe.Group {
    /// The part of this group whose `register` holds `id`.
    func part(register: UInt8, id: UInt8) -> IMUPart? {
        var i = 0
        while i < parts.count {
            if parts[i].register == register && parts[i].id == id { return parts[i] }
            i += 1
        }
        return nil
    }

    /// The bank-select register that `register`'s parts depend on, if any.
    func bankSelectRegister(for register: UInt8) -> UInt8? {
        var i = 0
        while i < parts.count {
            if parts[i].register == register, let bank = parts[i].bankSelectRegister { return bank }
            i += 1
        }
        return nil
    }
}
