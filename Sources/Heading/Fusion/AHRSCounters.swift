/// Counters of the filter's unusual events since it was created.
public struct AHRSCounters: Sendable, Equatable {
    /// Samples integrated.
    public var samples: Int = 0
    /// Samples skipped because gyro or accelerometer values were not finite.
    public var invalidSamples: Int = 0
    /// Samples skipped because their timestamp did not advance (duplicate or out of order).
    public var nonMonotonicTimestamps: Int = 0
    /// Gaps longer than `maximumTimeStepSeconds` (the filter re-initialised).
    public var gaps: Int = 0
    /// Gyro readings beyond the configured range (start-up restarted).
    public var gyroscopeOverranges: Int = 0
    /// Samples whose accelerometer did not correct the tilt (a sustained acceleration).
    public var accelerometerRejections: Int = 0
    /// Samples whose magnetometer reading was not used (absent readings not counted).
    public var magnetometerRejections: Int = 0

    public init() {}
}
