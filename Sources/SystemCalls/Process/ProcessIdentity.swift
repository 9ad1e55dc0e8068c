import Glibc

/// Who this process runs as and what its environment says: effective user and group, the user and
/// group databases (names for messages), environment variables. Start-up and command use only.
public enum ProcessIdentity {
    /// getpid(2): this process's id.
    public static var processID: Int32 { getpid() }

    /// geteuid(2).
    public static var effectiveUserID: UInt32 { geteuid() }

    /// getegid(2).
    public static var effectiveGroupID: UInt32 { getegid() }

    /// The login name of `uid` (getpwuid(3)), or nil when the database has none.
    public static func userName(_ uid: UInt32) -> String? {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    /// The name of group `gid` (getgrgid(3)), or nil when the database has none.
    public static func groupName(_ gid: UInt32) -> String? {
        guard let entry = getgrgid(gid), let name = entry.pointee.gr_name else { return nil }
        return String(cString: name)
    }

    /// getenv(3): the variable's value, or nil when it is not set.
    public static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}
