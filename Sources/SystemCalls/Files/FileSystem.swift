import Glibc

/// The path-level syscalls (rename, unlink, mkdir, stat) with typed errors; no allocation for
/// native Strings.
public enum FileSystem {
    /// rename(2): replaces `destination` atomically (both on one file system).
    public static func rename(_ source: String, to destination: String) throws(Errno) {
        let result = source.withCString { from in
            destination.withCString { to in Glibc.rename(from, to) }
        }
        _ = try Errno.check(minusOne: result)
    }

    /// rename(2) of NUL-terminated paths (the loop's form: a String path may be copied to a C string).
    public static func rename(_ source: UnsafePointer<CChar>, to destination: UnsafePointer<CChar>) throws(Errno) {
        _ = try Errno.check(minusOne: Glibc.rename(source, destination))
    }

    /// unlink(2) of a NUL-terminated path.
    public static func unlink(_ path: UnsafePointer<CChar>) throws(Errno) {
        _ = try Errno.check(minusOne: Glibc.unlink(path))
    }

    /// unlink(2).
    public static func unlink(_ path: String) throws(Errno) {
        _ = try Errno.check(minusOne: path.withCString { Glibc.unlink($0) })
    }

    /// mkdir(2) with `permissions` (e.g. 0o755).
    public static func makeDirectory(_ path: String, permissions: UInt32 = 0o755) throws(Errno) {
        _ = try Errno.check(minusOne: path.withCString { Glibc.mkdir($0, mode_t(permissions)) })
    }

    /// access(2) with W_OK: throws when this process may not write to `path` (EACCES, EROFS, …).
    public static func checkWritable(_ path: String) throws(Errno) {
        _ = try Errno.check(minusOne: path.withCString { Glibc.access($0, W_OK) })
    }

    /// realpath(3): the absolute path with every symbolic link resolved, or nil (allocates).
    public static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// mkstemp(3) with close-on-exec: a new file `prefix` + six random characters, opened for
    /// reading and writing with mode 0600; its descriptor and path.
    public static func makeTemporaryFile(prefix: String) throws(Errno) -> (FileDescriptor, path: String) {
        var template = Array((prefix + "XXXXXX").utf8CString)
        let fd = try FileDescriptor.check(minusOne: template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) })
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        do throws(Errno) {
            try fd.setCloseOnExec()
        } catch {
            try? fd.close()
            try? unlink(path)
            throw error
        }
        return (fd, path)
    }

    /// fsync(2) of the directory at `path`, so a rename inside it survives a power cut.
    public static func syncDirectory(_ path: String) throws(Errno) {
        let directory = try FileDescriptor.open(path, .readOnly, options: [.directory, .closeOnExec])
        defer { try? directory.close() }
        try directory.sync()
    }

    /// What stat(2) says of a path that puckd needs: its kind, size, owner and mode bits.
    public struct Status: Sendable, Equatable {
        public let isRegularFile: Bool
        public let isDirectory: Bool
        public let isCharacterDevice: Bool
        public let isSymbolicLink: Bool
        public let sizeBytes: Int64
        public let ownerID: UInt32
        public let groupID: UInt32
        /// The permission bits (mode & 0o7777).
        public let permissions: UInt32

        init(_ raw: stat) {
            let kind = raw.st_mode & S_IFMT
            isRegularFile = kind == S_IFREG
            isDirectory = kind == S_IFDIR
            isCharacterDevice = kind == S_IFCHR
            isSymbolicLink = kind == S_IFLNK
            sizeBytes = Int64(raw.st_size)
            ownerID = raw.st_uid
            groupID = raw.st_gid
            permissions = UInt32(raw.st_mode & 0o7777)
        }
    }

    /// stat(2), or lstat(2) when `followingLinks` is false (a symbolic link then reports as itself).
    public static func status(_ path: String, followingLinks: Bool = true) throws(Errno) -> Status {
        var raw = stat()
        let result = followingLinks ? stat(path, &raw) : lstat(path, &raw)
        _ = try Errno.check(minusOne: result)
        return Status(raw)
    }
}

extension FileDescriptor {
    /// fchmod(2): the permission bits (e.g. 0o644).
    public func setPermissions(_ permissions: UInt32) throws(Errno) {
        _ = try retryingInterrupts { Glibc.fchmod(rawValue, mode_t(permissions)) }
    }

    /// fchown(2) of the group only (the owner is left as it is).
    public func setGroup(_ gid: UInt32) throws(Errno) {
        _ = try retryingInterrupts { Glibc.fchown(rawValue, uid_t.max, gid) }
    }

    /// fstat(2) of the open descriptor.
    public func status() throws(Errno) -> FileSystem.Status {
        var raw = stat()
        _ = try retryingInterrupts { Glibc.fstat(rawValue, &raw) }
        return FileSystem.Status(raw)
    }
}

extension FileSystem {
    /// link(2): a second name `newPath` for the file at `existing` (same file system).
    public static func makeHardLink(_ existing: String, at newPath: String) throws(Errno) {
        let result = existing.withCString { from in newPath.withCString { to in Glibc.link(from, to) } }
        _ = try Errno.check(minusOne: result)
    }
}
