import IMU
#if canImport(Glibc)
import Glibc
#endif

/// Least-squares ellipsoid fit of magnetometer samples: finds h and W such that |W·(m − h)| is
/// constant, the hard/soft-iron model of `MagnetometerCalibration`.
///
/// Method: the algebraic fit of the general quadric xᵀAx + 2bᵀx = 1 (9 unknowns; e.g. Li & Griffiths,
/// "Least squares ellipsoid specific fitting", GMP 2004, without their constraint, which the checks
/// below replace), solved by the normal equations with partial pivoting on samples centred and scaled
/// by their bounding box for conditioning. Then h = −A⁻¹b, M = A / (1 + hᵀAh) (the ellipsoid
/// (x−h)ᵀM(x−h) = 1), and W = R·M^½ with the symmetric square root, so W maps the ellipsoid onto a
/// sphere of radius R without rotating it: R is the expected field if given, else the geometric-mean
/// radius (det W = 1 in shape, the field strength is preserved on average).
public enum EllipsoidFit {
    /// Fit result.
    public struct Result: Sendable, Equatable {
        /// Ellipsoid centre = hard iron, µT.
        public var center: Vector3
        /// W, the soft-iron correction (symmetric).
        public var transform: SymmetricMatrix3
        /// Radius of the corrected sphere, µT.
        public var radiusMicrotesla: Double
        /// RMS of (|W(m − h)| − R)/R over the samples.
        public var residualFraction: Double
        /// Longest over shortest ellipsoid axis.
        public var axisRatio: Double
    }

    /// Largest accepted axis ratio (soft iron and scale errors are a few per cent, rarely 1.5).
    public static let maximumAxisRatio = 3.0

    /// Fits an ellipsoid to `samples` (µT). `expectedFieldMicrotesla` (e.g. the WMM total intensity)
    /// sets the corrected radius when positive.
    public static func fit(_ samples: UnsafeBufferPointer<Vector3>, expectedFieldMicrotesla: Double? = nil)
        throws(MagnetometerCalibrationError) -> Result {
        let n = samples.count
        guard n >= 12 else { throw .tooFewSamples(count: n, needed: 12) }
        // Centre and scale by the bounding box for conditioning.
        var lo = samples[0], hi = samples[0]
        for i in 1..<n {
            let s = samples[i]
            lo = Vector3(min(lo.x, s.x), min(lo.y, s.y), min(lo.z, s.z))
            hi = Vector3(max(hi.x, s.x), max(hi.y, s.y), max(hi.z, s.z))
        }
        let c0 = (lo + hi) * 0.5
        let r0 = max((hi - lo).maximumMagnitude * 0.5, 1e-9)

        // Normal equations N p = t for rows v = (x², y², z², 2yz, 2xz, 2xy, 2x, 2y, 2z), target 1.
        var normal = InlineArray<81, Double>(repeating: 0)
        var rhs = InlineArray<9, Double>(repeating: 0)
        var v = InlineArray<9, Double>(repeating: 0)
        for i in 0..<n {
            let u = (samples[i] - c0) * (1 / r0)
            v[0] = u.x * u.x; v[1] = u.y * u.y; v[2] = u.z * u.z
            v[3] = 2 * u.y * u.z; v[4] = 2 * u.x * u.z; v[5] = 2 * u.x * u.y
            v[6] = 2 * u.x; v[7] = 2 * u.y; v[8] = 2 * u.z
            for r in 0..<9 {
                rhs[r] += v[r]
                for c in r..<9 { normal[9 * r + c] += v[r] * v[c] }
            }
        }
        for r in 0..<9 { for c in 0..<r { normal[9 * r + c] = normal[9 * c + r] } }
        guard let p = solve9(&normal, &rhs) else { throw .degenerate }

        let a = SymmetricMatrix3(xx: p[0], xy: p[5], xz: p[4], yy: p[1], yz: p[3], zz: p[2])
        let b = Vector3(p[6], p[7], p[8])
        guard let aInverse = inverse(a) else { throw .notAnEllipsoid }
        let centerScaled = -(aInverse.multiply(b))
        let k = 1 + centerScaled.dot(a.multiply(centerScaled))
        guard k > 0, k.isFinite else { throw .notAnEllipsoid }
        let mScaled = a.scaled(1 / k)
        let (values, _) = mScaled.eigen()
        guard values.x > 0 else { throw .notAnEllipsoid }
        let axisRatio = (values.z / values.x).squareRoot()
        guard axisRatio <= maximumAxisRatio else { throw .implausibleDistortion(axisRatio: axisRatio) }

        // Back to raw units: (x − h)ᵀ M (x − h) = 1 with h = c0 + r0·cs, M = Ms / r0².
        let center = c0 + centerScaled * r0
        let m = mScaled.scaled(1 / (r0 * r0))
        guard let root = m.squareRoot() else { throw .notAnEllipsoid }
        let meanRadius = r0 / cbrt((values.x * values.y * values.z).squareRoot())   // (λ1λ2λ3)^(−1/6)
        let radius = (expectedFieldMicrotesla ?? 0) > 0 ? expectedFieldMicrotesla! : meanRadius
        let transform = root.scaled(radius)

        var sumSquares = 0.0
        for i in 0..<n {
            let e = transform.multiply(samples[i] - center).length / radius - 1
            sumSquares += e * e
        }
        return Result(center: center, transform: transform, radiusMicrotesla: radius,
                      residualFraction: (sumSquares / Double(n)).squareRoot(), axisRatio: axisRatio)
    }

