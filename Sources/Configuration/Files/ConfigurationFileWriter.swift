import Glibc

/// Writes a configuration file atomically (`config save`): the text goes to a temporary file in the
/// same directory, which is written, given safe permissions (the original's without write access
/// for group and others and without set-id bits; 0644 for a new file) and owned by the user puckd
/// runs as, fsync'ed and renamed over the file; then the directory is fsync'ed. A crash at any
/// moment leaves either the old or the new file. A symbolic link is kept: its target is replaced.
public enum ConfigurationFileWriter {
    /// Why the file could not be written; `message` says what to do. The file is unchanged.
    public struct Failure: Error, Equatable, Sendable {
        public var path: String
        public var step: String
        public var errno: Int32

        public var message: String { message(underSystemd: getenv("INVOCATION_ID") != nil) }

        /// The message; `underSystemd` (a unit started puckd: `$INVOCATION_ID`) explains a read-only /etc.
        public func message(underSystemd unit: Bool) -> String {
            let reason = String(cString: strerror(errno))
            if errno == EROFS {
                return "cannot write " + path + " (" + reason + "): " + (unit
                    ? "the systemd unit mounts /etc read-only for puckd (ProtectSystem=strict), so the console cannot "
                        + "save there; make the change in " + path + " as root (sudoedit " + path
                        + ", then systemctl reload puckd), or let puckd save its own file: systemctl edit puckd, add "
                        + "[Service] ReadWritePaths=/etc/puckd and run it with --config /etc/puckd/puckd.conf"
                    : "the file system is mounted read-only; edit the file where it is writable, or start puckd with "
                        + "--config FILE naming a file on a writable file system") + "; the file is unchanged"
            }
            if errno == EACCES || errno == EPERM {
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
        // Safe permissions: the original's read bits (and its owner's), never group/world write or
        // set-id bits; the new file belongs to the user puckd runs as (a foreign owner is not kept).
        let mode = exists ? info.st_mode & 0o0755 : 0o644
        if exists && info.st_gid != getegid() {
            _ = fchown(fd, uid_t.max, info.st_gid)   // keep the group (root:puckd 0640 stays readable by puckd)
        }
        if fchmod(fd, mode) != 0 { throw fail("setting its permissions", errno) }
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
