/// One sample for chrony's `refclock SOCK` driver (chrony's refclock_sock.c, as gpsd sends it): the
/// system time the sample was taken at, the offset of true time from it, whether it marks a pulse,
/// the leap indicator and chrony's magic number, laid out as `struct sock_sample` of a 64-bit Linux
/// (40 bytes: timeval, double, four ints). Pure: the caller reads the clock (docs/gpsd-protocol.md §7).
public struct ChronySample: Sendable, Equatable {
    /// chrony's `SOCK_MAGIC`, "SOCK".
    public static let magic: Int32 = 0x534f_434b
    /// Bytes of one datagram.
    public static let byteCount = 40

    /// CLOCK_REALTIME when the sample was taken, nanoseconds since 1970.
    public var systemNanoseconds: Int64
    /// True time minus `systemNanoseconds`, seconds.
    public var offsetSeconds: Double
    /// True for a PPS edge (chrony then uses only the fraction of the offset).
    public var pulse: Bool
    /// 0 none, 1 a leap second inserted at the end of the day, 2 deleted.
    public var leap: Int32

    public init(systemNanoseconds: Int64, offsetSeconds: Double, pulse: Bool = false, leap: Int32 = 0) {
        self.systemNanoseconds = systemNanoseconds
        self.offsetSeconds = offsetSeconds
        self.pulse = pulse
        self.leap = leap
    }

    /// A coarse sample from a fix: the epoch's UTC against the system clock when the fix was complete.
    public init(fixUTCNanoseconds utc: Int64, receivedSystemNanoseconds system: Int64, leap: Int32 = 0) {
        self.init(systemNanoseconds: system, offsetSeconds: Double(utc - system) / 1e9, pulse: false, leap: leap)
    }

    /// A pulse sample: a PPS edge at `system` (CLOCK_REALTIME, ns) that marks the true UTC second
    /// `second`. For a pulse chrony reads the offset field as the position of the system clock within
    /// the second at the edge, system − true (`RCL_AddPulse`, as its PPS driver passes a timestamp's
    /// fraction), the opposite sign of a coarse sample's; only its fraction counts, the refclock it is
    /// locked to numbers the seconds. Checked against chronyd (ChronyRefclockTests).
    public init(pulseAtSystemNanoseconds system: Int64, trueSecondUTCNanoseconds second: Int64, leap: Int32 = 0) {
        self.init(systemNanoseconds: system, offsetSeconds: Double(system &- second) / 1e9, pulse: true, leap: leap)
    }

    /// Writes the 40 bytes (native byte order, as chrony reads them) to `out` (at least 40 bytes).
    public func encode(into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count >= Self.byteCount)
        var seconds = systemNanoseconds / 1_000_000_000
        var nanos = systemNanoseconds % 1_000_000_000
        if nanos < 0 { nanos += 1_000_000_000; seconds -= 1 }
        out.storeBytes(of: seconds, toByteOffset: 0, as: Int64.self)
        out.storeBytes(of: nanos / 1000, toByteOffset: 8, as: Int64.self)
        out.storeBytes(of: offsetSeconds, toByteOffset: 16, as: Double.self)
        out.storeBytes(of: pulse ? 1 : 0, toByteOffset: 24, as: Int32.self)
        out.storeBytes(of: leap, toByteOffset: 28, as: Int32.self)
        out.storeBytes(of: 0, toByteOffset: 32, as: Int32.self)
        out.storeBytes(of: Self.magic, toByteOffset: 36, as: Int32.self)
    }
}
