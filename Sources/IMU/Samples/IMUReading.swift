/// One new sample from an IMU driver: the motion sample plus what only some chips give.
///
/// From a driver the vectors are in the **sensor frame** (the accel/gyro die's axes, the magnetometer
/// already remapped into them); from `IMUDevice.poll` they are in the **board frame** (x forward,
/// y left, z up) after the mounting orientation.
public struct IMUReading: Sendable, Equatable {
    /// Angular rate, specific force, magnetic field (nil when the magnetometer had no new sample or
    /// overflowed), die temperature. SI units (rad/s, m/s², µT, °C).
    public var sample: IMUSample
    /// The chip's own fusion output, for chips that compute one (`IMUMeasurements.onChipFusion`);
    /// nil for the others.
    public var chipFusion: BNO055Fusion?
    /// True when the magnetometer reported a magnetic overflow for this sample (field beyond its range,
    /// e.g. a magnet nearby); `sample.magneticFieldMicrotesla` is then nil.
    public var magnetometerOverflow: Bool
    /// FNV-1a hash of the raw accel/gyro output bytes: identical values in a row mean stuck registers.
    public var rawDataFingerprint: UInt64

    public init(sample: IMUSample, chipFusion: BNO055Fusion? = nil, magnetometerOverflow: Bool = false,
                rawDataFingerprint: UInt64 = 0) {
        self.sample = sample
        self.chipFusion = chipFusion
        self.magnetometerOverflow = magnetometerOverflow
        self.rawDataFingerprint = rawDataFingerprint
    }
}
