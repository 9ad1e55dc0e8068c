/// What one probe of the bus saw: every transfer (address, register, value or error, recognized part),
/// and either the chip found or the reason none was. Fixed capacity, no heap.
public struct IMUProbeReport: Sendable {
    /// One transfer of the probe.
    public struct Observation: Sendable, Equatable {
        /// What a transfer returned.
        public enum Outcome: Sendable, Equatable {
            case read(UInt8)
            case wrote(UInt8)
            case failed(I2CError)
        }
        public var address: UInt8
        public var register: UInt8
        public var outcome: Outcome
        /// The part the value identifies, when it identifies one.
        public var part: IMUPart?
    }

    /// Maximum number of transfers a probe makes.
    public static let capacity = 24
    private var storage: InlineArray<24, Observation> =
        .init(repeating: Observation(address: 0, register: 0, outcome: .read(0), part: nil))
    /// Number of recorded transfers.
    public private(set) var count = 0
    /// The IMU chosen, if any.
    public var found: IMUChipInstance?
    /// Why none was chosen (nil when `found` is set).
    public var failure: IMUProbeFailure?

    public init() {}

    /// Transfer `index` (0 ..< count).
    public subscript(index: Int) -> Observation { storage[index] }

    /// Reads a register and records it; nil on any error.
    mutating func read<Bus: I2CBus>(_ bus: inout Bus, _ address: UInt8, _ register: UInt8) -> UInt8? {
        do throws(I2CError) {
            let value = try bus.readByte(address: address, register: register)
            record(Observation(address: address, register: register, outcome: .read(value), part: nil))
            return value
        } catch {
            record(Observation(address: address, register: register, outcome: .failed(error), part: nil))
            return nil
        }
    }

    /// Writes a register and records it; false on any error.
    mutating func write<Bus: I2CBus>(_ bus: inout Bus, _ address: UInt8, _ register: UInt8, _ value: UInt8) -> Bool {
        do throws(I2CError) {
            try bus.writeByte(address: address, register: register, value: value)
            record(Observation(address: address, register: register, outcome: .wrote(value), part: nil))
            return true
        } catch {
            record(Observation(address: address, register: register, outcome: .failed(error), part: nil))
            return false
        }
    }

    /// Marks the latest read of `register` at `address` as identifying `part`.
    mutating func recognize(_ part: IMUPart?, address: UInt8, register: UInt8, id: UInt8) {
        var i = count - 1
        while i >= 0 {
            if storage[i].address == address, storage[i].register == register, storage[i].outcome == .read(id) {
                storage[i].part = part
                return
            }
            i -= 1
        }
    }

    private mutating func record(_ observation: Observation) {
        guard count < IMUProbeReport.capacity else { return }
        storage[count] = observation
        count += 1
    }

    /// The first supported chip in probe order whose magnetometer answered, with its addresses.
    func chooseChip() -> IMUChipInstance? {
        var i = 0
        while i < count {
            let o = storage[i]
            i += 1
            guard let part = o.part, case .read(let id) = o.outcome,
                  let chip = IMUChipTable.chip(identifiedBy: part) else { continue }
            switch chip.magnetometer {
            case .internalToChip:
                return IMUChipInstance(chip: chip, primaryAddress: o.address, primaryID: id)
            case .bypass(let address):
                return IMUChipInstance(chip: chip, primaryAddress: o.address, primaryID: id, magnetometerAddress: address)
            case .probed(let magnetometer):
                guard let m = firstObservation(of: magnetometer), case .read(let mid) = m.outcome else { continue }
                return IMUChipInstance(chip: chip, primaryAddress: o.address, primaryID: id,
                                       magnetometerAddress: m.address, magnetometerID: mid)
            }
        }
        return nil
    }

    private func firstObservation(of part: IMUPart) -> Observation? {
        var i = 0
        while i < count {
            if storage[i].part == part { return storage[i] }
            i += 1
        }
        return nil
    }

    /// The reason no supported IMU was chosen, most specific first.
    func explainFailure() -> IMUProbeFailure {
        var i = 0
        while i < count {      // a supported accel/gyro found: its magnetometer is what is missing
            if let part = storage[i].part, IMUChipTable.chip(identifiedBy: part) != nil {
                return .magnetometerMissing(part, accelGyroAddress: storage[i].address)
            }
            i += 1
        }
        i = 0
        while i < count {
            if let part = storage[i].part, part.role == .sixAxis, case .read(let id) = storage[i].outcome {
                return .noMagnetometer(part, address: storage[i].address, id: id)
            }
            i += 1
        }
        i = 0
        while i < count {
            if case .failed(.busy(let a)) = storage[i].outcome { return .busy(address: a) }
            i += 1
        }
        i = 0
        while i < count {
            if let part = storage[i].part, part.role == .unsupported || part.role == .sixAxis,
               case .read(let id) = storage[i].outcome {
                return .unsupported(part, address: storage[i].address, id: id)
            }
            i += 1
        }
        i = 0
        while i < count {
            if case .failed(let e) = storage[i].outcome, e.kind != .noAcknowledge { return .bus(e) }
            i += 1
        }
        i = 0
        while i < count {
            let o = storage[i]
            if o.part == nil, case .read(let v) = o.outcome, IMUProbe.isPrimaryAddress(o.address),
               !IMUProbe.isBankSelectRegister(o.register) {
                return .unrecognized(address: o.address, register: o.register, value: v)
            }
            i += 1
        }
        return .nothingFound
    }

    /// One line per transfer, then the verdict (allocates; for `puckd imu probe`).
    public var lines: [String] {
        var out: [String] = []
        var i = 0
        while i < count {
            let o = storage[i]
            var line = "  \(I2CHex.byte(o.address)) reg \(I2CHex.byte(o.register)): "
            switch o.outcome {
            case .read(let v): line += "read \(I2CHex.byte(v))"
            case .wrote(let v): line += "wrote \(I2CHex.byte(v)) (select register bank 0)"
            case .failed(let e):
                switch e {
                case .noAcknowledge: line += "no answer (NACK)"
                default: line += "error: \(e.summary)"
                }
            }
            if let part = o.part { line += "  → \(part.name)" }
            out.append(line)
            i += 1
        }
        if let found {
            out.append("found \(found.description) (\(found.chip.boards))")
        } else if let failure {
            out.append("no supported IMU: \(failure.message)")
        }
        return out
    }
}
