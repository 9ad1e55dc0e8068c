/// One time sample in NTP's shared-memory refclock segment (ntpd's refclock_shm.c `struct shmTime`,
/// mode 1, written as gpsd's ntpshmwrite.c does): the true time, the system clock at that moment,
/// leap, precision; read by chrony's and ntpd's `SHM` driver. Pure: the caller reads the clock and
/// owns the memory (docs/gpsd-protocol.md §7.2).
public struct NTPShmSample: Sendable, Equatable {
    /// The key of unit 0, "NTP0"; unit N is `baseKey + N`.
    public static let baseKey: Int32 = 0x4E54_5030
    /// sizeof(struct shmTime) on a 64-bit Linux.
    public static let byteCount = 96

    /// Byte offsets of `struct shmTime`'s fields (64-bit Linux: time_t is 8 bytes, 4 of padding after
    /// each microsecond int that precedes one).
    public enum Offset {
        public static let mode = 0, count = 4
        public static let clockSeconds = 8, clockMicroseconds = 16
        public static let receiveSeconds = 24, receiveMicroseconds = 32
        public static let leap = 36, precision = 40, samples = 44, valid = 48
        public static let clockNanoseconds = 52, receiveNanoseconds = 56
    }

    /// The key of `unit` (0 → 0x4E545030).
    public static func key(unit: Int) -> Int32 { baseKey &+ Int32(truncatingIfNeeded: unit) }

    /// The permissions gpsd creates a unit with: 0600 for units 0 and 1 (only root, or the segment's
    /// owner, may write; ntpd's convention for trusted sources), 0666 for units 2 and up.
    public static func permissions(unit: Int) -> UInt32 { unit < 2 ? 0o600 : 0o666 }

    /// The true (UTC) time of the sample, ns since 1970: a fix's time, or the whole second a PPS
    /// edge marks (shmTime's clockTimeStamp).
    public var trueNanoseconds: Int64
    /// CLOCK_REALTIME at that moment, ns since 1970 (receiveTimeStamp).
    public var receiveSystemNanoseconds: Int64
    /// NTP's leap indicator: 0 none, 1 a second inserted at the end of the day, 2 deleted, 3 not in sync.
    public var leap: Int32
    /// log2 of the sample's precision in seconds (-20 ≈ 1 µs, gpsd's default).
    public var precision: Int32

    public init(trueNanoseconds: Int64, receiveSystemNanoseconds: Int64, leap: Int32 = 0, precision: Int32 = -20) {
        self.trueNanoseconds = trueNanoseconds
        self.receiveSystemNanoseconds = receiveSystemNanoseconds
        self.leap = leap
        self.precision = precision
    }

    /// Writes the sample into a segment of at least `byteCount` bytes with mode 1's count/valid
    /// protocol: valid = 0, count += 1, fence, the fields, fence, count += 1, valid = 1. A reader that
    /// sees the same count before and after its copy, and valid set, has a whole sample. `fence` is a
    /// full memory barrier (SystemCalls' SharedMemorySegment.fence).
    public func store(into segment: UnsafeMutableRawPointer, fence: () -> Void) {
        segment.storeBytes(of: 1, toByteOffset: Offset.mode, as: Int32.self)
        segment.storeBytes(of: 0, toByteOffset: Offset.valid, as: Int32.self)
        let count = segment.load(fromByteOffset: Offset.count, as: Int32.self)
        segment.storeBytes(of: count &+ 1, toByteOffset: Offset.count, as: Int32.self)
        fence()
        let (clockSeconds, clockNanos) = Self.split(trueNanoseconds)
        let (receiveSeconds, receiveNanos) = Self.split(receiveSystemNanoseconds)
        segment.storeBytes(of: clockSeconds, toByteOffset: Offset.clockSeconds, as: Int64.self)
        segment.storeBytes(of: Int32(clockNanos / 1000), toByteOffset: Offset.clockMicroseconds, as: Int32.self)
        segment.storeBytes(of: UInt32(clockNanos), toByteOffset: Offset.clockNanoseconds, as: UInt32.self)
        segment.storeBytes(of: receiveSeconds, toByteOffset: Offset.receiveSeconds, as: Int64.self)
        segment.storeBytes(of: Int32(receiveNanos / 1000), toByteOffset: Offset.receiveMicroseconds, as: Int32.self)
        segment.storeBytes(of: UInt32(receiveNanos), toByteOffset: Offset.receiveNanoseconds, as: UInt32.self)
        segment.storeBytes(of: leap, toByteOffset: Offset.leap, as: Int32.self)
        segment.storeBytes(of: precision, toByteOffset: Offset.precision, as: Int32.self)
        segment.storeBytes(of: 3, toByteOffset: Offset.samples, as: Int32.self)
        fence()
        segment.storeBytes(of: count &+ 2, toByteOffset: Offset.count, as: Int32.self)
        segment.storeBytes(of: 1, toByteOffset: Offset.valid, as: Int32.self)
    }

    /// Whole seconds and the nanoseconds within them (0 ..< 1e9, also before 1970).
    static func split(_ nanoseconds: Int64) -> (Int64, Int64) {
        var seconds = nanoseconds / 1_000_000_000
        var nanos = nanoseconds % 1_000_000_000
        if nanos < 0 { nanos += 1_000_000_000; seconds -= 1 }
        return (seconds, nanos)
    }
}
