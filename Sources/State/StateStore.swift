import CLinux
import Glibc

/// What loading the state file found.
public enum StateLoadOutcome: Sendable, Equatable {
    /// No state file yet (first start): defaults apply.
    case none
    /// The saved state.
    case loaded(DeviceStateRecord)
    /// The file was damaged; it was renamed to `movedTo` (nil when even that failed) and defaults apply.
    case corrupt(StateRecordError, movedTo: String?)
    /// The file exists but cannot be read (errno); it was moved to `movedTo` (nil when even that failed)
    /// and defaults apply.
    case unreadable(errno: Int32, movedTo: String?)
}

/// The state file `DIRECTORY/state`, written atomically: the record goes to `state.tmp` in the same
/// directory, which is written, fsync'ed, renamed over `state`, and then the directory is fsync'ed, so
/// after a crash or power loss the file is either the old or the new record, never a mix (a `state.tmp`
/// left by a save that was cut short is removed at the next start). A file that fails to decode or
/// cannot be read is moved aside to `state.corrupt`. A record equal to the last one written is not
/// written again.
///
/// Paths and the write buffers are prepared in `open`; `save` allocates nothing.
public final class StateStore {
    /// The state directory.
    public let directory: String
    /// `directory/state`.
    public let path: String
    /// Where a corrupt file is moved.
    public let corruptPath: String
    /// Successful writes since start.
    public private(set) var writeCount = 0
    /// Failed writes since start.
    public private(set) var failedWriteCount = 0
    /// errno of the last failed write (0 after a successful one).
    public private(set) var lastWriteErrno: Int32 = 0
    /// Saves skipped because the record equals the one last written (or loaded).
    public private(set) var unchangedSaveCount = 0
    /// True when `open` found and removed a `state.tmp` left by a save that was cut short.
    public private(set) var removedStaleTemporary = false

    private let pathC: [CChar]
    private let temporaryC: [CChar]
    private let directoryFD: Int32
    private let buffer: UnsafeMutableRawBufferPointer
    /// The bytes of the state file as last written or loaded (`lastCount` of them; 0 = unknown).
    private let lastBytes: UnsafeMutableRawBufferPointer
    private var lastCount = 0

    private init(directory: String, directoryFD: Int32) {
        self.directory = directory
        path = directory + "/state"
        corruptPath = directory + "/state.corrupt"
        pathC = Array(path.utf8CString)
        temporaryC = Array((directory + "/state.tmp").utf8CString)
        self.directoryFD = directoryFD
        buffer = .allocate(byteCount: 512, alignment: 8)
        lastBytes = .allocate(byteCount: 512, alignment: 8)
        if unlink(directory + "/state.tmp") == 0 {
            removedStaleTemporary = true
            fsync(directoryFD)
        }
    }

    deinit {
        Glibc.close(directoryFD)
        buffer.deallocate()
        lastBytes.deallocate()
    }

    /// Opens the state directory, creating it (one level, mode 0755) when missing. Fails with the errno
    /// and a sentence saying how to fix it.
    public static func open(directory: String) -> Result<StateStore, StateStoreError> {
        var fd = clinux_directory_open(directory)
        if fd == -ENOENT {
            if mkdir(directory, 0o755) != 0 && errno != EEXIST {
                return .failure(StateStoreError(directory: directory, errno: errno, creating: true))
            }
            fd = clinux_directory_open(directory)
        }
        if fd < 0 { return .failure(StateStoreError(directory: directory, errno: -fd, creating: false)) }
        if access(directory, W_OK) != 0 {
            let code = errno
            Glibc.close(fd)
            return .failure(StateStoreError(directory: directory, errno: code, creating: false))
        }
        return .success(StateStore(directory: directory, directoryFD: fd))
    }

