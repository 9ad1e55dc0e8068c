/// Whether puckd configures the receiver (`[gps] configure`).
public enum ReceiverConfigureMode: UInt8, Sendable, Equatable {
    /// Recognize the receiver and write what the other `[gps]` keys ask for.
    case auto
    /// Never write to the receiver: puckd only reads.
    case never
}

/// What the receiver should be told, from the `[gps]` keys. nil = leave as the receiver has it.
public struct ReceiverSettings: Sendable, Equatable {
    /// `[gps] configure`.
    public var mode = ReceiverConfigureMode.auto
    /// `[gps] receiver`: the family to assume (nil: recognize it from what the receiver says).
    public var family: ReceiverFamily?
    /// `[gps] rate_hz` as the measurement period, milliseconds.
    public var measurementPeriodMilliseconds: Int?
    /// `[gps] configure_baud`: the line speed to switch the receiver and the port to, bits per second.
    public var baudRate: Int?
    /// `[gps] constellations`.
    public var constellations: GNSSConstellations?
    /// `[gps] sentences`: these on (every fix), every other sentence puckd manages off.
    public var sentences: NMEASentenceSet?
    /// `[gps] save`: store the configuration in the receiver's battery-backed RAM / flash.
    public var save = false

    public init() {}

    /// True when there is anything to write.
    public var wantsChanges: Bool {
        mode == .auto && (measurementPeriodMilliseconds != nil || baudRate != nil || constellations != nil
            || sentences != nil || save)
    }

    /// The period for a rate in hertz (rounded to whole milliseconds).
    public static func periodMilliseconds(hertz: Double) -> Int { Int((1000 / hertz).rounded()) }
}
