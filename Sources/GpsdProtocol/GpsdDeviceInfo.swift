/// What the `DEVICE` object says about the one receiver puckd reads (gpsd_json(5) "DEVICE").
public struct GpsdDeviceInfo: Sendable {
    /// The receiver's path or address (`/dev/ttyAMA0`, `tcp://…`), as configured.
    public var path: GpsdShortText
    /// Line speed, bits per second; nil for a source without one (file, TCP, gpsd).
    public var bitsPerSecond: Int?
    /// The receiver's cycle, seconds (1 at 1 Hz, 0.1 at 10 Hz).
    public var cycleSeconds: Double
    /// UTC time the device was activated (its first sentence), nanoseconds since 1970; nil: not yet.
    public var activatedUTCNanoseconds: Int64?
    /// True once NMEA was seen from it (gpsd's `flags` bit 1, "seen packets").
    public var seenPackets: Bool

    public init(path: GpsdShortText, bitsPerSecond: Int? = nil, cycleSeconds: Double = 1,
                activatedUTCNanoseconds: Int64? = nil, seenPackets: Bool = false) {
        self.path = path
        self.bitsPerSecond = bitsPerSecond
        self.cycleSeconds = cycleSeconds
        self.activatedUTCNanoseconds = activatedUTCNanoseconds
        self.seenPackets = seenPackets
    }
}
