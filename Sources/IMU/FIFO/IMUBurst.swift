/// The samples of one FIFO burst read, in a fixed buffer the caller owns (no heap): what
/// `IMUDevice.poll(nowNanoseconds:into:)` fills, oldest first, each with its reconstructed time.
///
/// A driver's `readFIFO` appends sensor-frame readings without times; the device then gives each its
/// time (`IMUSampleClock`) and applies the mounting, so the readings leave it in the board frame.
public struct IMUBurst: Sendable {
    /// The most readings one call delivers; a fuller FIFO is read in further calls (`moreAvailable`).
    public static let capacity = 32

    private var storage: InlineArray<32, IMUReading>
    /// Number of valid readings.
    public private(set) var count = 0
    /// The chip flagged a FIFO overrun (samples were lost); set by the driver, handled by the device.
    public var overrun = false
    /// Complete samples were left in the FIFO because the buffer was full.
    public var moreAvailable = false
    /// The first reading follows samples lost to an overrun (the FIFO was reset before it): its time
    /// is re-anchored to the read, so the gap shows in the timestamps.
    public var followsGap = false

    /// An empty burst.
    public init() {
        let empty = IMUSample(timestampNanoseconds: 0, gyroRadiansPerSecond: Vector3(0, 0, 0),
                              accelerationMetersPerSecondSquared: Vector3(0, 0, 0), magneticFieldMicrotesla: nil)
        storage = .init(repeating: IMUReading(sample: empty))
    }

    /// True when no more readings fit.
    public var isFull: Bool { count == IMUBurst.capacity }

    /// The reading at `index` (0 ..< count), oldest first.
    @inline(__always)
    public subscript(index: Int) -> IMUReading {
        get {
            precondition(index >= 0 && index < count, "burst index out of range")
            return storage[index]
        }
        set {
            precondition(index >= 0 && index < count, "burst index out of range")
            storage[index] = newValue
        }
    }

    /// Appends a reading; false (and nothing stored) when the burst is full.
    @discardableResult
    public mutating func append(_ reading: IMUReading) -> Bool {
        guard count < IMUBurst.capacity else { return false }
        storage[count] = reading
        count += 1
        return true
    }

    /// Empties the burst and clears its flags (the storage is kept).
    public mutating func removeAll() {
        count = 0
        overrun = false
        moreAvailable = false
        followsGap = false
    }
}
