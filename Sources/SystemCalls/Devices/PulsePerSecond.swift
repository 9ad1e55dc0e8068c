import CLinux

/// The kernel PPS API (linux/pps.h) on an open /dev/ppsN: its capabilities and the last captured
/// pulse. The request numbers encode the pointer size, so CLinux computes them for the platform.
extension FileDescriptor {
    /// PPS_GETCAP: the capability bits (0x01 capture assert, 0x02 capture clear, …); ENOTTY thrown
    /// for a descriptor that is not a PPS device.
    public func pulseCapabilities() throws(Errno) -> Int32 {
        var mode: Int32 = 0
        _ = try Errno.check(minusOne: clinux_pps_getcap(rawValue, &mode))
        return mode
    }

    /// PPS_FETCH with a zero timeout (returns at once): the last assert edge's sequence number and
    /// CLOCK_REALTIME timestamp (nanoseconds since 1970, 0 before the first). Allocation-free.
    public func fetchPulse() throws(Errno) -> (assertSequence: UInt32, assertRealtimeNanoseconds: Int64) {
        var reading = clinux_pps_reading()
        _ = try Errno.check(minusOne: clinux_pps_fetch(rawValue, &reading))
        return (reading.assert_sequence, reading.assert_realtime_ns)
    }

    /// PPS_GETCAP / PPS_FETCH as this platform encodes them (0x800870A3 / 0xC00870A4 on 64-bit).
    public static var pulseRequestNumbers: (getCapabilities: UInt, fetch: UInt) {
        (UInt(clinux_pps_getcap_request()), UInt(clinux_pps_fetch_request()))
    }
}
