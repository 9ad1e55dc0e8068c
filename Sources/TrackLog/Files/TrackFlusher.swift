import Synchronization
import SystemCalls

/// The journal's flusher thread: the durable part of a flush (fdatasync of a segment, fsync of the
/// directory, and the close that must follow them) and the removal of segments dropped for the size cap
/// run here, off the loop's thread. The loop hands over requests through a fixed ring under a mutex
/// ("sync descriptor N", "close N", "fsync directory P", "unlink P", "everything before is durable up to
/// sequence S"; a path is copied into the request's fixed slot); the thread touches nothing but those
/// descriptors, paths and its own atomics. One thread, created at start-up; nothing is allocated per
/// request (docs/track-log.md §4).
public final class TrackFlusher: @unchecked Sendable {
    /// One handed-over request, executed in order.
    struct Request {
        enum Kind: UInt8 { case sync, syncAndClose, close, mark, syncDirectory, remove, stop }
        var kind: Kind
        var descriptor: FileDescriptor?
        var sequence: UInt64
    }

    /// Requests the ring holds; a full ring makes the loop wait (the disk is many flushes behind).
    public static let capacity = 64
    /// The longest path a request carries (with its NUL); a longer one is handled on the caller's thread.
    public static let pathCapacity = 256
    private let ring: UnsafeMutablePointer<Request>
    /// One path slot per ring entry (`.syncDirectory`, `.remove`).
    private let paths: UnsafeMutablePointer<CChar>
    /// Runs on the thread before each request (tests: a disk that stalls); nil in the device.
    private let beforeEach: (@Sendable () -> Void)?
    /// The ring's mutex; condition `wake` (a request arrived) and `room` (one was taken).
    private let lock = ThreadLock(conditionCount: 2)
    private static let wake = 0, room = 1
    private var head = 0
    private var count = 0
    private var thread: WorkerThread?
    private var running: Bool { thread != nil }

    /// The error number of the last failed sync not yet taken by the loop (0: none).
    private let pendingError = Atomic<Int32>(0)
    /// The highest sequence made durable (a `mark` reached with no failed sync since the last one),
    /// plus one; 0 while none.
    private let durableEnd = Atomic<UInt64>(0)
    /// fdatasync/fsync calls made and failed, and the longest one, nanoseconds.
    private let syncs = Atomic<UInt64>(0)
    private let failedSyncs = Atomic<UInt64>(0)
    private let longestSync = Atomic<Int64>(0)
    /// Times the loop found the ring full and waited.
    private let waits = Atomic<UInt64>(0)
    /// Requests folded into a waiting one because the ring was full.
    private let coalesced = Atomic<UInt64>(0)
    /// A sync failed since the last mark: the next mark publishes nothing.
    private var failedSinceMark = false

    /// Allocates the ring and starts the thread (start-up). When the thread cannot be created the
    /// requests run on the caller's thread (`isThreaded` false; said in the start-up report).
    public init(beforeEach: (@Sendable () -> Void)? = nil) {
        self.beforeEach = beforeEach
        ring = .allocate(capacity: Self.capacity)
        paths = .allocate(capacity: Self.capacity * Self.pathCapacity)
        let context = Unmanaged.passUnretained(self).toOpaque()
        thread = try? WorkerThread.start(stackBytes: 64 << 10, context: context) { context in
            Unmanaged<TrackFlusher>.fromOpaque(context!).takeUnretainedValue().serve()
            return nil
        }
    }

    deinit {
        stop()
        ring.deallocate()
        paths.deallocate()
    }

    /// True when the durable flush runs on its own thread.
    public var isThreaded: Bool { running }

    /// Queues an fdatasync of `descriptor` (and its close after it when `closing`).
    public func sync(_ descriptor: FileDescriptor, closing: Bool = false) {
        submit(Request(kind: closing ? .syncAndClose : .sync, descriptor: descriptor, sequence: 0))
    }

