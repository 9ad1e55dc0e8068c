import SystemCalls

/// An open track file: the descriptor of a real file, or the handle number of a simulated one.
public typealias TrackFileHandle = FileDescriptor

/// The file operations the track journal needs, so the writer runs against real files
/// (`PosixTrackFiles`) and against a simulated disk that can fill up, turn read-only or lose power
/// (`SimulatedTrackFiles`). Errors are errno values. The per-flush operations take C paths from the
/// writer's fixed buffers and allocate nothing in the real implementation.
public protocol TrackFileSystem {
    /// Creates the directory (and missing parents); 0 or errno. Start-up only.
    func makeDirectory(_ path: String) -> Int32
    /// Names of the entries of a directory. Start-up and the reader only.
    func list(_ directory: String) -> Result<[String], TrackIOError>
    /// The whole file. Start-up and the reader only.
    func read(_ path: String) -> Result<[UInt8], TrackIOError>
    /// Opens for appending, creating it (mode 0644) when `create`.
    func openAppending(_ path: UnsafePointer<CChar>, create: Bool) -> Result<TrackFileHandle, TrackIOError>
    /// Writes all of `bytes` (retrying short writes and EINTR); how many were written before an error.
    func write(_ file: TrackFileHandle, _ bytes: UnsafeRawBufferPointer) -> (written: Int, error: Int32)
    /// fsync; 0 or errno.
    func sync(_ file: TrackFileHandle) -> Int32
    /// Cuts the file to `length` bytes; 0 or errno.
    func truncate(_ file: TrackFileHandle, length: Int64) -> Int32
    func close(_ file: TrackFileHandle)
    /// unlink; 0 or errno.
    func remove(_ path: UnsafePointer<CChar>) -> Int32
    /// rename; 0 or errno.
    func rename(_ from: String, _ to: String) -> Int32
    /// fsync of the directory (after creating or removing a segment); 0 or errno.
    func syncDirectory(_ path: UnsafePointer<CChar>) -> Int32
}

/// An errno from a track file operation, with the path it concerned.
public struct TrackIOError: Error, Sendable, Equatable {
    public var errno: Int32
    public init(errno: Int32) { self.errno = errno }
}
