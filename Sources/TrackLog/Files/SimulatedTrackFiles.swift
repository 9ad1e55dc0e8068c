import Glibc
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
    /// Every write and sync fails with this errno (0: none).
    public var failingErrno: Int32 = 0
    /// Every sync fails with this errno and makes nothing durable (0: none): power is being cut.
    public var syncErrno: Int32 = 0
    /// `makeDirectory` fails with this errno (0: none): an existing directory puckd may not write.
    public var makeDirectoryErrno: Int32 = 0
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

    public func makeDirectory(_ path: String) -> Int32 {
        if makeDirectoryErrno != 0 { return makeDirectoryErrno }
        if readOnly && !directories.contains(path) { return EROFS }
        directories.insert(path)
        return 0
    }

    public func list(_ directory: String) -> Result<[String], TrackIOError> {
        guard directories.contains(directory) else { return .failure(TrackIOError(errno: ENOENT)) }
        let prefix = directory + "/"
        return .success(files.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) })
    }

    public func read(_ path: String) -> Result<[UInt8], TrackIOError> {
        guard let file = files[path] else { return .failure(TrackIOError(errno: ENOENT)) }
        return .success(file.bytes)
    }

    public func openAppending(_ path: UnsafePointer<CChar>, create: Bool) -> Result<TrackFileHandle, TrackIOError> {
        let name = String(cString: path)
        if readOnly { return .failure(TrackIOError(errno: EROFS)) }
        if files[name] == nil {
            guard create else { return .failure(TrackIOError(errno: ENOENT)) }
            files[name] = File()
        }
        let handle = nextHandle
        nextHandle += 1
        handles[handle] = name
        return .success(TrackFileHandle(known: handle))
    }

    public func write(_ file: TrackFileHandle, _ bytes: UnsafeRawBufferPointer) -> (written: Int, error: Int32) {
        guard let name = handles[file.rawValue] else { return (0, EBADF) }
        if readOnly { return (0, EROFS) }
        if failingErrno != 0 { return (0, failingErrno) }
        let room = max(0, capacityBytes - usedBytes)
        let n = min(room, bytes.count)
        files[name]!.bytes.append(contentsOf: bytes[0..<n])
        return (n, n < bytes.count ? ENOSPC : 0)
    }

    public func sync(_ file: TrackFileHandle) -> Int32 {
        guard let name = handles[file.rawValue] else { return EBADF }
        if failingErrno != 0 { return failingErrno }
        if syncErrno != 0 { return syncErrno }
        syncCount += 1
        files[name]!.durableCount = files[name]!.bytes.count
        return 0
    }

    public func truncate(_ file: TrackFileHandle, length: Int64) -> Int32 {
        guard let name = handles[file.rawValue] else { return EBADF }
        if readOnly { return EROFS }
        let n = Int(length)
        if n < files[name]!.bytes.count { files[name]!.bytes.removeLast(files[name]!.bytes.count - n) }
        files[name]!.durableCount = min(files[name]!.durableCount, n)
        return 0
    }

    public func close(_ file: TrackFileHandle) { handles[file.rawValue] = nil }

    public func remove(_ path: UnsafePointer<CChar>) -> Int32 {
        if readOnly { return EROFS }
        return files.removeValue(forKey: String(cString: path)) == nil ? ENOENT : 0
    }

    public func rename(_ from: String, _ to: String) -> Int32 {
        if readOnly { return EROFS }
        guard let file = files.removeValue(forKey: from) else { return ENOENT }
        files[to] = file
        return 0
    }

    public func syncDirectory(_ path: UnsafePointer<CChar>) -> Int32 { 0 }
}
