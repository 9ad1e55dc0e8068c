import SystemCalls

/// Who may own and change a file puckd takes orders from (the configuration, a profile file, the
/// console's password hash), checked like sshd's StrictModes before the file is read: the owner is
/// root or the user puckd runs as; nobody else may write it (a group may only when it is root's or
/// puckd's own); its directory is not writable by everyone unless sticky (/tmp). A `secret` (the
/// password hash) may not be readable by others either. A file that fails is refused with a sentence
/// naming the problem and the command that fixes it.
public struct FileTrust {
    /// The file holds a secret: no read access beyond its owner and root's or puckd's group.
    public var secret = false
    /// What the secret is, for the refusal ("a password hash", "the MQTT password").
    public var secretName = "a password hash"
    /// What someone who could change it could do ("replace the console password").
    public var secretPurpose = "replace the console password"

    /// Trust rules for an ordinary file (`secret: false`) or for a secret one.
    public init(secret: Bool = false) { self.secret = secret }

    /// Trust rules for a secret file other than the console's password hash.
    public init(secretName: String, purpose: String) {
        secret = true
        self.secretName = secretName
        secretPurpose = purpose
    }

    /// nil when `path` (whose `fstat` is `info`) may be trusted, else why not and how to fix it.
    public func problem(path: String, info: FileSystem.Status) -> String? {
        let uid = ProcessIdentity.effectiveUserID, gid = ProcessIdentity.effectiveGroupID
        let mode = info.permissions
        let modeText = "mode " + Self.octal(mode)
        if info.ownerID != 0 && info.ownerID != uid {
            return "owned by " + Self.user(info.ownerID) + ", neither root nor the user puckd runs as ("
                + Self.user(uid) + "): that user could " + purpose + "; make root its owner (sudo chown root "
                + path + ") or run puckd as that user"
        }
        if mode & Self.otherWrite != 0 {
            return "writable by every user (" + modeText + "): anyone on this machine could " + purpose
                + "; remove the write permission (chmod o-w " + path + ")"
        }
        let trustedGroup = info.groupID == 0 || info.groupID == gid
        if mode & Self.groupWrite != 0 && !trustedGroup {
            return "writable by group " + Self.group(info.groupID) + " (" + modeText + "): its members could "
                + purpose + "; remove the group's write permission (chmod g-w " + path + ")"
        }
        if secret && (mode & Self.otherRead != 0 || (mode & Self.groupRead != 0 && !trustedGroup)) {
            return "readable by " + (mode & Self.otherRead != 0 ? "every user" : "group " + Self.group(info.groupID)) + " ("
                + modeText + "): " + secretName + " must be readable only by root and puckd's user; chmod 0600 "
                + path + " (or 0640 with puckd's group)"
        }
        let directory = Self.directory(of: path)
        if let parent = try? FileSystem.status(directory), parent.permissions & Self.otherWrite != 0,
           parent.permissions & Self.sticky == 0 {
            return "in " + directory + ", which every user may write to (mode " + Self.octal(parent.permissions)
                + ", no sticky bit): anyone could replace the file; remove the write permission (chmod o-w "
                + directory + ") or move the file"
        }
        return nil
    }

    // The permission bits of chmod(2) (mode_t), as the kernel defines them.
    private static let otherRead: UInt32 = 0o004, otherWrite: UInt32 = 0o002
    private static let groupRead: UInt32 = 0o040, groupWrite: UInt32 = 0o020, sticky: UInt32 = 0o1000

    private var purpose: String { secret ? secretPurpose : "reconfigure the board" }

    static func octal(_ mode: UInt32) -> String {
        let text = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }

    static func user(_ uid: UInt32) -> String {
        if let name = ProcessIdentity.userName(uid) { return "uid " + String(uid) + " (" + name + ")" }
        return "uid " + String(uid)
    }

    static func group(_ gid: UInt32) -> String {
        if let name = ProcessIdentity.groupName(gid) { return String(gid) + " (" + name + ")" }
        return String(gid)
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
