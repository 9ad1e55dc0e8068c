/// What the filter did with a sample's accelerometer reading.
public enum AccelerometerDecision: UInt8, Sendable, Equatable {
    /// Used for the tilt correction.
    case accepted = 0
    /// Not used: |a| is too far from g (the board is accelerating).
    case rejectedMagnitude = 1
    /// Not used: the direction disagrees with the estimated gravity by more than the rejection angle.
    case rejectedAngle = 2
    /// Not used: zero or not finite.
    case invalid = 3
}

/// Decides whether the accelerometer may correct the tilt (acceleration rejection, after x-io
/// Fusion's `FusionAhrs`), with a recovery rule that only fires when |a| looks like gravity: a large
/// angle error while |a| ≈ g for `accelerationRecoverySeconds` means the estimate drifted, so the
/// accelerometer is trusted again until the error is back inside the rejection angle.
public struct AccelerometerGate: Sendable, Equatable {
    /// Seconds of consecutive "|a| ≈ g but angle rejected" samples.
    public private(set) var rejectedSeconds: Double = 0
    /// True while recovering (angle gate bypassed).
    public private(set) var isRecovering = false

    public init() {}

    /// Forgets the recovery state (on a filter restart).
    public mutating func reset() {
        rejectedSeconds = 0
        isRecovering = false
    }

    /// The decision for one sample. `magnitudeOK`: |a| within tolerance of g; `angleOK`: direction
    /// within the rejection angle of the estimated gravity; `startup`: gates are open during start-up.
    @inline(__always)
    public mutating func decide(magnitudeOK: Bool, angleOK: Bool, startup: Bool, dt: Double,
                                configuration c: AHRSConfiguration) -> AccelerometerDecision {
        if startup {
            reset()
            return .accepted
        }
        guard magnitudeOK else {
            rejectedSeconds = 0
            return .rejectedMagnitude
        }
        if angleOK {
            rejectedSeconds = 0
            isRecovering = false
            return .accepted
        }
        if isRecovering { return .accepted }
        rejectedSeconds += dt
        if rejectedSeconds > c.accelerationRecoverySeconds {
            isRecovering = true
            return .accepted
        }
        return .rejectedAngle
    }
}
