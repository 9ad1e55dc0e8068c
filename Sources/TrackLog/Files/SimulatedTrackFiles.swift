import SystemCalls
import SystemCalls

/// The simulated twin of the board's file system for the track journal: files in memory, each with the
/// bytes written and the part made durable by `sync`; it can be made full (`capacityBytes`: a write
/// beyond is cut short with ENOSPC), read-only (EROFS) or failing (EIO), and it can lose power
/// (`powerCut`: every file falls back to its durable bytes plus a chosen part of the rest, as a torn
/// write leaves it). Allocates freely: tests only, never the allocation proofs.
public final class SimulatedTrackFiles: TrackFileSystem {
    struct File {
        var bytes: [UInt8] = []
        var durableCount = 0
    }
    private(set) var files: [String: File] = [:]
    private var directories: Set<String> = []
    private var handles: [Int32: String] = [:]
    private var nextHandle: Int32 = 3
    /// Total bytes the disk holds; writes beyond are cut short with ENOSPC.
    public var capacityBytes = Int.max
    /// Every open for writing, write, truncate and remove fails with EROFS.
    public var readOnly = false
    /// Every write and sync fails with this error (nil: none).
    public var failingError: Errno? = nil
    /// Every sync fails with this error and makes nothing durable (nil: none): power is being cut.
    public var syncError: Errno? = nil
    /// `makeDirectory` fails with this error (nil: none): an existing directory puckd may not write.
    public var makeDirectoryError: Errno? = nil
    /// Calls of `sync`, for the tests.
    public private(set) var syncCount = 0

    public init() {}

    /// Bytes the disk holds now.
    public var usedBytes: Int { files.values.reduce(0) { $0 + $1.bytes.count } }

    /// The bytes of a file (nil when it does not exist).
    public func contents(_ path: String) -> [UInt8]? { files[path]?.bytes }

    /// Replaces a file's bytes (all durable), for damage tests.
    public func setContents(_ path: String, _ bytes: [UInt8]) { files[path] = File(bytes: bytes, durableCount: bytes.count) }

    /// Power is cut: each file keeps its durable bytes and `keep(path, unsyncedCount)` of the bytes after
    /// them (0 = all lost); open handles are gone.
    public func powerCut(keep: (String, Int) -> Int = { _, _ in 0 }) {
        for (path, file) in files {
            let unsynced = file.bytes.count - file.durableCount
            let kept = min(unsynced, max(0, keep(path, unsynced)))
            files[path]!.bytes.removeLast(unsynced - kept)
            files[path]!.durableCount = files[path]!.bytes.count
        }
        handles = [:]
    }

    public func makeDirectory(_ path: String) -> Errno? {
        if let makeDirectoryError { return makeDirectoryError }
        if readOnly && !directories.contains(path) { return .readOnlyFileSystem }
        directories.insert(path)
        return nil
    }

    public func list(_ directory: String) -> Result<[String], TrackIOError> {
        guard directories.contains(directory) else { return .failure(TrackIOError(.noSuchFileOrDirectory)) }
        let prefix = directory + "/"
        return .success(files.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) })
    }

    public func read(_ path: String) -> Result<[UInt8], TrackIOError> {
        guard let file = files[path] else { return .failure(TrackIOError(.noSuchFileOrDirectory)) }
        return .success(file.bytes)
    }

    public func openAppending(_ path: UnsafePointer<CChar>, create: Bool) -> Result<TrackFileHandle, TrackIOError> {
        let name = String(cString: path)
        if readOnly { return .failure(TrackIOError(.readOnlyFileSystem)) }
        if files[name] == nil {
            guard create else { return .failure(TrackIOError(.noSuchFileOrDirectory)) }
            files[name] = File()
        }
        let handle = nextHandle
        nextHandle += 1
        handles[handle] = name
        return .success(TrackFileHandle(known: handle))
    }

    public func write(_ file: TrackFileHandle, _ bytes: UnsafeRawBufferPointer) -> (written: Int, error: Errno?) {
        guard let name = handles[file.rawValue] else { return (0, .badFileDescriptor) }
        if readOnly { return (0, .readOnlyFileSystem) }
        if let failingError { return (0, failingError) }
        let room = max(0, capacityBytes - usedBytes)
        let n = min(room, bytes.count)
        files[name]!.bytes.append(contentsOf: bytes[0..<n])
        return (n, n < bytes.count ? .noSpace : nil)
    }

    public func sync(_ file: TrackFileHandle) -> Errno? {
        guard let name = handles[file.rawValue] else { return .badFileDescriptor }
        if let failingError { return failingError }
        if let syncError { return syncError }
        syncCount += 1
        files[name]!.durableCount = files[name]!.bytes.count
        return nil
    }

    public func truncate(_ file: TrackFileHandle, length: Int64) -> Errno? {
        guard let name = handles[file.rawValue] else { return .badFileDescriptor }
        if readOnly { return .readOnlyFileSystem }
        let n = Int(length)
        if n < files[name]!.bytes.count { files[name]!.bytes.removeLast(files[name]!.bytes.count - n) }
        files[name]!.durableCount = min(files[name]!.durableCount, n)
        return nil
    }

    public func close(_ file: TrackFileHandle) { handles[file.rawValue] = nil }

    public func remove(_ path: UnsafePointer<CChar>) -> Errno? {
        if readOnly { return .readOnlyFileSystem }
        return files.removeValue(forKey: String(cString: path)) == nil ? .noSuchFileOrDirectory : nil
    }

    public func rename(_ from: String, _ to: String) -> Errno? {
        if readOnly { return .readOnlyFileSystem }
        guard let file = files.removeValue(forKey: from) else { return .noSuchFileOrDirectory }
        files[to] = file
        return nil
    }

    public func syncDirectory(_ path: UnsafePointer<CChar>) -> Errno? { nil }
}
