import Angles
import Glibc

/// A direction in the vehicle's board frame (x forward, y left, z up).
public enum MountingDirection: String, Sendable, CaseIterable {
    case forward, backward, left, right, up, down

    /// The unit vector (integer components).
    public var unit: (x: Int, y: Int, z: Int) {
        switch self {
        case .forward: (1, 0, 0)
        case .backward: (-1, 0, 0)
        case .left: (0, 1, 0)
        case .right: (0, -1, 0)
        case .up: (0, 0, 1)
        case .down: (0, 0, -1)
        }
    }
}

/// How the IMU's sensor frame sits in the vehicle: one of the 24 right-angle rotations, named by
/// where the **sensor's x and z axes point** in the vehicle frame ("x-forward,z-up" is the identity,
/// "x-right,z-down" is the sensor upside down and turned to the right, …), plus an arbitrary yaw
/// offset for a board that is not square to the vehicle. The puckd counterpart of CoreLocation's
/// `headingOrientation`, with every mounting a bracket allows.
///
/// `yawOffsetDegrees` is how far the (right-angle-corrected) sensor's forward axis is turned
/// **clockwise seen from above** from the vehicle's forward axis: an uncorrected heading would read
/// this much too high. Every vector of a sample is mapped v_vehicle = Rz(−yaw) · R · v_sensor.
public struct MountingOrientation: Sendable, Equatable {
    /// Where the sensor's x axis points in the vehicle frame.
    public let sensorX: MountingDirection
    /// Where the sensor's z axis points in the vehicle frame.
    public let sensorZ: MountingDirection
    /// Clockwise yaw of the sensor relative to the vehicle, degrees.
    public let yawOffsetDegrees: Double
    /// Row-major 3×3 matrix taking sensor-frame vectors into the vehicle frame (rotation + yaw).
    public let matrix: InlineArray<9, Double>

    /// The identity: sensor axes = vehicle axes.
    public static let identity = MountingOrientation(sensorX: .forward, sensorZ: .up)!

    /// The mounting with the sensor's x and z along the given vehicle directions; nil when they are
    /// parallel (no rotation puts both there).
    public init?(sensorX: MountingDirection, sensorZ: MountingDirection, yawOffsetDegrees: Double = 0) {
        let x = sensorX.unit, z = sensorZ.unit
        guard x.x * z.x + x.y * z.y + x.z * z.z == 0, yawOffsetDegrees.isFinite else { return nil }
        // Sensor y = sensor z × sensor x (right-handed).
        let y = (z.y * x.z - z.z * x.y, z.z * x.x - z.x * x.z, z.x * x.y - z.y * x.x)
        let r: [Double] = [Double(x.x), Double(y.0), Double(z.x),
                           Double(x.y), Double(y.1), Double(z.y),
                           Double(x.z), Double(y.2), Double(z.z)]
        let yaw = -yawOffsetDegrees * Angle.radiansPerDegree
        let c = MountingOrientation.cosine(yaw), s = MountingOrientation.sine(yaw)
        var m = InlineArray<9, Double>(repeating: 0)
        for col in 0..<3 {
            m[col] = c * r[col] - s * r[3 + col]
            m[3 + col] = s * r[col] + c * r[3 + col]
            m[6 + col] = r[6 + col]
        }
        self.sensorX = sensorX
        self.sensorZ = sensorZ
        self.yawOffsetDegrees = yawOffsetDegrees
        self.matrix = m
    }

    /// The 24 right-angle mountings (no yaw offset), in a fixed order.
    public static let allRightAngle: [MountingOrientation] = MountingDirection.allCases.flatMap { x in
        MountingDirection.allCases.compactMap { z in MountingOrientation(sensorX: x, sensorZ: z) }
    }

    /// The same mounting with another yaw offset.
    public func with(yawOffsetDegrees: Double) -> MountingOrientation? {
        MountingOrientation(sensorX: sensorX, sensorZ: sensorZ, yawOffsetDegrees: yawOffsetDegrees)
    }

    /// Maps a sensor-frame vector into the vehicle frame.
    @inline(__always)
    public func apply(_ v: Vector3) -> Vector3 {
        Vector3(matrix[0] * v.x + matrix[1] * v.y + matrix[2] * v.z,
                matrix[3] * v.x + matrix[4] * v.y + matrix[5] * v.z,
                matrix[6] * v.x + matrix[7] * v.y + matrix[8] * v.z)
    }

