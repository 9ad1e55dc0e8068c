import IMU

/// Roll and pitch from the gyroscope and the accelerometer, corrected in a quasi-inertial frame:
/// the gyro is integrated into `gyroOrientation` (sensor → I, a frame that only drifts with the gyro's
/// residual error), the specific force is rotated into I and low-pass filtered there, and
/// `tiltCorrection` (I → E6, the earth frame up to heading) levels the filtered vector.
///
/// Why in I: there the specific force is gravity plus the board's linear acceleration, whose mean over
/// a window is Δv / window, small for any motion that does not keep speeding up (translation back and
/// forth, taps, vibration, a hand carrying the board), while in the sensor frame the same low-pass
/// would smear gravity over every rotation. So every sample can be used, without rejection thresholds,
/// and the tilt follows the accelerometer with the filter's time constant — the idea of the VQF
/// filter (Laidig & Seel, "VQF: Highly accurate IMU orientation estimation with bias estimation and
/// magnetic disturbance rejection", Information Fusion 91, 2023), implemented here from the paper.
/// The low-pass is two first-order stages of τ/2 each (a critically damped second order, mean delay
/// τ); before τ has passed since a reset it is the running mean of all samples (fast, unbiased start).
public struct InclinationEstimator: Sendable, Equatable {
    /// Strapdown integration of the bias-corrected gyro: sensor → I.
    public private(set) var gyroOrientation = Quaternion.identity
    /// Tilt correction I → E6 (the earth frame except for the heading).
    public private(set) var tiltCorrection = Quaternion.identity
    /// The two low-pass stages of the specific force in I, m/s².
    private var stage1 = Vector3.zero, stage2 = Vector3.zero
    /// Seconds since the last reset (the running mean spans this until it reaches τ/2).
    public private(set) var elapsedSeconds = 0.0
    private var coefficient = LowPassCoefficient()

    public init() {}

    /// Sensor → E6: roll and pitch right, heading arbitrary.
    @inline(__always)
    public var orientation: Quaternion { tiltCorrection * gyroOrientation }

    /// Starts from one accelerometer reading (the board level with it).
    public mutating func reset(accel: Vector3) {
        gyroOrientation = .identity
        stage1 = accel
        stage2 = accel
        tiltCorrection = InclinationEstimator.levelling(accel.normalized)
        elapsedSeconds = 0
    }

    /// Forgets the filter's history (after a gyro over-range the tilt is unknown): the next samples
    /// are averaged from scratch.
    public mutating func restartAveraging(accel: Vector3) {
        let a = gyroOrientation.rotate(accel)
        stage1 = a
        stage2 = a
        elapsedSeconds = 0
    }

    /// Integrates the bias-corrected rate (rad/s) over `dt` seconds.
    @inline(__always)
    public mutating func predict(gyro: Vector3, dt: Double) {
        gyroOrientation = (gyroOrientation * Quaternion.rotationVector(gyro * dt)).renormalized
    }

    /// Low-passes the specific force `accel` (m/s², sensor frame) in I with time constant `tau`
    /// seconds; returns the filtered vector in E6, m/s² (`level(_:)` corrects the tilt with it).
    @inline(__always)
    public mutating func filter(accel: Vector3, dt: Double, tau: Double) -> Vector3 {
        elapsedSeconds += dt
        let half = tau * 0.5
        var k = coefficient.value(dt: dt, tau: half)
        if elapsedSeconds < half { k = Swift.max(k, dt / elapsedSeconds) }
        let a = gyroOrientation.rotate(accel)
        stage1 += (a - stage1) * k
        stage2 += (stage1 - stage2) * k
        return tiltCorrection.rotate(stage2)
    }

    /// Levels the tilt so that `filtered` (the result of `filter`, length `norm` > 0) points up;
    /// returns the correction's rotation vector (E6, horizontal), radians.
    @inline(__always)
    @discardableResult
    public mutating func level(_ filtered: Vector3, norm: Double) -> Vector3 {
        let q = InclinationEstimator.levelling(filtered * (1 / norm))
        tiltCorrection = (q * tiltCorrection).renormalized
        return Vector3(2 * q.x, 2 * q.y, 0)
    }

    /// The low-pass coefficient per stage for the last step (for filters that must match it).
    public var lastCoefficient: Double { coefficient.lastValue }

    /// True once the low-pass runs on its time constant (the start-up mean is over).
    public func isSettled(tau: Double) -> Bool { elapsedSeconds >= tau }

    /// The smallest rotation that turns the unit vector `a` into +z (about the horizontal axis a × z).
    @inline(__always)
    static func levelling(_ a: Vector3) -> Quaternion {
        let w2 = (1 + a.z) * 0.5
        guard w2 > 1e-12 else { return Quaternion(w: 0, x: 1, y: 0, z: 0) }   // upside down: half a turn
        let w = w2.squareRoot(), k = 0.5 / w
        return Quaternion(w: w, x: a.y * k, y: -a.x * k, z: 0)
    }
}
