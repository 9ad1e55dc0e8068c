import SystemCalls

/// What loading the state file found.
public enum StateLoadOutcome: Sendable, Equatable {
    /// No state file yet (first start): defaults apply.
    case none
    /// The saved state.
    case loaded(DeviceStateRecord)
    /// The file was damaged; it was renamed to `movedTo` (nil when even that failed) and defaults apply.
    case corrupt(StateRecordError, movedTo: String?)
    /// The file exists but cannot be read; it was moved to `movedTo` (nil when even that failed) and
    /// defaults apply.
    case unreadable(Errno, movedTo: String?)
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
    /// The error of the last failed write (nil after a successful one).
    public private(set) var lastWriteError: Errno?
    /// Saves skipped because the record equals the one last written (or loaded).
    public private(set) var unchangedSaveCount = 0
    /// True when `open` found and removed a `state.tmp` left by a save that was cut short.
    public private(set) var removedStaleTemporary = false

    private let temporaryPath: String
    /// `path` and `temporaryPath` as C strings, made once: `save` hands them to the kernel as they are.
    private let pathC: [CChar]
    private let temporaryC: [CChar]
    private let directoryFD: FileDescriptor
    private let buffer: UnsafeMutableRawBufferPointer
    /// The bytes of the state file as last written or loaded (`lastCount` of them; 0 = unknown).
    private let lastBytes: UnsafeMutableRawBufferPointer
    private var lastCount = 0

    private init(directory: String, directoryFD: FileDescriptor) {
        self.directory = directory
        path = directory + "/state"
        corruptPath = directory + "/state.corrupt"
        temporaryPath = directory + "/state.tmp"
        pathC = Array(path.utf8CString)
        temporaryC = Array(temporaryPath.utf8CString)
        self.directoryFD = directoryFD
        buffer = .allocate(byteCount: 512, alignment: 8)
        lastBytes = .allocate(byteCount: 512, alignment: 8)
        if (try? FileSystem.unlink(temporaryPath)) != nil {
            removedStaleTemporary = true
            try? directoryFD.sync()
        }
    }

    deinit {
        try? directoryFD.close()
        buffer.deallocate()
        lastBytes.deallocate()
    }

    /// Opens the state directory, creating it (one level, mode 0755) when missing. Fails with the error
    /// and a sentence saying how to fix it.
    public static func open(directory: String) -> Result<StateStore, StateStoreError> {
        func openDirectory() throws(Errno) -> FileDescriptor {
            try FileDescriptor.open(directory, .readOnly, options: [.directory, .closeOnExec])
        }
        let fd: FileDescriptor
        do throws(Errno) {
            do throws(Errno) {
                fd = try openDirectory()
            } catch .noSuchFileOrDirectory {
                do throws(Errno) {
                    try FileSystem.makeDirectory(directory, permissions: 0o755)
                } catch where error != .fileExists {
                    return .failure(StateStoreError(directory: directory, error: error, creating: true))
                }
                fd = try openDirectory()
            }
        } catch {
            return .failure(StateStoreError(directory: directory, error: error, creating: false))
        }
        do throws(Errno) {
            try FileSystem.checkWritable(directory)
        } catch {
            try? fd.close()
            return .failure(StateStoreError(directory: directory, error: error, creating: false))
        }
        return .success(StateStore(directory: directory, directoryFD: fd))
    }

    /// Reads the state file (start-up). A damaged or unreadable file is moved to `corruptPath`.
    public func load() -> StateLoadOutcome {
        // O_NONBLOCK | O_NOCTTY: a FIFO or device put in the file's place opens at once (and is moved
        // aside below) instead of blocking the start.
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec, .nonBlocking, .noControllingTerminal])
        } catch {
            return error == .noSuchFileOrDirectory ? .none : .unreadable(error, movedTo: moveAside() ? corruptPath : nil)
        }
        let kind = try? fd.status()
        if kind?.isRegularFile != true {
            try? fd.close()
            return .unreadable(kind?.isDirectory == true ? .isADirectory : .invalidArgument,
                               movedTo: moveAside() ? corruptPath : nil)
        }
        var count = 0
        var failure: Errno?
        while count < buffer.count {
            do throws(Errno) {
                let n = try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
                if n == 0 { break }
                count += n
            } catch {
                failure = error
                break
            }
        }
        try? fd.close()
        if let failure { return .unreadable(failure, movedTo: moveAside() ? corruptPath : nil) }
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
        guard (try? FileSystem.rename(path, to: corruptPath)) != nil else { return false }
        try? directoryFD.sync()
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

    /// Writes `record` atomically. Returns nil, or the error of the step that failed (the old file is
    /// then still in place). Allocation-free.
    @discardableResult
    public func save(_ record: DeviceStateRecord) -> Errno? {
        let size = record.encode(into: buffer)
        if isUnchanged(size) {
            unchangedSaveCount += 1
            return nil
        }
        var failure: Errno?
        do throws(Errno) {
            try writeTemporaryAndRename(UnsafeRawBufferPointer(rebasing: buffer[0..<size]))
        } catch {
            failure = error
        }
        lastWriteError = failure
        if failure == nil {
            writeCount += 1
            remember(size)
        } else {
            failedWriteCount += 1
            lastCount = 0
        }
        return failure
    }

    /// A constant, not an array literal at the call: a literal allocates its array in a debug build.
    private static let temporaryOptions: FileDescriptor.OpenOptions = [.create, .truncate, .closeOnExec]

    /// `state.tmp` written and fsync'ed, renamed over `state`, then the directory fsync'ed; on a
    /// failure `state.tmp` is removed and the old file stays.
    private func writeTemporaryAndRename(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        try temporaryC.withUnsafeBufferPointer { (temporary) throws(Errno) in
            try pathC.withUnsafeBufferPointer { (target) throws(Errno) in
                let temporary = temporary.baseAddress!, target = target.baseAddress!
                let fd = try FileDescriptor.open(temporary, .writeOnly, options: Self.temporaryOptions, permissions: 0o644)
                do throws(Errno) {
                    try fd.writeAll(bytes)
                    try fd.sync()
                } catch {
                    try? fd.close()
                    try? FileSystem.unlink(temporary)
                    throw error
                }
                try? fd.close()
                do throws(Errno) {
                    try FileSystem.rename(temporary, to: target)
                } catch {
                    try? FileSystem.unlink(temporary)
                    throw error
                }
            }
        }
        try? directoryFD.sync()
    }
}

/// The state directory cannot be used; `message` says why and what to do.
public struct StateStoreError: Error, Sendable, Equatable {
    public var directory: String
    public var error: Errno
    /// True when creating the directory failed.
    public var creating: Bool

    public var message: String {
        let reason = error.message
        let verb = creating ? "cannot create " : "cannot write to "
        return verb + directory + " (" + reason + "): the state (mode, calibration, last fix) will not be saved; "
            + "make the directory writable for this user or set [state] directory"
    }
}
