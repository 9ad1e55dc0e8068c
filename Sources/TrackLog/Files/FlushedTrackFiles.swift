import SystemCalls

/// The real track files with the durable flush on the flusher thread: writes, opens and truncates run
/// on the caller's thread (page-cache operations); `sync`, `syncDirectory` (its open too), the `close`
/// that follows them and the unlink of segments dropped for the cap are handed to `TrackFlusher` in order. A sync that failed on the thread is
/// returned by the next `sync` call, so the writer's fault comes one flush late (docs/track-log.md §4).
public struct FlushedTrackFiles: TrackFileSystem {
    public let base = PosixTrackFiles()
    public let flusher: TrackFlusher

    public init(flusher: TrackFlusher) { self.flusher = flusher }

    public func makeDirectory(_ path: String) -> Errno? { base.makeDirectory(path) }
    public func list(_ directory: String) -> Result<[String], TrackIOError> { base.list(directory) }
    public func read(_ path: String) -> Result<[UInt8], TrackIOError> { base.read(path) }

    public func openAppending(_ path: UnsafePointer<CChar>, create: Bool) -> Result<TrackFileHandle, TrackIOError> {
        base.openAppending(path, create: create)
    }

    public func write(_ file: TrackFileHandle, _ bytes: UnsafeRawBufferPointer) -> (written: Int, error: Errno?) {
        base.write(file, bytes)
    }

    /// Queues the fdatasync; returns the error of an earlier one that failed (nil: none so far).
    public func sync(_ file: TrackFileHandle) -> Errno? {
        let earlier = flusher.takeError()
        flusher.sync(file)
        return earlier
    }

    public func truncate(_ file: TrackFileHandle, length: Int64) -> Errno? { base.truncate(file, length: length) }

    /// The close runs after the syncs queued for the descriptor (its number is not reused before).
    public func close(_ file: TrackFileHandle) { flusher.close(file) }

    public func remove(_ path: UnsafePointer<CChar>) -> Errno? { base.remove(path) }
    public func rename(_ from: String, _ to: String) -> Errno? { base.rename(from, to) }

    /// Queues the unlink on the flusher (after the syncs queued before it).
    public func removeDropped(_ path: UnsafePointer<CChar>) -> Errno? {
        flusher.remove(path)
        return nil
    }

    /// Room in the flusher's ring for a rotation's requests (`TrackFlusher.rotationReserve`).
    public var canRotateWithoutWaiting: Bool { flusher.hasRoomForRotation }

    /// Queues the directory's open, fsync and close on the flusher (a failure comes back through the
    /// next `sync`, like a segment's).
    public func syncDirectory(_ path: UnsafePointer<CChar>) -> Errno? {
        flusher.syncDirectory(path)
        return nil
    }
}
