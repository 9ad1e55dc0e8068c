/// How `EpochAssembler` estimates a fix's horizontal and vertical error, in metres.
///
/// 1. **GST present** (time matching the epoch): the receiver's own 1-sigma statistics.
///    Horizontal = √(σ_lat² + σ_lon²) (the 2D RMS error, ≈ 63-68 % of fixes fall inside), falling back
///    to √(a² + b²) from the error ellipse axes; vertical = σ_alt.
/// 2. **Otherwise DOP × UERE**, with gpsd's user-equivalent range errors (`libgpsd_core.c`,
///    `gpsd_error_model`; gpsd labels them "95 % confidence"), so the figures can be checked against gpsd:
///    horizontal = HDOP × 19.0 m (gpsd's `P_UERE_NO_DGPS`, which it uses for its `eph`),
///    vertical = VDOP × 23.0 m (`V_UERE_NO_DGPS`); with a DGPS fix (GGA quality 2) 4.75 m and 5.75 m.
///    These are deliberately conservative: the GPS SPS user range error budget is ~5-8 m (95 %) before
///    the ionosphere, which dominates single-frequency receivers. Vertical needs a 3D fix.
public struct AccuracyModel: Sendable, Equatable {
    /// Horizontal UERE without differential corrections, metres.
    public var horizontalUERE: Double = 19.0
    /// Vertical UERE without differential corrections, metres.
    public var verticalUERE: Double = 23.0
    /// Horizontal UERE with a DGPS fix, metres.
    public var horizontalUEREDifferential: Double = 4.75
    /// Vertical UERE with a DGPS fix, metres.
    public var verticalUEREDifferential: Double = 5.75

    public init() {}

    /// Fills `fix.horizontalAccuracyMeters`, `verticalAccuracyMeters` and `accuracySource`.
    func apply(to fix: inout Fix) {
        fix.horizontalAccuracyMeters = nil
        fix.verticalAccuracyMeters = nil
        fix.accuracySource = .none
        guard fix.mode != .noFix else { return }
        if let e = fix.errorEllipse {
            var horizontal: Double?
            if let lat = e.latitudeSigmaMeters, let lon = e.longitudeSigmaMeters {
                horizontal = (lat * lat + lon * lon).squareRoot()
            } else if let a = e.semiMajorMeters, let b = e.semiMinorMeters {
                horizontal = (a * a + b * b).squareRoot()
            }
            if let horizontal {
                fix.horizontalAccuracyMeters = horizontal
                fix.verticalAccuracyMeters = fix.mode == .threeD ? e.altitudeSigmaMeters : nil
                fix.accuracySource = .gst
                return
            }
        }
        let differential = fix.quality == .dgps
        if let hdop = fix.hdop {
            fix.horizontalAccuracyMeters = hdop * (differential ? horizontalUEREDifferential : horizontalUERE)
            fix.accuracySource = .dop
        }
        if fix.mode == .threeD, let vdop = fix.vdop {
            fix.verticalAccuracyMeters = vdop * (differential ? verticalUEREDifferential : verticalUERE)
            fix.accuracySource = .dop
        }
    }
}
