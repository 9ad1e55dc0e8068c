/// One reading of an IMU in the **board frame**: x toward the front of the board (the vehicle's
/// forward direction once the mounting orientation is applied), y to the left, z up (right-handed).
/// At rest and level the accelerometer reads (0, 0, +9.81): specific force, not gravity.
///
/// Drivers produce it from register bytes (scaled to SI, axes remapped into the board frame);
/// replay readers produce it from recorded CSV files. The AHRS filter consumes it.
public struct IMUSample: Sendable, Equatable {
    /// Monotonic time of the sample, nanoseconds (any origin; only differences are used).
    public var timestampNanoseconds: Int64
    /// Angular rate, radians per second.
    public var gyroRadiansPerSecond: Vector3
    /// Specific force, metres per second squared.
    public var accelerationMetersPerSecondSquared: Vector3
    /// Magnetic field, microtesla; nil when the chip has no magnetometer or no new magnetometer sample.
    public var magneticFieldMicrotesla: Vector3?
    /// Die temperature, degrees Celsius, when the chip reports it.
    public var temperatureCelsius: Double?

    public init(timestampNanoseconds: Int64, gyroRadiansPerSecond: Vector3,
                accelerationMetersPerSecondSquared: Vector3, magneticFieldMicrotesla: Vector3?,
                temperatureCelsius: Double? = nil) {
        self.timestampNanoseconds = timestampNanoseconds
        self.gyroRadiansPerSecond = gyroRadiansPerSecond
        self.accelerationMetersPerSecondSquared = accelerationMetersPerSecondSquared
        self.magneticFieldMicrotesla = magneticFieldMicrotesla
        self.temperatureCelsius = temperatureCelsius
    }
}
