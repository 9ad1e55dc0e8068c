import Angles
#if canImport(Glibc)
import Glibc
#endif

/// What the filter did with a sample's magnetometer reading.
public enum MagnetometerDecision: UInt8, Sendable, Equatable {
    /// Used for the heading correction.
    case accepted = 0
    /// Used with a boosted gain: the field is consistent but the estimate had drifted away from it.
    case recovering = 1
    /// Not used: magnitude or dip differ from the learned reference field (a magnetic disturbance).
    case rejectedField = 2
    /// Not used: the heading it implies differs from the estimate by more than the rejection angle.
    case rejectedInnovation = 3
    /// The sample carried no magnetometer reading (or an unusable one).
    case absent = 4

    /// True when the reading corrected the heading.
    @inline(__always)
    public var isUsed: Bool { self == .accepted || self == .recovering }
}

/// Decides whether the magnetometer may correct the heading.
///
/// 1. **Field consistency**: the field's magnitude and dip (low-passed over `fieldCurrentSeconds`
///    against the noise) must match a reference learned from accepted readings (time constant
///    `fieldReferenceTimeConstantSeconds`). A magnet, steel or a motor changes them; the heading is
///    then held by the gyroscope, however long it lasts.
///    Inside the tolerance a reading's weight falls off as (1 − (Δ|m|/tolerance)²)·(1 − (Δdip/tolerance)²),
///    and after an inconsistency the field must stay in tolerance for `fieldSettleSeconds`.
/// 2. **A new environment**: while the field is inconsistent, a candidate reference is tracked. If it
///    stays consistent with itself for `fieldRelearnSeconds` while the board turned through at least
///    `fieldRelearnRotationDegrees`, it is the earth's field in a new place (a field fixed to the
///    board — an attached magnet, a hard-iron change — changes magnitude and dip as the board turns),
///    so it becomes the reference (counted in `relearnCount`) and the heading re-converges onto it.
/// 3. **Innovation**: the heading the reading implies must be within `magneticRejectionDegrees` of the
///    estimate, or within three standard deviations of the heading when it is that uncertain (after
///    a long hold: "recovering"). When the field is consistent but the innovation stays beyond the
///    gate for `magneticRecoverySeconds`, the estimate is what is wrong: `lostHeading` tells the
///    filter to forget the heading's variance and re-converge.
public struct MagneticFieldGate: Sendable, Equatable {
    /// Learned reference field magnitude, in the magnetometer's (calibrated) units, µT.
    public private(set) var referenceMicrotesla: Double = 0
    /// Learned reference field direction in the vertical plane: cosine and sine of the dip
    /// (inclination below the horizontal), kept normalised.
    public private(set) var referenceCosDip: Double = 1
    public private(set) var referenceSinDip: Double = 0
    /// True once a reference exists.
    public private(set) var hasReference = false
    /// Low-passed magnitude (µT) and dip of the current readings.
    public private(set) var currentMicrotesla: Double = 0
    private var currentCosDip: Double = 1, currentSinDip: Double = 0
    /// Candidate reference while the field is inconsistent, how long it has held and how far the board
    /// turned meanwhile (radians).
    private var candidateMicrotesla: Double = 0, candidateCosDip: Double = 1, candidateSinDip: Double = 0
    public private(set) var candidateSeconds: Double = 0
    private var candidateRotationRadians: Double = 0
    /// Seconds of consecutive unused readings.
    public private(set) var rejectedSeconds: Double = 0
    /// Seconds of consecutive readings whose field was inconsistent with the reference.
    public private(set) var inconsistentSeconds: Double = 0
    /// Seconds the field has been back in tolerance after an inconsistency.
    public private(set) var settledSeconds: Double = 0
    /// Weight of the last accepted reading (1 = the reference field exactly).
    public private(set) var weight: Double = 1
    /// True while recovering: the last reading was used although its innovation was beyond the
    /// rejection angle (the gate widened with the heading's uncertainty).
    public private(set) var isRecovering = false
    /// Set by the last decision when a consistent field disagreed for `magneticRecoverySeconds`: the
    /// heading is lost (the filter forgets its variance and re-converges onto the field).
    public private(set) var lostHeading = false
    /// How many times a new reference was adopted after an inconsistency.
    public private(set) var relearnCount: Int = 0
    private var currentCoefficient = LowPassCoefficient(), referenceCoefficient = LowPassCoefficient()

