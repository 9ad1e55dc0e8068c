import SystemCalls

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
        public var error: Errno

        public var message: String { message(underSystemd: ProcessIdentity.environment("INVOCATION_ID") != nil) }

        /// The message; `underSystemd` (a unit started puckd: `$INVOCATION_ID`) explains a read-only /etc.
        public func message(underSystemd unit: Bool) -> String {
            let reason = error.message
            if error == .readOnlyFileSystem {
                return "cannot write " + path + " (" + reason + "): " + (unit
                    ? "the systemd unit mounts /etc read-only for puckd (ProtectSystem=strict), so the console cannot "
                        + "save there; make the change in " + path + " as root (sudoedit " + path
                        + ", then systemctl reload puckd), or let puckd save its own file: systemctl edit puckd, add "
                        + "[Service] ReadWritePaths=/etc/puckd and run it with --config /etc/puckd/puckd.conf"
                    : "the file system is mounted read-only; edit the file where it is writable, or start puckd with "
                        + "--config FILE naming a file on a writable file system") + "; the file is unchanged"
            }
            if error == .permissionDenied || error == .notPermitted {
                return "cannot write " + path + " (" + reason + "): run puckd as a user that may write it, or start it "
                    + "with --config FILE naming a file it may write; the file is unchanged"
            }
            return "writing " + path + " failed while " + step + " (" + reason + "); the file is unchanged"
        }
    }

    /// Replaces the file at `path` with `text`.
    public static func write(_ text: String, to path: String) throws(Failure) {
        let target = FileSystem.resolvedPath(path) ?? path
        let slash = target.lastIndex(of: "/")
        let directory = slash.map { $0 == target.startIndex ? "/" : String(target[..<$0]) } ?? "."
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        let info = try? FileSystem.status(target)
        func step(_ step: String, _ call: () throws(Errno) -> Void) throws(Failure) {
            do throws(Errno) { try call() } catch { throw Failure(path: path, step: step, error: error) }
        }
        if info != nil { try step("checking it") { () throws(Errno) in try FileSystem.checkWritable(target) } }
        try step("checking its directory") { () throws(Errno) in try FileSystem.checkWritable(directory) }
        let fd: FileDescriptor, temporary: String
        do throws(Errno) {
            (fd, temporary) = try FileSystem.makeTemporaryFile(prefix: directory + "/." + name + ".puckd-")
        } catch {
            throw Failure(path: path, step: "creating a temporary file", error: error)
        }
        func stepOrRemove(_ name: String, _ call: () throws(Errno) -> Void) throws(Failure) {
            do throws(Errno) { try call() } catch {
                try? fd.close()
                try? FileSystem.unlink(temporary)
                throw Failure(path: path, step: name, error: error)
            }
        }
        try stepOrRemove("writing") { () throws(Errno) in
            try Array(text.utf8).withUnsafeBytes { bytes in Result { () throws(Errno) in try fd.writeAll(bytes) } }.get()
        }
        // Safe permissions: the original's read bits (and its owner's), never group/world write or
        // set-id bits; the new file belongs to the user puckd runs as (a foreign owner is not kept).
        let mode = info.map { $0.permissions & 0o0755 } ?? 0o644
        if let info, info.groupID != ProcessIdentity.effectiveGroupID {
            try? fd.setGroup(info.groupID)   // keep the group (root:puckd 0640 stays readable by puckd)
        }
        try stepOrRemove("setting its permissions") { () throws(Errno) in try fd.setPermissions(mode) }
        try stepOrRemove("syncing it to disk") { () throws(Errno) in try fd.sync() }
        do throws(Errno) {
            try fd.close()
        } catch {
            try? FileSystem.unlink(temporary)
            throw Failure(path: path, step: "closing it", error: error)
        }
        do throws(Errno) {
            try FileSystem.rename(temporary, to: target)
        } catch {
            try? FileSystem.unlink(temporary)
            throw Failure(path: path, step: "replacing it", error: error)
        }
        try? FileSystem.syncDirectory(directory)
    }
}
