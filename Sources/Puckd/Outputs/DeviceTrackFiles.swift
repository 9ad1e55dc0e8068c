import SystemCalls
import TrackLog

/// The track journal's files as the device uses them: the board's disk with the durable flush on the
/// flusher thread, or the simulated disk (tests: a full, read-only or failing disk at the device
/// level). A concrete two-case enum, like `DeviceI2CBus`: the writer stays generic, no existential.
public enum DeviceTrackFiles: TrackFileSystem {
    case disk(FlushedTrackFiles)
    case simulated(SimulatedTrackFiles)

    /// The flusher thread of the real disk (nil for the simulated one: its syncs run in place).
    var flusher: TrackFlusher? {
        if case .disk(let files) = self { return files.flusher }
        return nil
    }

    public func makeDirectory(_ path: String) -> Errno? {
        switch self { case .disk(let f): f.makeDirectory(path); case .simulated(let f): f.makeDirectory(path) }
    }

    public func list(_ directory: String) -> Result<[String], TrackIOError> {
        switch self { case .disk(let f): f.list(directory); case .simulated(let f): f.list(directory) }
    }

    public func read(_ path: String) -> Result<[UInt8], TrackIOError> {
        switch self { case .disk(let f): f.read(path); case .simulated(let f): f.read(path) }
    }

    public func openAppending(_ path: UnsafePointer<CChar>, create: Bool) -> Result<TrackFileHandle, TrackIOError> {
        switch self {
        case .disk(let f): f.openAppending(path, create: create)
        case .simulated(let f): f.openAppending(path, create: create)
        }
    }

    public func write(_ file: TrackFileHandle, _ bytes: UnsafeRawBufferPointer) -> (written: Int, error: Errno?) {
        switch self { case .disk(let f): f.write(file, bytes); case .simulated(let f): f.write(file, bytes) }
    }

    public func sync(_ file: TrackFileHandle) -> Errno? {
        switch self { case .disk(let f): f.sync(file); case .simulated(let f): f.sync(file) }
    }

    public func truncate(_ file: TrackFileHandle, length: Int64) -> Errno? {
        switch self { case .disk(let f): f.truncate(file, length: length); case .simulated(let f): f.truncate(file, length: length) }
    }

    public func close(_ file: TrackFileHandle) {
        switch self { case .disk(let f): f.close(file); case .simulated(let f): f.close(file) }
    }

    public func remove(_ path: UnsafePointer<CChar>) -> Errno? {
        switch self { case .disk(let f): f.remove(path); case .simulated(let f): f.remove(path) }
    }

    public func rename(_ from: String, _ to: String) -> Errno? {
        switch self { case .disk(let f): f.rename(from, to); case .simulated(let f): f.rename(from, to) }
    }

    public func syncDirectory(_ path: UnsafePointer<CChar>) -> Errno? {
        switch self { case .disk(let f): f.syncDirectory(path); case .simulated(let f): f.syncDirectory(path) }
    }
}
