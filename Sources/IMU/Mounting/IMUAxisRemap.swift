/// A signed permutation of axes: each output axis is one input axis, possibly negated. Used for the
/// fixed magnetometer-to-accelerometer axis relations of the chips (AK8963 → MPU-9250 axes is
/// "y,x,-z") and for a board's own magnetometer alignment. Reflections are allowed (the LSM9DS1's
/// magnetometer die is mirrored relative to its accel/gyro die).
public struct IMUAxisRemap: Sendable, Equatable {
    /// For each output axis (x, y, z): the input axis (0 = x, 1 = y, 2 = z).
    public let source: (Int, Int, Int)
    /// For each output axis: +1 or -1.
    public let sign: (Double, Double, Double)

    /// Output = input.
    public static let identity = IMUAxisRemap(verified: (0, 1, 2), (1, 1, 1))

    /// The remap whose output axes are the given signed input axes; nil unless the three axes are
    /// distinct and every sign is ±1.
    public init?(x: (axis: Int, sign: Int), y: (axis: Int, sign: Int), z: (axis: Int, sign: Int)) {
        let axes = [x.axis, y.axis, z.axis]
        guard axes.allSatisfy({ (0...2).contains($0) }), Set(axes).count == 3,
              [x.sign, y.sign, z.sign].allSatisfy({ $0 == 1 || $0 == -1 }) else { return nil }
        self.init(verified: (x.axis, y.axis, z.axis), (Double(x.sign), Double(y.sign), Double(z.sign)))
    }

    private init(verified source: (Int, Int, Int), _ sign: (Double, Double, Double)) {
        self.source = source
        self.sign = sign
    }

    /// Parses "x,y,z"-style text naming, for each output axis, the signed input axis, e.g. "y,x,-z" or
    /// "-x, y, z" (spaces ignored). Nil when the text is not three distinct signed axes.
    public init?(parsing text: String) {
        let parts = text.filter { $0 != " " }.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var parsed: [(axis: Int, sign: Int)] = []
        for part in parts {
            var body = Substring(part)
            var sign = 1
            if body.first == "-" { sign = -1; body = body.dropFirst() } else if body.first == "+" { body = body.dropFirst() }
            switch body {
            case "x": parsed.append((0, sign))
            case "y": parsed.append((1, sign))
            case "z": parsed.append((2, sign))
            default: return nil
            }
        }
        self.init(x: parsed[0], y: parsed[1], z: parsed[2])
    }

    /// The remapped vector.
    @inline(__always)
    public func apply(_ v: Vector3) -> Vector3 {
        Vector3(sign.0 * component(v, source.0), sign.1 * component(v, source.1), sign.2 * component(v, source.2))
    }

    /// The remap of raw integer components (for tests and register-level reasoning).
    public func apply(_ x: Double, _ y: Double, _ z: Double) -> Vector3 { apply(Vector3(x, y, z)) }

    /// The inverse remap (apply(inverse.apply(v)) == v).
    public var inverse: IMUAxisRemap {
        var axes = [0, 0, 0]
        var signs = [1.0, 1.0, 1.0]
        let src = [source.0, source.1, source.2]
        let sgn = [sign.0, sign.1, sign.2]
        for out in 0..<3 {
            axes[src[out]] = out
            signs[src[out]] = sgn[out]
        }
        return IMUAxisRemap(verified: (axes[0], axes[1], axes[2]), (signs[0], signs[1], signs[2]))
    }

    /// Text form, e.g. "y,x,-z" (allocates).
    public var description: String {
        let names = ["x", "y", "z"]
        func term(_ axis: Int, _ s: Double) -> String { (s < 0 ? "-" : "") + names[axis] }
        return term(source.0, sign.0) + "," + term(source.1, sign.1) + "," + term(source.2, sign.2)
    }

    public static func == (a: IMUAxisRemap, b: IMUAxisRemap) -> Bool {
        a.source == b.source && a.sign == b.sign
    }

    @inline(__always)
    private func component(_ v: Vector3, _ axis: Int) -> Double {
        axis == 0 ? v.x : (axis == 1 ? v.y : v.z)
    }
}
