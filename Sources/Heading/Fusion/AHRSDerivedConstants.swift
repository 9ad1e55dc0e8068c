import Angles
#if canImport(Glibc)
import Glibc
#endif

/// The numbers `AHRSFilter` derives once from its configuration instead of at every sample: the
/// field gate's dip tolerance as a cosine and the gyro-bias learner's largest turn as a chord.
struct AHRSDerivedConstants: Sendable {
    /// cos of `fieldDipToleranceDegrees` (at most 180°).
    var cosDipTolerance: Double
    /// 2·sin(θ/2) of `gyroBiasMaximumTurnDegrees` (at most 180°): the chord of that turn on the unit circle.
    var biasTurnChord: Double

    init(_ c: AHRSConfiguration) {
        biasTurnChord = 2 * sin(min(180, c.gyroBiasMaximumTurnDegrees) * Angle.radiansPerDegree / 2)
        cosDipTolerance = cos(min(180, c.fieldDipToleranceDegrees) * Angle.radiansPerDegree)
    }
}
