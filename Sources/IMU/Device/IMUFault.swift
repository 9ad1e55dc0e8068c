/// Why an IMU stopped delivering samples. The device loop records the last fault, counts it, backs off
/// and re-initializes; `message` says what is wrong and what to do.
public enum IMUFault: Error, Equatable, Sendable {
    /// A bus transfer failed (NACK, EIO, EBUSY, …).
    case bus(I2CError)
    /// An identification register did not hold the expected value: another chip answers at the address.
    case wrongChip(address: UInt8, register: UInt8, expected: UInt8, found: UInt8)
    /// A register did not reach its expected value in time after a reset (BNO055 boot, …).
    case resetTimeout(address: UInt8, register: UInt8, expected: UInt8)
    /// The output registers returned the same bytes for this many new samples in a row.
    case stuckData(samples: Int)
    /// No new sample for this long while running (the chip reset itself or stopped converting).
    case dataTimeout(milliseconds: Int)
    /// The bus probe found no supported IMU (the reason says why).
    case probe(IMUProbeFailure)

    /// The full message (allocates; for logs, the console and the CLI).
    public var message: String {
        switch self {
        case .bus(let e):
            e.message
        case .wrongChip(let a, let r, let expected, let found):
            "the chip at \(I2CHex.byte(a)) answered \(I2CHex.byte(found)) in register \(I2CHex.byte(r)) where "
                + "\(I2CHex.byte(expected)) was expected: another chip sits there now; puckd probes the bus again"
        case .resetTimeout(let a, let r, let expected):
            "the chip at \(I2CHex.byte(a)) did not come back after its reset (register \(I2CHex.byte(r)) never "
                + "read \(I2CHex.byte(expected))): check power and, for a BNO055 on a Pi, use software I2C "
                + "(dtoverlay=i2c-gpio)"
        case .stuckData(let n):
            "the IMU returned identical output registers for \(n) samples in a row: the chip is stuck or "
                + "was reset; puckd re-initializes it"
        case .dataTimeout(let ms):
            "the IMU delivered no new sample for \(ms) ms: the chip stopped converting (reset or brown-out?); "
                + "puckd re-initializes it"
        case .probe(let failure):
            failure.message
        }
    }

    /// A static one-line summary (allocation-free).
    public var summary: StaticString {
        switch self {
        case .bus(let e): e.summary
        case .wrongChip: "unexpected chip ID: another chip answers at the IMU address"
        case .resetTimeout: "the IMU did not come back after its reset"
        case .stuckData: "IMU output registers are stuck"
        case .dataTimeout: "the IMU stopped delivering samples"
        case .probe(let failure): failure.summary
        }
    }
}
