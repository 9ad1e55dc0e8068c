import GpsdProtocol
import SystemCalls

/// One NTP shared-memory refclock unit (`[time] shm`, docs/gpsd-protocol.md §7.2): the segment of key
/// "NTP0" + unit, created with gpsd's permissions if chronyd or ntpd has not created it yet, and the
/// samples written into it with mode 1's count/valid protocol. Attached once at start-up; a unit that
/// cannot be attached (EACCES: it is another user's 0600 segment) is said once and its samples counted lost.
public final class NTPSharedMemory {
    /// The unit (0: coarse time, 1: PPS, as gpsd's first device).
    public let unit: Int
    let segment: SharedMemorySegment?
    /// Why the unit could not be attached, nil when it is.
    public let attachError: Errno?
    /// Samples written, and samples not written (no segment).
    public private(set) var samplesWritten: UInt64 = 0
    public private(set) var samplesLost: UInt64 = 0

    /// Attaches unit `unit` (key 0x4E545030 + unit). `key` replaces the unit's key (tests: a private segment).
    public init(unit: Int, key: Int32? = nil) {
        self.unit = unit
        do throws(Errno) {
            segment = try SharedMemorySegment.attach(key: key ?? NTPShmSample.key(unit: unit), byteCount: NTPShmSample.byteCount,
                                                     permissions: NTPShmSample.permissions(unit: unit))
            attachError = nil
        } catch {
            segment = nil
            attachError = error
        }
    }

    deinit { segment?.detach() }

    /// The segment's identifier (shmget), nil when not attached.
    public var identifier: CInt? { segment?.identifier }

    /// Writes one sample; no allocation, no system call.
    public func write(_ sample: NTPShmSample) {
        guard let segment else { samplesLost &+= 1; return }
        sample.store(into: segment.bytes, fence: SharedMemorySegment.fence)
        samplesWritten &+= 1
    }

    /// The start-up report's line for this unit.
    public func reportLine(_ role: String) -> String {
        let name = "NTP" + String(unit) + " (key 0x" + String(NTPShmSample.key(unit: unit), radix: 16) + ")"
        if let attachError {
            return "time: cannot attach shared memory " + name + " for " + role + ": " + attachError.description
                + (attachError == .permissionDenied
                   ? " (chronyd or ntpd created it 0600 as root: give it perm=0666 in chrony's refclock line, or run chrony's SOCK refclock)"
                   : "")
        }
        return "time: NTP shared memory " + name + ": " + role
    }
}