    /// Inverse of a symmetric 3×3 matrix, nil when singular.
    static func inverse(_ a: SymmetricMatrix3) -> SymmetricMatrix3? {
        let det = a.determinant
        let scale = max(abs(a.xx), abs(a.yy), abs(a.zz), 1e-300)
        guard abs(det) > 1e-14 * scale * scale * scale else { return nil }
        let i = 1 / det
        return SymmetricMatrix3(xx: (a.yy * a.zz - a.yz * a.yz) * i, xy: (a.xz * a.yz - a.xy * a.zz) * i,
                                xz: (a.xy * a.yz - a.xz * a.yy) * i, yy: (a.xx * a.zz - a.xz * a.xz) * i,
                                yz: (a.xz * a.xy - a.xx * a.yz) * i, zz: (a.xx * a.yy - a.xy * a.xy) * i)
    }

    /// Solves the 9×9 system in place (Gaussian elimination, partial pivoting); nil when singular.
    static func solve9(_ m: inout InlineArray<81, Double>, _ b: inout InlineArray<9, Double>) -> InlineArray<9, Double>? {
        var largest = 0.0
        for i in 0..<9 { largest = max(largest, abs(m[10 * i])) }
        guard largest > 0 else { return nil }
        for col in 0..<9 {
            var pivot = col
            for r in (col + 1)..<9 where abs(m[9 * r + col]) > abs(m[9 * pivot + col]) { pivot = r }
            guard abs(m[9 * pivot + col]) > 1e-12 * largest else { return nil }
            if pivot != col {
                for c in 0..<9 { m.swapAt(9 * pivot + c, 9 * col + c) }
                b.swapAt(pivot, col)
            }
            let d = m[9 * col + col]
            for r in (col + 1)..<9 {
                let f = m[9 * r + col] / d
                if f == 0 { continue }
                for c in col..<9 { m[9 * r + c] -= f * m[9 * col + c] }
                b[r] -= f * b[col]
            }
        }
        var x = InlineArray<9, Double>(repeating: 0)
        for r in stride(from: 8, through: 0, by: -1) {
            var s = b[r]
            for c in (r + 1)..<9 { s -= m[9 * r + c] * x[c] }
            x[r] = s / m[9 * r + r]
        }
        return x
    }
}
