import CLinux

/// How the running executable was linked, and the host lookup fix a static one needs (glibc's NSS
/// modules of the system would not match the glibc linked in).
public enum StaticExecutable {
    /// True when this process is a static executable (no program interpreter).
    public static var isStatic: Bool { clinux_is_static_executable() == 1 }

    /// In a static executable, host lookups use only glibc's built-in `files dns`; in a dynamic one
    /// nothing changes. False when glibc refused.
    @discardableResult
    public static func restrictHostLookup() -> Bool { clinux_restrict_static_host_lookup() >= 0 }
}
