import SystemCalls

/// An open track file: the descriptor of a real file, or the handle number of a simulated one.
public typealias TrackFileHandle = FileDescriptor

/// The file operations the track journal needs, so the writer runs against real files
/// (`PosixTrackFiles`) and against a simulated disk that can fill up, turn read-only or lose power
/// (`SimulatedTrackFiles`). Errors are SystemCalls' `Errno` (nil: it worked). The per-flush operations take C paths from the
/// writer's fixed buffers and allocate nothing in the real implementation.
public protocol TrackFileSystem {
    /// Creates the directory (and missing parents); nil or the error. Start-up only.
    func makeDirectory(_ path: String) -> Errno?
    /// Names of the entries of a directory. Start-up and the reader only.
    func list(_ directory: String) -> Result<[String], TrackIOError>
    /// The whole file. Start-up and the reader only.
    func read(_ path: String) -> Result<[UInt8], TrackIOError>
    /// Opens for appending, creating it (mode 0644) when `create`.
    func openAppending(_ path: UnsafePointer<CChar>, create: Bool) -> Result<TrackFileHandle, TrackIOError>
    /// Writes all of `bytes` (retrying short writes and EINTR); how many were written before an error.
    func write(_ file: TrackFileHandle, _ bytes: UnsafeRawBufferPointer) -> (written: Int, error: Errno?)
    /// fsync; nil or the error.
    func sync(_ file: TrackFileHandle) -> Errno?
    /// Cuts the file to `length` bytes; nil or the error.
    func truncate(_ file: TrackFileHandle, length: Int64) -> Errno?
    func close(_ file: TrackFileHandle)
    /// unlink; nil or the error.
    func remove(_ path: UnsafePointer<CChar>) -> Errno?
    /// unlink of a segment dropped for the size cap, whose name is never given again: it may run later,
    /// off the loop (`FlushedTrackFiles`); nil or the error known now. Defaults to `remove`.
    func removeDropped(_ path: UnsafePointer<CChar>) -> Errno?
    /// rename; nil or the error.
    func rename(_ from: String, _ to: String) -> Errno?
    /// fsync of the directory (after creating or removing a segment); nil or the error.
    func syncDirectory(_ path: UnsafePointer<CChar>) -> Errno?
    /// True when a segment rotation (closing, creating and dropping segments) can be handed over now
    /// without waiting (`FlushedTrackFiles`: room in the flusher's ring); false keeps the records
    /// buffered until a later flush. Defaults to true (the operations run in place).
    var canRotateWithoutWaiting: Bool { get }
}

extension TrackFileSystem {
    public func removeDropped(_ path: UnsafePointer<CChar>) -> Errno? { remove(path) }
    public var canRotateWithoutWaiting: Bool { true }
}

/// The error of a track file operation (a listing or a read the reader makes, an open).
public struct TrackIOError: Error, Sendable, Equatable {
    public var code: Errno
    public init(_ code: Errno) { self.code = code }
}
