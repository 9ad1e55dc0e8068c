import Glibc
import Synchronization

/// A System V shared memory segment attached to this process (shmget(2), shmat(2)): what NTP's SHM
/// refclock reads (docs/gpsd-protocol.md §7.2). Attached at start-up; the loop only stores into
/// `bytes`, so nothing here runs per wake-up except `fence()`.
public struct SharedMemorySegment {
    /// shmget's identifier.
    public let identifier: CInt
    /// The attached bytes (`byteCount` of them).
    public let bytes: UnsafeMutableRawPointer
    /// The size asked for.
    public let byteCount: Int

    /// IPC_PRIVATE: a new segment no other process finds by key (tests).
    public static let privateKey: CInt = CInt(IPC_PRIVATE)

    /// The segment of `key`, created with `permissions` (e.g. 0o600) if none exists, attached
    /// read-write. EACCES when it exists and this user may not write it; EINVAL when it exists smaller.
    public static func attach(key: CInt, byteCount: Int, permissions: UInt32) throws(Errno) -> SharedMemorySegment {
        let id = try Errno.check(minusOne: shmget(key_t(key), byteCount, IPC_CREAT | CInt(permissions & 0o777)))
        guard let p = shmat(id, nil, 0), p != UnsafeMutableRawPointer(bitPattern: -1) else { throw Errno.current }
        return SharedMemorySegment(identifier: id, bytes: p, byteCount: byteCount)
    }

    /// shmdt(2); the segment stays in the system (as gpsd leaves NTP0..NTP3 for ntpd/chronyd).
    public func detach() {
        _ = shmdt(bytes)
    }

    /// What shmctl(IPC_STAT) tells about a segment: who may use it and how many processes have it attached.
    public struct Status: Sendable, Equatable {
        public var identifier: CInt
        public var permissions: UInt32
        public var ownerUserID: UInt32
        public var attachCount: Int
        public var byteCount: Int
    }

    /// The status of the segment of `key`, nil when none exists (or this user may not read it).
    public static func status(key: CInt) -> Status? {
        let id = shmget(key_t(key), 0, 0)
        return id >= 0 ? status(identifier: id) : nil
    }

    /// The status of the segment `id`, nil when none (or this user may not read it).
    public static func status(identifier id: CInt) -> Status? {
        var ds = shmid_ds()
        guard shmctl(id, IPC_STAT, &ds) == 0 else { return nil }
        return Status(identifier: id, permissions: UInt32(ds.shm_perm.mode) & 0o777, ownerUserID: ds.shm_perm.uid,
                      attachCount: Int(ds.shm_nattch), byteCount: Int(ds.shm_segsz))
    }

    /// shmctl(IPC_RMID): the segment goes once the last process detaches.
    public static func remove(identifier: CInt) throws(Errno) {
        _ = try Errno.check(minusOne: shmctl(identifier, IPC_RMID, nil))
    }

    /// A full memory barrier between the stores of a shared-memory protocol (gpsd's memory_barrier()):
    /// neither the compiler nor the processor moves a store across it.
    @inline(__always)
    public static func fence() {
        atomicMemoryFence(ordering: .sequentiallyConsistent)
    }
}
