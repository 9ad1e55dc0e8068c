import Glibc
import Synchronization

/// The journal's flusher thread: the durable part of a flush (fdatasync of a segment, fsync of the
/// directory, and the close that must follow them) runs here, off the loop's thread. The loop hands
/// over requests through a fixed ring under a mutex ("sync descriptor N", "close N", "everything
/// before is durable up to sequence S"); the thread touches nothing but those descriptors and its own
/// atomics. One thread, created at start-up; nothing is allocated per request (docs/track-log.md §4).
public final class TrackFlusher: @unchecked Sendable {
    /// One handed-over request, executed in order.
    struct Request {
        enum Kind: UInt8 { case sync, syncAndClose, close, mark, stop }
        var kind: Kind
        var descriptor: Int32
        var sequence: UInt64
    }

    /// Requests the ring holds; a full ring makes the loop wait (the disk is many flushes behind).
    public static let capacity = 64
    private let ring: UnsafeMutablePointer<Request>
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let wake: UnsafeMutablePointer<pthread_cond_t>
    private let room: UnsafeMutablePointer<pthread_cond_t>
    private var head = 0
    private var count = 0
    private var thread = pthread_t()
    private var running = false

    /// The errno of the last failed sync not yet taken by the loop (0: none).
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
    /// A sync failed since the last mark: the next mark publishes nothing.
    private var failedSinceMark = false

    /// Allocates the ring and starts the thread (start-up). When the thread cannot be created the
    /// requests run on the caller's thread (`isThreaded` false; said in the start-up report).
    public init() {
        ring = .allocate(capacity: Self.capacity)
        mutex = .allocate(capacity: 1)
        wake = .allocate(capacity: 1)
        room = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(wake, nil)
        pthread_cond_init(room, nil)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, 64 << 10)
        let context = Unmanaged.passUnretained(self).toOpaque()
        running = pthread_create(&thread, &attributes, { context in
            Unmanaged<TrackFlusher>.fromOpaque(context!).takeUnretainedValue().serve()
            return nil
        }, context) == 0
        pthread_attr_destroy(&attributes)
    }

    deinit {
        stop()
        pthread_cond_destroy(room)
        pthread_cond_destroy(wake)
        pthread_mutex_destroy(mutex)
        room.deallocate()
        wake.deallocate()
        mutex.deallocate()
        ring.deallocate()
    }

    /// True when the durable flush runs on its own thread.
    public var isThreaded: Bool { running }

    /// Queues an fdatasync of `descriptor` (and its close after it when `closing`).
    public func sync(_ descriptor: Int32, closing: Bool = false) {
        submit(Request(kind: closing ? .syncAndClose : .sync, descriptor: descriptor, sequence: 0))
    }

    /// Queues the close of `descriptor` after the syncs queued before it.
    public func close(_ descriptor: Int32) { submit(Request(kind: .close, descriptor: descriptor, sequence: 0)) }

    /// Queues "every record up to `sequence` is on disk once the syncs before this are done".
    public func mark(durableThrough sequence: UInt64) { submit(Request(kind: .mark, descriptor: -1, sequence: sequence)) }

    /// The errno of a failed sync since the last call (0: none); the loop reports it as the fault.
    public func takeError() -> Int32 { pendingError.exchange(0, ordering: .acquiringAndReleasing) }

    /// The highest sequence number known durable, nil while none.
    public var durableSequence: UInt64? {
        let end = durableEnd.load(ordering: .acquiring)
        return end == 0 ? nil : end - 1
    }

    /// Syncs done, syncs failed, the longest sync (ns), and how often the loop waited for room.
    public var statistics: (syncs: UInt64, failed: UInt64, longestNanoseconds: Int64, waits: UInt64) {
        (syncs.load(ordering: .relaxed), failedSyncs.load(ordering: .relaxed), longestSync.load(ordering: .relaxed),
         waits.load(ordering: .relaxed))
    }

    /// Runs every queued request, then ends the thread (shutdown: the caller returns once all is durable).
    public func stop() {
        guard running else { return }
        submit(Request(kind: .stop, descriptor: -1, sequence: 0))
        pthread_join(thread, nil)
        running = false
    }

    private func submit(_ request: Request) {
        guard running else {
            execute(request)
            return
        }
        pthread_mutex_lock(mutex)
        if count == Self.capacity {
            waits.add(1, ordering: .relaxed)
            while count == Self.capacity { pthread_cond_wait(room, mutex) }
        }
        ring[(head + count) % Self.capacity] = request
        count += 1
        pthread_cond_signal(wake)
        pthread_mutex_unlock(mutex)
    }

    /// The thread: takes requests in order and runs them outside the lock.
    private func serve() {
        while true {
            pthread_mutex_lock(mutex)
            while count == 0 { pthread_cond_wait(wake, mutex) }
            let request = ring[head]
            pthread_mutex_unlock(mutex)
            if request.kind == .stop {
                take()
                return
            }
            execute(request)
            take()
        }
    }

    /// Removes the request just run (after running it, so a full ring means "not yet durable").
    private func take() {
        pthread_mutex_lock(mutex)
        head = (head + 1) % Self.capacity
        count -= 1
        pthread_cond_signal(room)
        pthread_mutex_unlock(mutex)
    }

    private func execute(_ request: Request) {
        switch request.kind {
        case .sync, .syncAndClose:
            var start = timespec(), end = timespec()
            clock_gettime(CLOCK_MONOTONIC, &start)
            var result: Int32
            repeat { result = fdatasync(request.descriptor) } while result != 0 && errno == EINTR
            // A directory cannot be fdatasync'ed on every file system; fsync it.
            if result != 0 && errno == EINVAL { result = fsync(request.descriptor) }
            let failure = result == 0 ? 0 : errno
            clock_gettime(CLOCK_MONOTONIC, &end)
            let took = Int64(end.tv_sec - start.tv_sec) * 1_000_000_000 + Int64(end.tv_nsec - start.tv_nsec)
            syncs.add(1, ordering: .relaxed)
            if took > longestSync.load(ordering: .relaxed) { longestSync.store(took, ordering: .relaxed) }
            if failure != 0 {
                failedSyncs.add(1, ordering: .relaxed)
                failedSinceMark = true
                pendingError.store(failure, ordering: .releasing)
            }
            if request.kind == .syncAndClose { _ = Glibc.close(request.descriptor) }
        case .close:
            _ = Glibc.close(request.descriptor)
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
