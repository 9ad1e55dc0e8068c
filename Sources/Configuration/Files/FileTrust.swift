import Glibc

/// Who may own and change a file puckd takes orders from (the configuration, a profile file, the
/// console's password hash), checked like sshd's StrictModes before the file is read: the owner is
/// root or the user puckd runs as; nobody else may write it (a group may only when it is root's or
/// puckd's own); its directory is not writable by everyone unless sticky (/tmp). A `secret` (the
/// password hash) may not be readable by others either. A file that fails is refused with a sentence
/// naming the problem and the command that fixes it.
public struct FileTrust {
    /// The file holds a secret: no read access beyond its owner and root's or puckd's group.
    public var secret = false

    /// Trust rules for an ordinary file (`secret: false`) or for a secret one.
    public init(secret: Bool = false) { self.secret = secret }

    /// nil when `path` (whose `fstat` is `info`) may be trusted, else why not and how to fix it.
    public func problem(path: String, info: stat) -> String? {
        let uid = geteuid(), gid = getegid()
        let mode = info.st_mode & 0o7777
        let modeText = "mode " + Self.octal(mode)
        if info.st_uid != 0 && info.st_uid != uid {
            return "owned by " + Self.user(info.st_uid) + ", neither root nor the user puckd runs as ("
                + Self.user(uid) + "): that user could " + purpose + "; make root its owner (sudo chown root "
                + path + ") or run puckd as that user"
        }
        if mode & S_IWOTH != 0 {
            return "writable by every user (" + modeText + "): anyone on this machine could " + purpose
                + "; remove the write permission (chmod o-w " + path + ")"
        }
        let trustedGroup = info.st_gid == 0 || info.st_gid == gid
        if mode & S_IWGRP != 0 && !trustedGroup {
            return "writable by group " + Self.group(info.st_gid) + " (" + modeText + "): its members could "
                + purpose + "; remove the group's write permission (chmod g-w " + path + ")"
        }
        if secret && (mode & S_IROTH != 0 || (mode & S_IRGRP != 0 && !trustedGroup)) {
            return "readable by " + (mode & S_IROTH != 0 ? "every user" : "group " + Self.group(info.st_gid)) + " ("
                + modeText + "): a password hash must be readable only by root and puckd's user; chmod 0600 "
                + path + " (or 0640 with puckd's group)"
        }
        let directory = Self.directory(of: path)
        var parent = stat()
        if stat(directory, &parent) == 0, parent.st_mode & S_IWOTH != 0, parent.st_mode & S_ISVTX == 0 {
            return "in " + directory + ", which every user may write to (mode " + Self.octal(parent.st_mode & 0o7777)
                + ", no sticky bit): anyone could replace the file; remove the write permission (chmod o-w "
                + directory + ") or move the file"
        }
        return nil
    }

    private var purpose: String { secret ? "replace the console password" : "reconfigure the board" }

    static func octal(_ mode: mode_t) -> String {
        let text = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }

    static func user(_ uid: uid_t) -> String {
        if let entry = getpwuid(uid), let name = entry.pointee.pw_name { return "uid " + String(uid) + " (" + String(cString: name) + ")" }
        return "uid " + String(uid)
    }

    static func group(_ gid: gid_t) -> String {
        if let entry = getgrgid(gid), let name = entry.pointee.gr_name { return String(gid) + " (" + String(cString: name) + ")" }
        return String(gid)
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
