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
/// Two tests, as in x-io Fusion's magnetic rejection but with a field-consistency check in front:
/// 1. **Field consistency**: |m| and the dip angle must match a reference field learned from the
///    accepted samples (time constant `fieldReferenceTimeConstantSeconds`). A disturbance (a magnet,
///    steel, a motor) changes them; the reading is then never used, however long it lasts.
/// 2. **Innovation**: the heading the reading implies must be within `magneticRejectionDegrees` of the
///    estimate. When the field is consistent but the innovation stays large for
///    `magneticRecoverySeconds`, the estimate is what drifted: the gate lets the reading in with a
///    boosted gain until the innovation is small again ("magnetic recovery").
/// If the field stays inconsistent for `fieldRelearnSeconds`, the environment changed for good and the
/// reference is learned again from the current field (counted in `relearnCount`).
public struct MagneticFieldGate: Sendable, Equatable {
    /// Learned reference field magnitude, in the magnetometer's (calibrated) units, µT.
    public private(set) var referenceMicrotesla: Double = 0
    /// Learned reference field direction in the vertical plane: cosine and sine of the dip
    /// (inclination below the horizontal), kept normalised.
    public private(set) var referenceCosDip: Double = 1
    public private(set) var referenceSinDip: Double = 0
    /// True once a reference exists.
    public private(set) var hasReference = false
    /// Seconds of consecutive unused readings.
    public private(set) var rejectedSeconds: Double = 0
    /// Seconds of consecutive readings whose field was inconsistent with the reference.
    public private(set) var inconsistentSeconds: Double = 0
    /// True while recovering.
    public private(set) var isRecovering = false
    /// How many times the reference was learned again after a long inconsistency.
    public private(set) var relearnCount: Int = 0

    public init() {}

    /// Forgets the recovery state (on a filter restart); keeps the learned reference.
    public mutating func resetRecovery() {
        rejectedSeconds = 0
        isRecovering = false
    }

    /// Learned reference dip, degrees.
    public var referenceDipDegrees: Double { atan2(referenceSinDip, referenceCosDip) * Angle.degreesPerRadian }

    /// The decision for one reading: `fieldMicrotesla` = |m|; `cosDip`, `sinDip` of the reading's dip
    /// under the estimated tilt; `innovationDegrees` = heading implied by the reading minus the
    /// estimate; `cosDipTolerance` = cos(`fieldDipToleranceDegrees`) (precomputed by the filter).
    @inline(__always)
    public mutating func decide(fieldMicrotesla: Double, cosDip: Double, sinDip: Double, innovationDegrees: Double,
                                cosDipTolerance: Double, startup: Bool, dt: Double,
                                configuration c: AHRSConfiguration) -> MagnetometerDecision {
        if !hasReference {
            referenceMicrotesla = fieldMicrotesla
            referenceCosDip = cosDip
            referenceSinDip = sinDip
            hasReference = true
        }
        if startup {
            learn(fieldMicrotesla: fieldMicrotesla, cosDip: cosDip, sinDip: sinDip, timeConstant: 0.5, dt: dt)
            resetRecovery()
            inconsistentSeconds = 0
            return .accepted
        }
        // cos(dip − reference) ≥ cos(tolerance) ⇔ |dip − reference| ≤ tolerance (dips within ±90°).
        let fieldOK = abs(fieldMicrotesla - referenceMicrotesla) <= c.fieldMagnitudeToleranceFraction * referenceMicrotesla
            && cosDip * referenceCosDip + sinDip * referenceSinDip >= cosDipTolerance
        guard fieldOK else {
            rejectedSeconds += dt
            inconsistentSeconds += dt
            if inconsistentSeconds > c.fieldRelearnSeconds {
                referenceMicrotesla = fieldMicrotesla
                referenceCosDip = cosDip
                referenceSinDip = sinDip
                inconsistentSeconds = 0
                isRecovering = true
                relearnCount += 1
            }
            return .rejectedField
        }
        inconsistentSeconds = 0
        let innovationOK = abs(innovationDegrees) <= c.magneticRejectionDegrees
        if innovationOK || isRecovering {
            if isRecovering && innovationOK { isRecovering = false }
            rejectedSeconds = 0
            learn(fieldMicrotesla: fieldMicrotesla, cosDip: cosDip, sinDip: sinDip,
                  timeConstant: c.fieldReferenceTimeConstantSeconds, dt: dt)
            return isRecovering ? .recovering : .accepted
        }
        rejectedSeconds += dt
        if rejectedSeconds > c.magneticRecoverySeconds {
            isRecovering = true
            return .recovering
        }
        return .rejectedInnovation
    }

    @inline(__always)
    private mutating func learn(fieldMicrotesla: Double, cosDip: Double, sinDip: Double, timeConstant: Double, dt: Double) {
        let a = timeConstant > 0 ? min(1, dt / timeConstant) : 1
        referenceMicrotesla += (fieldMicrotesla - referenceMicrotesla) * a
        let c = referenceCosDip + (cosDip - referenceCosDip) * a
        let s = referenceSinDip + (sinDip - referenceSinDip) * a
        let n2 = c * c + s * s
        if n2 > 0 {
            // One Newton step for 1/√n² when the EMA barely moved (the usual case), exact otherwise.
            let k = abs(n2 - 1) < 1e-6 ? (3 - n2) * 0.5 : 1 / n2.squareRoot()
            referenceCosDip = c * k
            referenceSinDip = s * k
        }
    }
}