    public init() {}

    /// Forgets the recovery state (on a filter restart); keeps the learned reference.
    public mutating func resetRecovery() {
        rejectedSeconds = 0
        isRecovering = false
        currentMicrotesla = 0
    }

    /// Learned reference dip, degrees.
    public var referenceDipDegrees: Double { atan2(referenceSinDip, referenceCosDip) * Angle.degreesPerRadian }

    /// The decision for one reading: `fieldMicrotesla` = |m|; `cosDip`, `sinDip` of the reading's dip
    /// under the estimated tilt; `innovationDegrees` = heading implied by the reading minus the
    /// estimate; `turnRadians` = how far the board turned during the step (|ω|·dt);
    /// `cosDipTolerance` = cos(`fieldDipToleranceDegrees`) (precomputed by the filter).
    @inline(__always)
    public mutating func decide(fieldMicrotesla: Double, cosDip: Double, sinDip: Double, innovationDegrees: Double,
                                headingSigmaDegrees: Double, turnRadians: Double, cosDipTolerance: Double,
                                startup: Bool, dt: Double, configuration c: AHRSConfiguration) -> MagnetometerDecision {
        lostHeading = false
        if currentMicrotesla == 0 {
            currentMicrotesla = fieldMicrotesla
            currentCosDip = cosDip
            currentSinDip = sinDip
        } else {
            let k = currentCoefficient.value(dt: dt, tau: c.fieldCurrentSeconds)
            MagneticFieldGate.blend(&currentMicrotesla, &currentCosDip, &currentSinDip,
                                    toward: fieldMicrotesla, cosDip, sinDip, k)
        }
        if !hasReference || startup {
            if !hasReference {
                referenceMicrotesla = currentMicrotesla
                referenceCosDip = currentCosDip
                referenceSinDip = currentSinDip
                hasReference = true
            }
            learn(c, dt: dt, tau: Swift.min(c.fieldReferenceTimeConstantSeconds, 0.5))
            rejectedSeconds = 0
            inconsistentSeconds = 0
            isRecovering = false
            return .accepted
        }
        guard MagneticFieldGate.consistent(currentMicrotesla, currentCosDip, currentSinDip, with: referenceMicrotesla,
                                           referenceCosDip, referenceSinDip, cosDipTolerance, c) else {
            rejectedSeconds += dt
            inconsistentSeconds += dt
            settledSeconds = 0
            trackCandidate(turnRadians: turnRadians, cosDipTolerance: cosDipTolerance, dt: dt, configuration: c)
            return .rejectedField
        }
        if inconsistentSeconds > 0 {
            // Back in tolerance after a disturbance: trusted once it stayed there for a while (a field
            // fixed to the turning board passes through the tolerance now and then).
            settledSeconds += dt
            guard settledSeconds >= c.fieldSettleSeconds else {
                rejectedSeconds += dt
                return .rejectedField
            }
        }
        inconsistentSeconds = 0
        settledSeconds = 0
        candidateSeconds = 0
        let df = (currentMicrotesla - referenceMicrotesla) / (c.fieldMagnitudeToleranceFraction * referenceMicrotesla)
        let sinDiff = currentSinDip * referenceCosDip - currentCosDip * referenceSinDip
        let dd = sinDiff / sin(c.fieldDipToleranceDegrees * Angle.radiansPerDegree)
        weight = max(0, 1 - df * df) * max(0, 1 - dd * dd)
        // The innovation gate widens with the heading's uncertainty (after a long hold on the gyro).
        let gate = max(c.magneticRejectionDegrees, 3 * headingSigmaDegrees)
        if abs(innovationDegrees) <= gate {
            isRecovering = abs(innovationDegrees) > c.magneticRejectionDegrees
            rejectedSeconds = 0
            learn(c, dt: dt, tau: c.fieldReferenceTimeConstantSeconds)
            return isRecovering ? .recovering : .accepted
        }
        // Only a field that matches the reference well counts toward "the heading is wrong".
        rejectedSeconds = weight >= 0.5 ? rejectedSeconds + dt : 0
        if rejectedSeconds > c.magneticRecoverySeconds {
            // A consistent field has disagreed for long: the heading is what is wrong.
            lostHeading = true
            rejectedSeconds = 0
        }
        return .rejectedInnovation
    }

