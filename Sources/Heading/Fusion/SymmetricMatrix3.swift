import IMU

/// A symmetric 3×3 matrix with the few operations the ellipsoid fit needs: eigen-decomposition
/// (cyclic Jacobi rotations: deterministic, accurate to rounding for 3×3), square root, determinant.
public struct SymmetricMatrix3: Sendable, Equatable {
    public var xx: Double, xy: Double, xz: Double
    public var yy: Double, yz: Double
    public var zz: Double

    public init(xx: Double, xy: Double, xz: Double, yy: Double, yz: Double, zz: Double) {
        self.xx = xx; self.xy = xy; self.xz = xz
        self.yy = yy; self.yz = yz
        self.zz = zz
    }

    /// Row `i` (0...2).
    public func row(_ i: Int) -> Vector3 {
        switch i {
        case 0: return Vector3(xx, xy, xz)
        case 1: return Vector3(xy, yy, yz)
        default: return Vector3(xz, yz, zz)
        }
    }

    /// `self · v`.
    public func multiply(_ v: Vector3) -> Vector3 { Vector3(row(0).dot(v), row(1).dot(v), row(2).dot(v)) }

    /// Determinant.
    public var determinant: Double { row(0).dot(row(1).cross(row(2))) }

    /// Scaled by `s`.
    public func scaled(_ s: Double) -> SymmetricMatrix3 {
        SymmetricMatrix3(xx: xx * s, xy: xy * s, xz: xz * s, yy: yy * s, yz: yz * s, zz: zz * s)
    }

    /// Eigenvalues (ascending) and the matching unit eigenvectors.
    public func eigen() -> (values: Vector3, vectors: (Vector3, Vector3, Vector3)) {
        var a = InlineArray<9, Double>(repeating: 0)
        a[0] = xx; a[1] = xy; a[2] = xz; a[3] = xy; a[4] = yy; a[5] = yz; a[6] = xz; a[7] = yz; a[8] = zz
        var v = InlineArray<9, Double>(repeating: 0)
        v[0] = 1; v[4] = 1; v[8] = 1
        for _ in 0..<64 {
            let off = a[1] * a[1] + a[2] * a[2] + a[5] * a[5]
            let scale = a[0] * a[0] + a[4] * a[4] + a[8] * a[8]
            if off <= 1e-30 * max(scale, 1e-300) { break }
            for pair in 0..<3 {
                let p = pair == 2 ? 1 : 0, q = pair == 0 ? 1 : 2
                let apq = a[3 * p + q]
                if apq == 0 { continue }
                let theta = (a[3 * q + q] - a[3 * p + p]) / (2 * apq)
                let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                let c = 1 / (t * t + 1).squareRoot(), s = t * c
                for k in 0..<3 {                       // A ← A·J
                    let akp = a[3 * k + p], akq = a[3 * k + q]
                    a[3 * k + p] = c * akp - s * akq
                    a[3 * k + q] = s * akp + c * akq
                }
                for k in 0..<3 {                       // A ← Jᵀ·A
                    let apk = a[3 * p + k], aqk = a[3 * q + k]
                    a[3 * p + k] = c * apk - s * aqk
                    a[3 * q + k] = s * apk + c * aqk
                }
                for k in 0..<3 {                       // V ← V·J
                    let vkp = v[3 * k + p], vkq = v[3 * k + q]
                    v[3 * k + p] = c * vkp - s * vkq
                    v[3 * k + q] = s * vkp + c * vkq
                }
            }
        }
        // Sort ascending.
        var order = (0, 1, 2)
        let d = (a[0], a[4], a[8])
        func value(_ i: Int) -> Double { i == 0 ? d.0 : (i == 1 ? d.1 : d.2) }
        if value(order.0) > value(order.1) { order = (order.1, order.0, order.2) }
        if value(order.1) > value(order.2) { order = (order.0, order.2, order.1) }
        if value(order.0) > value(order.1) { order = (order.1, order.0, order.2) }
        func column(_ i: Int) -> Vector3 { Vector3(v[i], v[3 + i], v[6 + i]) }
        return (Vector3(value(order.0), value(order.1), value(order.2)),
                (column(order.0), column(order.1), column(order.2)))
    }

    /// The symmetric positive square root, or nil when the matrix is not positive definite.
    public func squareRoot() -> SymmetricMatrix3? {
        let (values, vectors) = eigen()
        guard values.x > 0 else { return nil }
        let s = Vector3(values.x.squareRoot(), values.y.squareRoot(), values.z.squareRoot())
        let (e0, e1, e2) = vectors
        // Σ_k s_k e_k e_kᵀ
        func outer(_ e: Vector3, _ w: Double) -> SymmetricMatrix3 {
            SymmetricMatrix3(xx: w * e.x * e.x, xy: w * e.x * e.y, xz: w * e.x * e.z,
                             yy: w * e.y * e.y, yz: w * e.y * e.z, zz: w * e.z * e.z)
        }
        let a = outer(e0, s.x), b = outer(e1, s.y), c = outer(e2, s.z)
        return SymmetricMatrix3(xx: a.xx + b.xx + c.xx, xy: a.xy + b.xy + c.xy, xz: a.xz + b.xz + c.xz,
                                yy: a.yy + b.yy + c.yy, yz: a.yz + b.yz + c.yz, zz: a.zz + b.zz + c.zz)
    }
}