    /// Reads the state file (start-up). A damaged or unreadable file is moved to `corruptPath`.
    public func load() -> StateLoadOutcome {
        // O_NONBLOCK | O_NOCTTY: a FIFO or device put in the file's place opens at once (and is moved
        // aside below) instead of blocking the start.
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        if fd < 0 {
            let code = errno
            return code == ENOENT ? .none : .unreadable(errno: code, movedTo: moveAside() ? corruptPath : nil)
        }
        var info = stat()
        if fstat(fd, &info) != 0 || (info.st_mode & S_IFMT) != S_IFREG {
            Glibc.close(fd)
            return .unreadable(errno: (info.st_mode & S_IFMT) == S_IFDIR ? EISDIR : EINVAL,
                               movedTo: moveAside() ? corruptPath : nil)
        }
        var count = 0
        var failure: Int32 = 0
        while count < buffer.count {
            let n = Glibc.read(fd, buffer.baseAddress! + count, buffer.count - count)
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            if n == 0 { break }
            count += n
        }
        Glibc.close(fd)
        if failure != 0 { return .unreadable(errno: failure, movedTo: moveAside() ? corruptPath : nil) }
        do throws(StateRecordError) {
            let record = try DeviceStateRecord(bytes: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            remember(count)
            return .loaded(record)
        } catch {
            return .corrupt(error, movedTo: moveAside() ? corruptPath : nil)
        }
    }

    /// Renames the state file to `corruptPath`; true when that worked.
    private func moveAside() -> Bool {
        guard rename(path, corruptPath) == 0 else { return false }
        fsync(directoryFD)
        return true
    }

    /// Keeps the first `count` bytes of `buffer` as the file's current content.
    private func remember(_ count: Int) {
        var i = 0
        while i < count { lastBytes[i] = buffer[i]; i += 1 }
        lastCount = count
    }

    /// True when the first `count` bytes of `buffer` are the file's current content.
    private func isUnchanged(_ count: Int) -> Bool {
        guard count == lastCount, count > 0 else { return false }
        var i = 0
        while i < count {
            if lastBytes[i] != buffer[i] { return false }
            i += 1
        }
        return true
    }

    /// Writes `record` atomically. Returns 0, or the errno of the step that failed (the old file is then
    /// still in place). Allocation-free.
    @discardableResult
    public func save(_ record: DeviceStateRecord) -> Int32 {
        let size = record.encode(into: buffer)
        if isUnchanged(size) {
            unchangedSaveCount += 1
            return 0
        }
        let result = pathC.withUnsafeBufferPointer { target in
            temporaryC.withUnsafeBufferPointer { temporary -> Int32 in
                let fd = Glibc.open(temporary.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                if fd < 0 { return errno }
                var offset = 0
                while offset < size {
                    let n = Glibc.write(fd, buffer.baseAddress! + offset, size - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        let code = errno
                        Glibc.close(fd)
                        unlink(temporary.baseAddress!)
                        return code
                    }
                    offset += n
                }
                if fsync(fd) != 0 {
                    let code = errno
                    Glibc.close(fd)
                    unlink(temporary.baseAddress!)
                    return code
                }
                Glibc.close(fd)
                if rename(temporary.baseAddress!, target.baseAddress!) != 0 {
                    let code = errno
                    unlink(temporary.baseAddress!)
                    return code
                }
                fsync(directoryFD)
                return 0
            }
        }
        lastWriteErrno = result
        if result == 0 {
            writeCount += 1
            remember(size)
        } else {
            failedWriteCount += 1
            lastCount = 0
        }
        return result
    }
}

/// The state directory cannot be used; `message` says why and what to do.
public struct StateStoreError: Error, Sendable, Equatable {
    public var directory: String
    public var errno: Int32
    /// True when creating the directory failed.
    public var creating: Bool

    public var message: String {
        let reason = String(cString: strerror(errno))
        let verb = creating ? "cannot create " : "cannot write to "
        return verb + directory + " (" + reason + "): the state (mode, calibration, last fix) will not be saved; "
            + "make the directory writable for this user or set [state] directory"
    }
}
