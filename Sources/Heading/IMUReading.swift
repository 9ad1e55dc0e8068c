/// One new sample from an IMU driver: the motion sample plus what only some chips give.
///
/// From a driver the vectors are in the **sensor frame** (the accel/gyro die's axes, the magnetometer
/// already remapped into them); from `IMUDevice.poll` they are in the **board frame** (x forward,
/// y left, z up) after the mounting orientation.
public struct IMUReading: Sendable, Equatable {
    /// Angular rate, specific force, magnetic field (nil when the magnetometer had no new sample or
    /// overflowed), die temperature. SI units (rad/s, m/s², µT, °C).
    public var sample: IMUSample
    /// The BNO055's own fusion output (chip frame, Bosch conventions); nil for other chips.
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

/// The BNO055's on-chip fusion output (NDOF mode), as the chip reports it: in the chip's own axes
/// (AXIS_MAP_CONFIG left at its default P1) and Bosch's conventions, *not* rotated by the mounting
/// orientation.
public struct BNO055Fusion: Sendable, Equatable {
    /// Euler heading, degrees 0 ..< 360 (1/16° resolution).
    public var headingDegrees: Double
    /// Euler roll, degrees.
    public var rollDegrees: Double
    /// Euler pitch, degrees.
    public var pitchDegrees: Double
    /// Orientation quaternion w, x, y, z (unit quaternion, 2⁻¹⁴ resolution).
    public var quaternionW: Double
    public var quaternionX: Double
    public var quaternionY: Double
    public var quaternionZ: Double
    /// CALIB_STAT: 0 (uncalibrated) … 3 (fully calibrated) for system, gyroscope, accelerometer, magnetometer.
    public var calibration: BNO055CalibrationStatus

    public init(headingDegrees: Double, rollDegrees: Double, pitchDegrees: Double, quaternionW: Double,
                quaternionX: Double, quaternionY: Double, quaternionZ: Double, calibration: BNO055CalibrationStatus) {
        self.headingDegrees = headingDegrees
        self.rollDegrees = rollDegrees
        self.pitchDegrees = pitchDegrees
        self.quaternionW = quaternionW
        self.quaternionX = quaternionX
        self.quaternionY = quaternionY
        self.quaternionZ = quaternionZ
        self.calibration = calibration
    }
}

/// The BNO055 CALIB_STAT register (0x35): four 2-bit levels, 0 = uncalibrated … 3 = fully calibrated.
public struct BNO055CalibrationStatus: Sendable, Equatable {
    /// The register value: system bits 7:6, gyroscope 5:4, accelerometer 3:2, magnetometer 1:0.
    public var rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Builds the register value from the four levels (each clamped to 0…3).
    public init(system: Int, gyroscope: Int, accelerometer: Int, magnetometer: Int) {
        func level(_ v: Int) -> UInt8 { UInt8(max(0, min(3, v))) }
        rawValue = level(system) << 6 | level(gyroscope) << 4 | level(accelerometer) << 2 | level(magnetometer)
    }

    /// Fusion system calibration level, 0…3.
    public var system: Int { Int(rawValue >> 6 & 3) }
    /// Gyroscope calibration level, 0…3.
    public var gyroscope: Int { Int(rawValue >> 4 & 3) }
    /// Accelerometer calibration level, 0…3.
    public var accelerometer: Int { Int(rawValue >> 2 & 3) }
    /// Magnetometer calibration level, 0…3.
    public var magnetometer: Int { Int(rawValue & 3) }
}
