import IMU

/// What the tilt correction says about the gyro offset while the board moves (the motion bias
/// estimation of the VQF paper, implemented here from its description).
///
/// An offset error e (sensor frame) turns the gyro-integrated attitude by R·e per second (R: sensor →
/// E6); the inclination filter removes the horizontal part of that drift through its levelling
/// corrections, with its low-pass' delay. So the mean correction rate over a short interval measures
/// −H·e, where H is the horizontal rows of R low-passed **with the same filter** (the drift the
/// correction answers was accumulated along the low-passed orientation). As the board turns, every
/// sensor axis passes through the horizontal plane and the whole offset — also the part about the
/// vertical that the magnetometer alone would have to absorb — becomes observable.
///
/// The corrections answer the error of the estimate as it was a low-pass delay ago, so the
/// measurement is made of the offset itself: LP{R_h·b̂} + correction rate ≈ LP{R_h}·b, which stays
/// right while b̂ changes (no double counting of an error already corrected).
struct MotionBiasObservation: Sendable, Equatable {
    /// The two low-pass stages of R's first two rows (E6 east and north in sensor coordinates).
    private var east1 = Vector3.zero, east2 = Vector3.zero, north1 = Vector3.zero, north2 = Vector3.zero
    /// The two low-pass stages of R_h·b̂ (rad/s).
    private var rateEast1 = 0.0, rateEast2 = 0.0, rateNorth1 = 0.0, rateNorth2 = 0.0
    private var rateEastSum = 0.0, rateNorthSum = 0.0
    /// Sums over the current interval: corrections (rad, E6 east and north) and the low-passed rows·dt.
    private var correctionEast = 0.0, correctionNorth = 0.0
    private var eastSum = Vector3.zero, northSum = Vector3.zero
    private var seconds = 0.0
    private var primed = false

    /// Length of an observation interval, seconds (fixed in time: the same number of measurements per
    /// second at any sample rate).
    static let intervalSeconds = 0.1

    /// Forgets everything (restart, rest, a rejected accelerometer).
    mutating func reset() { self = MotionBiasObservation() }

    /// Starts a new interval but keeps the low-passed rows.
    mutating func discardInterval() {
        correctionEast = 0
        correctionNorth = 0
        rateEastSum = 0
        rateNorthSum = 0
        eastSum = .zero
        northSum = .zero
        seconds = 0
    }

    /// Adds one step: `matrix` = sensor → E6 (row-major), `k` = the inclination low-pass' coefficient
    /// per stage, `correction` = the levelling rotation vector applied (E6, horizontal, rad), `bias` =
    /// the current offset estimate (rad/s). Returns the interval's mean measured offset projections
    /// (rad/s) and rows when the interval is complete.
    @inline(__always)
    mutating func add(matrix m: (Double, Double, Double, Double, Double, Double, Double, Double, Double),
                      k: Double, correction: Vector3, bias: Vector3, dt: Double)
        -> (east: Double, north: Double, eastRow: Vector3, northRow: Vector3)? {
        let e = Vector3(m.0, m.1, m.2), n = Vector3(m.3, m.4, m.5)
        let be = e.dot(bias), bn = n.dot(bias)
        if !primed {
            east1 = e; east2 = e; north1 = n; north2 = n
            rateEast1 = be; rateEast2 = be; rateNorth1 = bn; rateNorth2 = bn
            primed = true
        }
        rateEast1 += (be - rateEast1) * k
        rateEast2 += (rateEast1 - rateEast2) * k
        rateNorth1 += (bn - rateNorth1) * k
        rateNorth2 += (rateNorth1 - rateNorth2) * k
        rateEastSum += rateEast2 * dt
        rateNorthSum += rateNorth2 * dt
        east1 += (e - east1) * k
        east2 += (east1 - east2) * k
        north1 += (n - north1) * k
        north2 += (north1 - north2) * k
        correctionEast += correction.x
        correctionNorth += correction.y
        eastSum += east2 * dt
        northSum += north2 * dt
        seconds += dt
        guard seconds >= MotionBiasObservation.intervalSeconds else { return nil }
        let inverse = 1 / seconds
        let result = (east: rateEastSum * inverse - correctionEast * inverse,
                      north: rateNorthSum * inverse - correctionNorth * inverse,
                      eastRow: eastSum * inverse, northRow: northSum * inverse)
        discardInterval()
        return result
    }
}
