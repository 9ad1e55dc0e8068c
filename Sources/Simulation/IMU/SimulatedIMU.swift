import Configuration
import Heading
import IMU

/// The IMU boards puckd supports (and two it must refuse), as simulated chip sets.
public enum SimulatedIMUBoard: Sendable, CaseIterable {
    /// LSM6DSL 0x6A + LIS3MDL 0x1C (BerryIMU v3, BerryGPS-IMU v4).
    case berryIMUv3
    /// LSM9DS1: accel/gyro 0x6A + magnetometer 0x1C (Raspberry Pi Sense HAT).
    case senseHAT
    /// ICM-20948 at 0x68, AK09916 at 0x0C behind it (Pimoroni breakout).
    case icm20948
    /// MPU-9250 at 0x68, AK8963 at 0x0C behind it.
    case mpu9250
    /// MPU-6500 at 0x68: WHO_AM_I 0x70, no magnetometer (a common fake "MPU-9250").
    case mpu6500
    /// BNO055 at 0x28.
    case bno055
}

/// A simulated IMU board on a simulated bus: its chips, and time-driven output at each chip's own
/// configured data rate (a motion script) or sample by sample (a recorded stream).
public final class SimulatedIMU {
    public let board: SimulatedIMUBoard
    public let bus: SimulatedI2CBus
    /// The accel/gyro chip (or the BNO055).
    public let primary: SimulatedChip
    /// The magnetometer chip, when separate.
    public let magnetometer: SimulatedChip?
    private var nextPrimaryNanoseconds: Int64?
    private var nextMagnetometerNanoseconds: Int64?
    /// The parts of a nanosecond by which each chip's next conversion is later than its whole
    /// nanosecond (a chip's period, 1e9 / rate, is not whole: 8 403 361.34 ns at 119 Hz).
    private var primaryFraction = 0.0
    private var magnetometerFraction = 0.0

    public init(board: SimulatedIMUBoard, bus: SimulatedI2CBus = SimulatedI2CBus()) {
        self.board = board
        self.bus = bus
        switch board {
        case .berryIMUv3:
            primary = SimulatedChip(model: .lsm6dsl, address: 0x6A)
            magnetometer = SimulatedChip(model: .lis3mdl, address: 0x1C)
        case .senseHAT:
            primary = SimulatedChip(model: .lsm9ds1AccelGyro, address: 0x6A)
            magnetometer = SimulatedChip(model: .lsm9ds1Magnetometer, address: 0x1C)
        case .icm20948:
            primary = SimulatedChip(model: .icm20948, address: 0x68)
            magnetometer = SimulatedChip(model: .ak09916, address: 0x0C)
        case .mpu9250:
            primary = SimulatedChip(model: .mpu9250(whoAmI: 0x71), address: 0x68)
            magnetometer = SimulatedChip(model: .ak8963, address: 0x0C)
        case .mpu6500:
            primary = SimulatedChip(model: .mpu9250(whoAmI: 0x70), address: 0x68)
            magnetometer = nil
        case .bno055:
            primary = SimulatedChip(model: .bno055, address: 0x28)
            magnetometer = nil
        }
        if board == .icm20948 || board == .mpu9250 { magnetometer?.bypassHost = primary }
        bus.attach(primary)
        if let magnetometer { bus.attach(magnetometer) }
    }

    /// Presents one true sample (host accel/gyro frame, SI) to every chip now, as if each had just
    /// converted it. `fusion` feeds the BNO055's fusion registers.
    public func present(_ sample: IMUSample, fusion: BNO055Fusion? = nil) {
        primary.present(sample, fusion: fusion)
        magnetometer?.present(sample, fusion: fusion)
    }

    /// Runs the chips' conversions up to `nowNanoseconds`: each chip presents `truth(t)` at its own
    /// configured output data rate (e.g. LSM6DSL 104 Hz, LIS3MDL 80 Hz), so data-ready flags rise
    /// and fall as on hardware. Chips that are not converting present nothing.
    public func advance(toNanoseconds now: Int64, truth: (Int64) -> IMUSample) {
        advance(primary, &nextPrimaryNanoseconds, &primaryFraction, now, truth)
        if let magnetometer { advance(magnetometer, &nextMagnetometerNanoseconds, &magnetometerFraction, now, truth) }
    }

    /// When the primary chip makes its `conversions`-th next conversion (1: the next), monotonic ns;
    /// nil before it has converted once (its clock starts at the first `advance`) or when it is off.
    public func primaryConversionNanoseconds(ahead conversions: Int) -> Int64? {
        let rate = primary.outputDataRateHertz
        guard rate > 0, conversions > 0, let next = nextPrimaryNanoseconds else { return nil }
        return next + Int64((Double(conversions - 1) * 1e9 / rate + primaryFraction).rounded(.down))
    }

    /// Conversions at the chip's exact period (docs/hardware.md §1.7.5): the k-th after the first at
    /// k · 1e9 / rate, to the nanosecond below, not k times a period truncated to whole nanoseconds.
    private func advance(_ chip: SimulatedChip, _ next: inout Int64?, _ fraction: inout Double, _ now: Int64,
                         _ truth: (Int64) -> IMUSample) {
        let rate = chip.outputDataRateHertz
        guard rate > 0 else { next = nil; fraction = 0; return }
        let period = 1e9 / rate
        if next == nil { fraction = 0 }
        var t = next ?? now
        while t <= now {
            chip.present(truth(t))
            let step = period + fraction
            let whole = step.rounded(.down)
            t += Int64(whole)
            fraction = step - whole
        }
        next = t
    }
}

extension SimulatedIMUChoice {
    /// The twin's board, nil for none.
    public var board: SimulatedIMUBoard? {
        switch self {
        case .berryIMUv3: return .berryIMUv3
        case .senseHAT: return .senseHAT
        case .icm20948: return .icm20948
        case .mpu9250: return .mpu9250
        case .none: return nil
        }
    }
}