    /// Queues the close of `descriptor` after the syncs queued before it.
    public func close(_ descriptor: FileDescriptor) { submit(Request(kind: .close, descriptor: descriptor, sequence: 0)) }

    /// Queues "every record up to `sequence` is on disk once the syncs before this are done".
    public func mark(durableThrough sequence: UInt64) { submit(Request(kind: .mark, descriptor: nil, sequence: sequence)) }

    /// Queues the fsync of the directory at `path` (opened, synced and closed on the thread).
    public func syncDirectory(_ path: UnsafePointer<CChar>) { submit(Request(kind: .syncDirectory, descriptor: nil, sequence: 0), path: path) }

    /// Queues the unlink of `path` (a segment dropped for the size cap; its name is never used again).
    public func remove(_ path: UnsafePointer<CChar>) { submit(Request(kind: .remove, descriptor: nil, sequence: 0), path: path) }

    /// The error of a failed sync since the last call (nil: none); the loop reports it as the fault.
    public func takeError() -> Errno? {
        let code = pendingError.exchange(0, ordering: .acquiringAndReleasing)
        return code == 0 ? nil : Errno(rawValue: code)
    }

    /// The highest sequence number known durable, nil while none.
    public var durableSequence: UInt64? {
        let end = durableEnd.load(ordering: .acquiring)
        return end == 0 ? nil : end - 1
    }

    /// Free ring entries a rotation needs so that no request of it, nor of the flushes after it, waits:
    /// a rotation hands over at most a sync and a close of the old segment and its raw file, the new
    /// header's sync, a directory fsync and per segment dropped for the cap two unlinks and a directory
    /// fsync; a flush without rotation adds at most one sync and one mark before they fold (`coalesce`).
    public static let rotationReserve = 16

    /// True when at least `rotationReserve` entries are free (always true without the thread).
    public var hasRoomForRotation: Bool {
        guard running else { return true }
        lock.lock()
        let free = Self.capacity - count
        lock.unlock()
        return free >= Self.rotationReserve
    }

    /// Requests folded into waiting ones while the ring was full (a stalled disk).
    public var coalescedRequests: UInt64 { coalesced.load(ordering: .relaxed) }

    /// Syncs done, syncs failed, the longest sync (ns), and how often the loop waited for room.
    public var statistics: (syncs: UInt64, failed: UInt64, longestNanoseconds: Int64, waits: UInt64) {
        (syncs.load(ordering: .relaxed), failedSyncs.load(ordering: .relaxed), longestSync.load(ordering: .relaxed),
         waits.load(ordering: .relaxed))
    }

    /// Runs every queued request, then ends the thread (shutdown: the caller returns once all is durable).
    public func stop() {
        guard running else { return }
        submit(Request(kind: .stop, descriptor: nil, sequence: 0))
        thread?.join()
        thread = nil
    }

    private func submit(_ request: Request, path: UnsafePointer<CChar>? = nil) {
        var length = 0
        if let path { while length < Self.pathCapacity && path[length] != 0 { length += 1 } }
        guard running else {
            execute(request, path: path)
            return
        }
        if let path, length >= Self.pathCapacity {
            // Too long for a slot (a very deep state directory): opened or unlinked here, as before.
            if request.kind == .remove { try? FileSystem.unlink(path); return }
            guard let directory = try? FileDescriptor.open(path, .readOnly, options: Self.directoryOptions) else { return }
            submit(Request(kind: .syncAndClose, descriptor: directory, sequence: 0))
            return
        }
        lock.lock()
        if count == Self.capacity && coalesce(request) {
            lock.unlock()
            return
        }
        if count == Self.capacity {
            waits.add(1, ordering: .relaxed)
            while count == Self.capacity { lock.wait(onCondition: Self.room) }
        }
        let index = (head + count) % Self.capacity
        ring[index] = request
        if let path { (paths + index * Self.pathCapacity).update(from: path, count: length + 1) }
        count += 1
        lock.signal(condition: Self.wake)
        lock.unlock()
    }

