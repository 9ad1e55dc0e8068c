/// puckd's version, printed by `puckd --version` and the console's `version` command.
public enum PuckdVersion {
    public static let string: StaticString = "0.1.0"
    /// The `release` of the gpsd-protocol VERSION banner.
    public static let release: StaticString = "puckd 0.1.0"
}
