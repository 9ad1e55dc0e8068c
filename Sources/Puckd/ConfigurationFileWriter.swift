import Glibc

/// Writes a configuration file atomically (`config save`): the text goes to a temporary file in the
/// same directory, which is written, given the original's permissions (and owner when allowed),
/// fsync'ed and renamed over the file; then the directory is fsync'ed. A crash at any moment leaves
/// either the old or the new file. A symbolic link is kept: its target is replaced.
public enum ConfigurationFileWriter {
    /// Why the file could not be written; `message` says what to do. The file is unchanged.
    public struct Failure: Error, Equatable, Sendable {
        public var path: String
        public var step: String
        public var errno: Int32

        public var message: String {
            let reason = String(cString: strerror(errno))
            if errno == EACCES || errno == EPERM || errno == EROFS {
                return "cannot write " + path + " (" + reason + "): run puckd as a user that may write it, or start it "
                    + "with --config FILE naming a file it may write; the file is unchanged"
            }
            return "writing " + path + " failed while " + step + " (" + reason + "); the file is unchanged"
        }
    }

    /// Replaces the file at `path` with `text`.
    public static func write(_ text: String, to path: String) throws(Failure) {
        var target = path
        if let resolved = realpath(path, nil) {
            target = String(cString: resolved)
            free(resolved)
        }
        let slash = target.lastIndex(of: "/")
        let directory = slash.map { $0 == target.startIndex ? "/" : String(target[..<$0]) } ?? "."
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        var info = stat()
        let exists = stat(target, &info) == 0
        if exists && access(target, W_OK) != 0 { throw Failure(path: path, step: "checking it", errno: errno) }
        if access(directory, W_OK) != 0 { throw Failure(path: path, step: "checking its directory", errno: errno) }
        var template = Array((directory + "/." + name + ".puckd-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd < 0 { throw Failure(path: path, step: "creating a temporary file", errno: errno) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        func fail(_ step: String, _ code: Int32) -> Failure {
            Glibc.close(fd)
            unlink(temporary)
            return Failure(path: path, step: step, errno: code)
        }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw fail("writing", errno)
            }
            offset += n
        }
        bytes.removeAll()
        let mode = exists ? info.st_mode & 0o7777 : 0o644
        if fchmod(fd, mode) != 0 { throw fail("setting its permissions", errno) }
        if exists && (info.st_uid != geteuid() || info.st_gid != getegid()) {
            _ = fchown(fd, info.st_uid, info.st_gid)   // allowed for root only; a user's file keeps the user anyway
        }
        if fsync(fd) != 0 { throw fail("syncing it to disk", errno) }
        if Glibc.close(fd) != 0 {
            let code = errno
            unlink(temporary)
            throw Failure(path: path, step: "closing it", errno: code)
        }
        if rename(temporary, target) != 0 {
            let code = errno
            unlink(temporary)
            throw Failure(path: path, step: "replacing it", errno: code)
        }
        let directoryFD = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            Glibc.close(directoryFD)
        }
    }
}