    /// Follows the candidate reference while the field is inconsistent; adopts it when it held.
    @inline(__always)
    private mutating func trackCandidate(turnRadians: Double, cosDipTolerance: Double, dt: Double,
                                         configuration c: AHRSConfiguration) {
        if candidateSeconds > 0 && MagneticFieldGate.consistent(currentMicrotesla, currentCosDip, currentSinDip,
                                                                with: candidateMicrotesla, candidateCosDip,
                                                                candidateSinDip, cosDipTolerance, c) {
            candidateSeconds += dt
            // The running mean of the candidate's readings until it spans the reference's time constant.
            let tau = c.fieldReferenceTimeConstantSeconds
            var k = referenceCoefficient.value(dt: dt, tau: tau)
            if candidateSeconds < tau { k = max(k, dt / candidateSeconds) }
            MagneticFieldGate.blend(&candidateMicrotesla, &candidateCosDip, &candidateSinDip,
                                    toward: currentMicrotesla, currentCosDip, currentSinDip, k)
            candidateRotationRadians += turnRadians
        } else {
            candidateMicrotesla = currentMicrotesla
            candidateCosDip = currentCosDip
            candidateSinDip = currentSinDip
            candidateSeconds = dt
            candidateRotationRadians = 0
        }
        if candidateSeconds >= c.fieldRelearnSeconds
            && candidateRotationRadians >= c.fieldRelearnRotationDegrees * Angle.radiansPerDegree {
            referenceMicrotesla = candidateMicrotesla
            referenceCosDip = candidateCosDip
            referenceSinDip = candidateSinDip
            candidateSeconds = 0
            inconsistentSeconds = 0
            lostHeading = true
            relearnCount += 1
        }
    }

    @inline(__always)
    private mutating func learn(_ c: AHRSConfiguration, dt: Double, tau: Double) {
        let k = referenceCoefficient.value(dt: dt, tau: tau)
        MagneticFieldGate.blend(&referenceMicrotesla, &referenceCosDip, &referenceSinDip,
                                toward: currentMicrotesla, currentCosDip, currentSinDip, k)
    }

    /// Magnitude within `fieldMagnitudeToleranceFraction` and dip within the tolerance angle
    /// (cos(dip − reference) ≥ cos(tolerance), dips within ±90°).
    @inline(__always)
    private static func consistent(_ f: Double, _ cosDip: Double, _ sinDip: Double, with reference: Double,
                                   _ referenceCos: Double, _ referenceSin: Double, _ cosTolerance: Double,
                                   _ c: AHRSConfiguration) -> Bool {
        abs(f - reference) <= c.fieldMagnitudeToleranceFraction * reference
            && cosDip * referenceCos + sinDip * referenceSin >= cosTolerance
    }

    /// Moves (magnitude, dip) a fraction k toward another, keeping (cos, sin) normalised.
    @inline(__always)
    private static func blend(_ f: inout Double, _ cosDip: inout Double, _ sinDip: inout Double,
                              toward f2: Double, _ cos2: Double, _ sin2: Double, _ k: Double) {
        f += (f2 - f) * k
        let c = cosDip + (cos2 - cosDip) * k
        let s = sinDip + (sin2 - sinDip) * k
        let n2 = c * c + s * s
        guard n2 > 0 else { return }
        // One Newton step for 1/√n² when the blend barely moved (the usual case), exact otherwise.
        let r = abs(n2 - 1) < 1e-6 ? (3 - n2) * 0.5 : 1 / n2.squareRoot()
        cosDip = c * r
        sinDip = s * r
    }
}
