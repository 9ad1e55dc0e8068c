import IMU

/// Hard- and soft-iron correction of a magnetometer: `m_calibrated = W · (m_raw − h)`, the model of
/// x-io Fusion's `FusionModelMagnetic` (S·(m − h)) and of every ellipsoid-fit calibration.
///
/// `h` (hard iron) is a constant offset from magnetised parts near the sensor, µT; `W` (soft iron,
/// symmetric) undoes the field distortion of nearby soft iron and the sensor's scale errors.
/// A fitted calibration also records how it was obtained (coverage, residual), so the heading
/// provider can say when the calibration is poor.
public struct MagnetometerCalibration: Sendable, Equatable {
    /// Hard-iron offset h, µT (in the frame of the raw samples: the board frame).
    public var hardIronMicrotesla: Vector3
    /// Rows of the soft-iron matrix W (dimensionless).
    public var softIronRow0: Vector3
    public var softIronRow1: Vector3
    public var softIronRow2: Vector3
    /// |m_calibrated| expected in the calibration environment, µT (the fitted sphere's radius).
    public var fieldMicrotesla: Double
    /// Fraction of the sphere of field directions covered by the calibration run, 0...1 (1 when the
    /// calibration did not come from a fit, e.g. `identity`).
    public var coverageFraction: Double
    /// RMS of (|m_calibrated| − field) / field over the calibration samples.
    public var residualFraction: Double
    /// Number of samples the fit used (0 when not fitted).
    public var sampleCount: Int
    /// Gyro bias measured at rest during the calibration, rad/s, when known.
    public var gyroBiasRadiansPerSecond: Vector3?
    /// When the calibration was made, UTC nanoseconds since 1970, when known.
    public var utcNanoseconds: Int64?

    public init(hardIronMicrotesla: Vector3, softIronRow0: Vector3 = Vector3(1, 0, 0),
                softIronRow1: Vector3 = Vector3(0, 1, 0), softIronRow2: Vector3 = Vector3(0, 0, 1),
                fieldMicrotesla: Double, coverageFraction: Double = 1, residualFraction: Double = 0,
                sampleCount: Int = 0, gyroBiasRadiansPerSecond: Vector3? = nil, utcNanoseconds: Int64? = nil) {
        self.hardIronMicrotesla = hardIronMicrotesla
        self.softIronRow0 = softIronRow0
        self.softIronRow1 = softIronRow1
        self.softIronRow2 = softIronRow2
        self.fieldMicrotesla = fieldMicrotesla
        self.coverageFraction = coverageFraction
        self.residualFraction = residualFraction
        self.sampleCount = sampleCount
        self.gyroBiasRadiansPerSecond = gyroBiasRadiansPerSecond
        self.utcNanoseconds = utcNanoseconds
    }

    /// "Already calibrated": for data corrected upstream (the reference data sets, chips with an
    /// on-chip calibration). `fieldMicrotesla` 0 means unknown.
    public static let identity = MagnetometerCalibration(hardIronMicrotesla: .zero, fieldMicrotesla: 0)

    /// The calibrated reading of a raw one, µT.
    @inline(__always)
    public func apply(_ raw: Vector3) -> Vector3 {
        let d = raw - hardIronMicrotesla
        return Vector3(softIronRow0.dot(d), softIronRow1.dot(d), softIronRow2.dot(d))
    }

    /// True when every number is finite and W is invertible with a positive determinant.
    public var isUsable: Bool {
        guard hardIronMicrotesla.isFinite, softIronRow0.isFinite, softIronRow1.isFinite, softIronRow2.isFinite,
              fieldMicrotesla.isFinite, fieldMicrotesla >= 0, coverageFraction.isFinite, residualFraction.isFinite
        else { return false }
        return softIronRow0.dot(softIronRow1.cross(softIronRow2)) > 1e-9
    }
}
