/// A Linux-style I2C bus seen through SMBus transfers: byte-data reads and writes and I2C-block-data
/// reads (at most 32 bytes a burst) at a 7-bit device address. This is all the IMU drivers need, and
/// it is what both the Pi's hardware controller and the kernel's `i2c-stub` test adapter support.
///
/// Implementations: `Hardware.I2CDevBus` (i2c-dev, `ioctl(I2C_SMBUS)`) and
/// `Hardware.SimulatedI2CBus` (register-level simulated chips). Drivers are generic over the bus, so
/// the sample path never goes through an existential.
public protocol I2CBus {
    /// Reads one register (SMBus "read byte data").
    mutating func readByte(address: UInt8, register: UInt8) throws(I2CError) -> UInt8
    /// Writes one register (SMBus "write byte data").
    mutating func writeByte(address: UInt8, register: UInt8, value: UInt8) throws(I2CError)
    /// Reads `count` (1…32) consecutive bytes starting at `register` (SMBus "read I2C block data").
    /// Whether the chip increments the register address is the chip's business (some need a flag
    /// bit in `register`).
    mutating func readBlock(address: UInt8, register: UInt8, count: Int) throws(I2CError) -> I2CBlock
}

/// Up to 32 bytes from one I2C block read, stored inline (no heap). Multi-byte values are read with
/// `int16LittleEndian(at:)` (ST parts, AK magnetometers, BNO055) or `int16BigEndian(at:)` (InvenSense
/// accelerometer/gyroscope).
public struct I2CBlock: Sendable, Equatable {
    /// Equal when the valid bytes are equal.
    public static func == (a: I2CBlock, b: I2CBlock) -> Bool {
        guard a.count == b.count else { return false }
        var i = 0
        while i < a.count { if a.bytes[i] != b.bytes[i] { return false }; i += 1 }
        return true
    }

    /// The largest burst an SMBus I2C-block transfer carries.
    public static let capacity = 32

    /// The bytes; only the first `count` are meaningful.
    public var bytes: InlineArray<32, UInt8>
    /// Number of valid bytes.
    public var count: Int

    /// An empty block.
    public init() {
        bytes = .init(repeating: 0)
        count = 0
    }

    /// A block holding `values` (at most 32; for tests and simulated buses).
    public init(_ values: [UInt8]) {
        self.init()
        precondition(values.count <= I2CBlock.capacity, "an I2C block holds at most 32 bytes")
        var i = 0
        while i < values.count { bytes[i] = values[i]; i += 1 }
        count = values.count
    }

    /// The byte at `index` (0 ..< 32).
    @inline(__always)
    public subscript(index: Int) -> UInt8 {
        get { bytes[index] }
        set { bytes[index] = newValue }
    }

    /// The signed 16-bit value whose low byte is at `offset` and high byte at `offset + 1`.
    @inline(__always)
    public func int16LittleEndian(at offset: Int) -> Int16 {
        Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8)
    }

    /// The signed 16-bit value whose high byte is at `offset` and low byte at `offset + 1`.
    @inline(__always)
    public func int16BigEndian(at offset: Int) -> Int16 {
        Int16(bitPattern: UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]))
    }

    /// FNV-1a hash of bytes `start ..< start + length`: equal fingerprints in a row mean the chip's
    /// output registers did not change.
    public func fingerprint(from start: Int, count length: Int, seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var hash = seed
        var i = start
        while i < start + length {
            hash = (hash ^ UInt64(bytes[i])) &* 0x0000_0100_0000_01b3
            i += 1
        }
        return hash
    }
}
