import Glibc

/// A thread of the process (pthread) with a small stack, started once at start-up and joined at
/// shutdown: work the loop must not wait for (the track journal's fdatasync) runs there.
public struct WorkerThread: @unchecked Sendable {
    private let handle: pthread_t

    /// Starts `entry(context)` on a new thread with a stack of `stackBytes`.
    public static func start(stackBytes: Int, context: UnsafeMutableRawPointer?,
                             _ entry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?)
        throws(Errno) -> WorkerThread {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackBytes)
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, entry, context)
        if result != 0 { throw Errno(rawValue: result) }
        return WorkerThread(handle: thread)
    }

    /// Waits until the thread has returned.
    public func join() { pthread_join(handle, nil) }

    /// Lets the thread end on its own (no join): for work that may block past shutdown (a DNS lookup).
    public func detach() { pthread_detach(handle) }
}

/// A mutex and its condition variables (pthread), made once: a worker thread and the loop hand work
/// over under it. Nothing is allocated after `init`.
public final class ThreadLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let conditions: UnsafeMutablePointer<pthread_cond_t>
    private let conditionCount: Int

    /// A mutex with `conditionCount` condition variables, numbered from 0.
    public init(conditionCount: Int) {
        self.conditionCount = max(1, conditionCount)
        mutex = .allocate(capacity: 1)
        conditions = .allocate(capacity: self.conditionCount)
        pthread_mutex_init(mutex, nil)
        for i in 0..<self.conditionCount { pthread_cond_init(conditions + i, nil) }
    }

    deinit {
        for i in 0..<conditionCount { pthread_cond_destroy(conditions + i) }
        pthread_mutex_destroy(mutex)
        conditions.deallocate()
        mutex.deallocate()
    }

    /// Takes the mutex.
    public func lock() { pthread_mutex_lock(mutex) }

    /// Releases the mutex.
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// With the mutex held: releases it until condition `index` is signalled, then takes it again.
    public func wait(onCondition index: Int) { pthread_cond_wait(conditions + index, mutex) }

    /// Wakes one thread waiting on condition `index`.
    public func signal(condition index: Int) { pthread_cond_signal(conditions + index) }
}