    /// Maps a vehicle-frame vector back into the sensor frame (the transpose).
    @inline(__always)
    public func applyInverse(_ v: Vector3) -> Vector3 {
        Vector3(matrix[0] * v.x + matrix[3] * v.y + matrix[6] * v.z,
                matrix[1] * v.x + matrix[4] * v.y + matrix[7] * v.z,
                matrix[2] * v.x + matrix[5] * v.y + matrix[8] * v.z)
    }

    /// The sample with gyro, acceleration and magnetic field in the vehicle frame.
    @inline(__always)
    public func apply(to sample: IMUSample) -> IMUSample {
        var out = sample
        out.gyroRadiansPerSecond = apply(sample.gyroRadiansPerSecond)
        out.accelerationMetersPerSecondSquared = apply(sample.accelerationMetersPerSecondSquared)
        if let m = sample.magneticFieldMicrotesla { out.magneticFieldMicrotesla = apply(m) }
        return out
    }

    /// "x-forward,z-up" or "x-right,z-down,yaw=2.5" (allocates). `init(parsing:)` reads it back.
    public var name: String {
        var text = "x-\(sensorX.rawValue),z-\(sensorZ.rawValue)"
        if yawOffsetDegrees != 0 { text += ",yaw=\(yawOffsetDegrees)" }
        return text
    }

    /// Parses "x-DIR,z-DIR" with an optional ",yaw=DEGREES" (DIR: forward, backward, left, right, up,
    /// down; spaces and letter case ignored), e.g. "x-left,z-up,yaw=-3.5".
    public init(parsing text: String) throws(MountingOrientationError) {
        let parts = text.lowercased().filter { $0 != " " }.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { throw .malformed(text) }
        func direction(_ part: Substring, axis: String) throws(MountingOrientationError) -> MountingDirection {
            guard part.hasPrefix(axis + "-") else { throw .malformed(text) }
            let word = String(part.dropFirst(2))
            guard let d = MountingDirection(rawValue: word) else { throw .unknownDirection(word) }
            return d
        }
        let x = try direction(parts[0], axis: "x")
        let z = try direction(parts[1], axis: "z")
        var yaw = 0.0
        if parts.count == 3 {
            guard parts[2].hasPrefix("yaw="), let value = Double(parts[2].dropFirst(4)), value.isFinite else {
                throw .badYaw(String(parts[2]))
            }
            yaw = value
        }
        guard let m = MountingOrientation(sensorX: x, sensorZ: z, yawOffsetDegrees: yaw) else {
            throw .parallelAxes(text)
        }
        self = m
    }

    public static func == (a: MountingOrientation, b: MountingOrientation) -> Bool {
        a.sensorX == b.sensorX && a.sensorZ == b.sensorZ && a.yawOffsetDegrees == b.yawOffsetDegrees
    }

    // Exact at multiples of 90°, so right-angle matrices stay integral.
    private static func cosine(_ radians: Double) -> Double { sine(radians + Double.pi / 2) }

    private static func sine(_ radians: Double) -> Double {
        let quarter = radians / (Double.pi / 2)
        if quarter == quarter.rounded(), abs(quarter) < 1e9 {
            switch ((Int(quarter) % 4) + 4) % 4 {
            case 0: return 0
            case 1: return 1
            case 2: return 0
            default: return -1
            }
        }
        return sin(radians)
    }
}

/// Why a mounting-orientation string did not parse; `message` says what is accepted.
public enum MountingOrientationError: Error, Equatable, Sendable {
    case malformed(String)
    case unknownDirection(String)
    case parallelAxes(String)
    case badYaw(String)

    public var message: String {
        let form = "write \"x-DIR,z-DIR\" or \"x-DIR,z-DIR,yaw=DEGREES\" with DIR one of forward, backward, "
            + "left, right, up, down (where the sensor's x and z axes point), e.g. \"x-forward,z-up\""
        switch self {
        case .malformed(let t): return "mounting orientation \"\(t)\" is not understood: \(form)"
        case .unknownDirection(let w): return "mounting direction \"\(w)\" is unknown: \(form)"
        case .parallelAxes(let t): return "mounting orientation \"\(t)\" points x and z along one line; they must be perpendicular: \(form)"
        case .badYaw(let t): return "mounting yaw \"\(t)\" is not a number of degrees: \(form)"
        }
    }
}
