/// What is wrong with the device right now: the fault LED is on while any bit is set, and the status
/// line names them. A fixed set of bits (no allocation).
public struct DeviceFaults: OptionSet, Sendable, Equatable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The GPS source is not open (unplugged, missing, refused): it reconnects with backoff.
    public static let gpsDown = DeviceFaults(rawValue: 1)
    /// The GPS source is open but no valid sentence arrived for `[gps] stale_s`.
    public static let gpsSilent = DeviceFaults(rawValue: 2)
    /// An IMU is configured but delivers no samples (bus missing, no chip, faulted, recovering).
    public static let imu = DeviceFaults(rawValue: 4)
    /// The state cannot be saved (directory unusable or the last write failed).
    public static let state = DeviceFaults(rawValue: 8)
    /// The PPS input is configured but could not be opened.
    public static let pps = DeviceFaults(rawValue: 16)
    /// The track journal cannot be written (full, read-only, missing or forbidden directory).
    public static let track = DeviceFaults(rawValue: 32)
    /// The fleet uplink fails (connection, cursor file) or its oldest unsent position is older than
    /// `[uplink] backlog_max_age_s`.
    public static let uplink = DeviceFaults(rawValue: 64)

    /// Names in bit order, for status lines.
    static let names: [(DeviceFaults, StaticString)] = [(.gpsDown, "gps-down"), (.gpsSilent, "gps-silent"), (.imu, "imu"),
                                                       (.state, "state"), (.pps, "pps"), (.track, "track"),
                                                       (.uplink, "uplink")]
}