    /// With the lock held and the ring full (the disk stalls): folds `request` into one not yet started,
    /// so a stalled disk in steady running never makes the loop wait. A sync of a descriptor whose sync
    /// waits already is covered by that one (an fdatasync covers every write done before it starts);
    /// a mark replaces a waiting mark at the tail (the syncs before it cover the newer records too, as
    /// the newer sync was folded into them). The entry at `head` may be running: never touched.
    private func coalesce(_ request: Request) -> Bool {
        switch request.kind {
        case .sync:
            var k = 1
            while k < count {
                let entry = ring[(head + k) % Self.capacity]
                if entry.kind == .sync && entry.descriptor == request.descriptor {
                    coalesced.add(1, ordering: .relaxed)
                    return true
                }
                k += 1
            }
            return false
        case .mark:
            let tail = (head + count - 1) % Self.capacity
            guard count > 1, ring[tail].kind == .mark else { return false }
            ring[tail].sequence = max(ring[tail].sequence, request.sequence)
            coalesced.add(1, ordering: .relaxed)
            return true
        default:
            return false
        }
    }

    /// The thread: takes requests in order and runs them outside the lock.
    private func serve() {
        while true {
            lock.lock()
            while count == 0 { lock.wait(onCondition: Self.wake) }
            let request = ring[head]
            let path = UnsafePointer(paths + head * Self.pathCapacity)
            lock.unlock()
            if request.kind == .stop {
                take()
                return
            }
            beforeEach?()
            execute(request, path: path)
            take()
        }
    }

    /// Removes the request just run (after running it, so a full ring means "not yet durable").
    private func take() {
        lock.lock()
        head = (head + 1) % Self.capacity
        count -= 1
        lock.signal(condition: Self.room)
        lock.unlock()
    }

    private static let directoryOptions: FileDescriptor.OpenOptions = [.directory, .closeOnExec]

    private func execute(_ request: Request, path: UnsafePointer<CChar>?) {
        switch request.kind {
        case .syncDirectory:
            guard let path else { return }
            do throws(Errno) {
                let directory = try FileDescriptor.open(path, .readOnly, options: Self.directoryOptions)
                execute(Request(kind: .syncAndClose, descriptor: directory, sequence: 0), path: nil)
            } catch {
                failedSyncs.add(1, ordering: .relaxed)
                failedSinceMark = true
                pendingError.store(error.rawValue, ordering: .releasing)
            }
        case .remove:
            if let path { try? FileSystem.unlink(path) }
        case .sync, .syncAndClose:
            guard let descriptor = request.descriptor else { return }
            let start = SystemClock.monotonicNanoseconds()
            var failure: Errno? = nil
            do throws(Errno) {
                try descriptor.syncData()
            } catch {
                failure = error
                // A directory cannot be fdatasync'ed on every file system; fsync it.
                if error == .invalidArgument {
                    do throws(Errno) { try descriptor.sync(); failure = nil } catch { failure = error }
                }
            }
            let took = Int64(bitPattern: SystemClock.monotonicNanoseconds() &- start)
            syncs.add(1, ordering: .relaxed)
            if took > longestSync.load(ordering: .relaxed) { longestSync.store(took, ordering: .relaxed) }
            if let failure {
                failedSyncs.add(1, ordering: .relaxed)
                failedSinceMark = true
                pendingError.store(failure.rawValue, ordering: .releasing)
            }
            if request.kind == .syncAndClose { try? descriptor.close() }
        case .close:
            try? request.descriptor?.close()
        case .mark:
            if !failedSinceMark, request.sequence &+ 1 > durableEnd.load(ordering: .relaxed) {
                durableEnd.store(request.sequence &+ 1, ordering: .releasing)
            }
            failedSinceMark = false
        case .stop:
            break
        }
    }
}
