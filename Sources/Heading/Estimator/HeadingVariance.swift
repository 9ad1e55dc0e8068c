/// The variance of the heading, as a scalar Kalman filter sees it: it sets how strongly each
/// magnetometer reading or GNSS course corrects the heading, so the correction's time constant follows
/// the sensors instead of being one fixed number.
///
/// - The gyro-integrated heading degrades as a random walk whose rate grows with the turning:
///   q = σ_d² + (s·ω_v·1 s)² per second (σ_d = `headingDriftDegreesPerRootSecond`, s =
///   `headingScaleErrorFraction`, ω_v the rate about the vertical). A board at rest or turning slowly
///   keeps its heading for a minute; one spinning at 400 °/s loses it in seconds.
/// - The magnetometer's error is slow (calibration residuals, the field varying from place to place,
///   tilt errors leaking through the dip), modelled as white noise of density R =
///   `magneticNoiseDegreesRootSecond`², divided by the gate's weight when the field departs from the
///   reference. Each reading over dt gives the gain K = P / (P + R/dt); in steady state the heading
///   follows the magnetometer with τ = √(R/q): ≈ 50 s at rest, ≈ 5 s at 400 °/s.
/// - From an unknown heading (P large) the first readings are averaged (the running mean); after a
///   disturbance held the heading on the gyro, P has grown and the magnetometer brings it back fast.
/// - The magnetometer also has a bias no averaging removes (calibration residuals, the mounting):
///   `magneticBiasDegrees`. A heading that followed it carries that bias; a GNSS course, one
///   measurement of variance `courseNoiseDegrees`² per fix independent of the magnetometer, corrects
///   both parts.
public struct HeadingVariance: Sendable, Equatable {
    /// The heading variance, degrees².
    public private(set) var degreesSquared: Double = HeadingVariance.unknownDegreesSquared
    /// The part of the heading's error that is the magnetometer's own bias, degrees²: averaging more
    /// readings does not shrink it, an independent measurement (a GNSS course) does.
    public private(set) var magneticBiasDegreesSquared: Double = 0

    /// The variance of a heading nothing has measured yet, degrees² (a uniform distribution's).
    public static let unknownDegreesSquared = 180.0 * 180 / 3

    public init() {}

    /// The heading's standard deviation, degrees.
    public var sigmaDegrees: Double { degreesSquared.squareRoot() }

    /// Forgets the heading (a restart).
    public mutating func reset() {
        degreesSquared = HeadingVariance.unknownDegreesSquared
        magneticBiasDegreesSquared = 0
    }

    /// Grows the variance over `dt` seconds of gyro integration at `verticalRateDegreesPerSecond`.
    @inline(__always)
    public mutating func predict(verticalRateDegreesPerSecond rate: Double, dt: Double, configuration c: AHRSConfiguration) {
        let drift = c.headingDriftDegreesPerRootSecond, s = c.headingScaleErrorFraction * rate
        degreesSquared = min(HeadingVariance.unknownDegreesSquared, degreesSquared + (drift * drift + s * s) * dt)
    }

    /// Keeps the variance at least `minimum` degrees² (during start-up: the tilt is still settling,
    /// so what the magnetometer said then must not be averaged in for long).
    @inline(__always)
    public mutating func keepAtLeast(degreesSquared minimum: Double) {
        if degreesSquared < minimum { degreesSquared = minimum }
    }

    /// Adds the variance of a rotation the gyro could not see (samples lost), degrees².
    @inline(__always)
    public mutating func addUnseen(degreesSquared unseen: Double) {
        degreesSquared = min(HeadingVariance.unknownDegreesSquared, degreesSquared + unseen)
    }

    /// The gain of one magnetometer reading over `dt` seconds with the gate's `weight` (0...1), and
    /// the variance update that goes with it.
    @inline(__always)
    public mutating func magnetometerGain(weight: Double, rateDegreesPerSecond rate: Double, dt: Double,
                                          configuration c: AHRSConfiguration) -> Double {
        guard weight > 0 else { return 0 }
        let dynamic = c.magneticNoiseRateDegreesPerSecond > 0 ? rate / c.magneticNoiseRateDegreesPerSecond : 0
        let r = c.magneticNoiseDegreesRootSecond * c.magneticNoiseDegreesRootSecond * (1 + dynamic * dynamic) / (weight * dt)
        let k = degreesSquared / (degreesSquared + r)
        degreesSquared *= 1 - k
        // Following the magnetometer, the heading takes on its bias.
        let bias = c.magneticBiasDegrees * c.magneticBiasDegrees
        magneticBiasDegreesSquared += (bias - magneticBiasDegreesSquared) * k
        return k
    }

    /// The gain of one GNSS course, and the variance update that goes with it: the course is
    /// independent of the magnetometer, so it corrects the magnetometer's bias in the heading too.
    @inline(__always)
    public mutating func courseGain(configuration c: AHRSConfiguration) -> Double {
        let total = degreesSquared + magneticBiasDegreesSquared
        let k = total / (total + c.courseNoiseDegrees * c.courseNoiseDegrees)
        degreesSquared *= 1 - k
        magneticBiasDegreesSquared *= 1 - k
        return k
    }
}
