import Synchronization
import SystemCalls

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
        var descriptor: FileDescriptor?
        var sequence: UInt64
    }

    /// Requests the ring holds; a full ring makes the loop wait (the disk is many flushes behind).
    public static let capacity = 64
    private let ring: UnsafeMutablePointer<Request>
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
    /// A sync failed since the last mark: the next mark publishes nothing.
    private var failedSinceMark = false

    /// Allocates the ring and starts the thread (start-up). When the thread cannot be created the
    /// requests run on the caller's thread (`isThreaded` false; said in the start-up report).
    public init() {
        ring = .allocate(capacity: Self.capacity)
        let context = Unmanaged.passUnretained(self).toOpaque()
        thread = try? WorkerThread.start(stackBytes: 64 << 10, context: context) { context in
            Unmanaged<TrackFlusher>.fromOpaque(context!).takeUnretainedValue().serve()
            return nil
        }
    }

    deinit {
        stop()
        ring.deallocate()
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

    private func submit(_ request: Request) {
        guard running else {
            execute(request)
            return
        }
        lock.lock()
        if count == Self.capacity {
            waits.add(1, ordering: .relaxed)
            while count == Self.capacity { lock.wait(onCondition: Self.room) }
        }
        ring[(head + count) % Self.capacity] = request
        count += 1
        lock.signal(condition: Self.wake)
        lock.unlock()
    }

    /// The thread: takes requests in order and runs them outside the lock.
    private func serve() {
        while true {
            lock.lock()
            while count == 0 { lock.wait(onCondition: Self.wake) }
            let request = ring[head]
            lock.unlock()
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
        lock.lock()
        head = (head + 1) % Self.capacity
        count -= 1
        lock.signal(condition: Self.room)
        lock.unlock()
    }

    private func execute(_ request: Request) {
        switch request.kind {
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
