import IMU
import Angles
#if canImport(Glibc)
import Glibc
#endif

/// The recorded-IMU CSV formats `puckd heading replay` reads (the reference data sets in
/// `Tests/Fixtures/imu/`), told apart by their header row.
public enum IMUCSVFormat: UInt8, Sendable, Equatable {
    /// BROAD trials converted to CSV: `time_s, gyr_x_rad_s, …, acc_x_m_s2, …, mag_x_uT, …`, optional
    /// `ref_qw … ref_qz` (motion-capture orientation, sensor → ENU) and `movement`. SI units.
    case broad = 0
    /// x-io Fusion example data: `Time (s), Gyroscope X (deg/s), …, Accelerometer X (g), …,
    /// Magnetometer X (uT), …`. Degrees per second and g.
    case fusion = 1

    public var name: StaticString { self == .broad ? "BROAD" : "Fusion" }
}

/// One parsed CSV row.
public struct IMUCSVRecord: Sendable, Equatable {
    /// The sample in SI units (timestamp = round(time_s · 1e9)).
    public var sample: IMUSample
    /// The row's time, seconds, as written.
    public var timeSeconds: Double
    /// Reference orientation (BROAD `ref_q…`), nil when absent or NaN.
    public var referenceOrientation: Quaternion?
    /// BROAD `movement` flag, nil when absent.
    public var movement: Bool?
}

/// Why a CSV could not be read. Every case says what is wrong and what to do.
public enum IMUCSVError: Error, Sendable, Equatable {
    /// The header row is neither format.
    case unrecognizedHeader(missing: String)
    /// A row has fewer fields than the header.
    case missingFields(line: Int, found: Int, expected: Int)
    /// A field is not a number.
    case badNumber(line: Int, column: Int)
    /// The time is not within ±`IMUCSVParser.maximumTimeSeconds` (it would not fit nanoseconds).
    case timeOutOfRange(line: Int, seconds: Double)

    /// One-sentence explanation with the fix.
    public var message: String {
        switch self {
        case let .unrecognizedHeader(missing):
            return "CSV header is neither the BROAD format (time_s,gyr_x_rad_s,…,acc_x_m_s2,…,mag_x_uT,…) nor the Fusion format (Time (s),Gyroscope X (deg/s),…,Accelerometer X (g),…,Magnetometer X (uT),…): column '\(missing)' is missing; export the data with one of these headers"
        case let .missingFields(line, found, expected):
            return "CSV line \(line) has \(found) fields, the header has \(expected): fix or delete the truncated line"
        case let .badNumber(line, column):
            return "CSV line \(line), column \(column) is not a number: fix the value (NaN is accepted only for reference and magnetometer columns)"
        case let .timeOutOfRange(line, seconds):
            return "CSV line \(line): the time \(seconds) s is outside ±4e9 s (126 years): the time column must be seconds; fix the value"
        }
    }
}

/// Parses recorded-IMU CSV rows line by line (the file is read by the caller, e.g. with POSIX
/// `read`), converting units into an `IMUSample`. Header parsing allocates; rows do not.
public struct IMUCSVParser: Sendable {
    /// The detected format.
    public let format: IMUCSVFormat
    /// Number of fields in the header.
    public let fieldCount: Int
    /// 1-based line number of the last line given to `parse(line:)` (the header is line 1).
    public private(set) var lineNumber = 1
    /// Largest magnitude of a row's time, seconds: ±4e9 s is ±4e18 ns, so any two timestamps differ
    /// by less than `Int64.max` nanoseconds (differences of sample times never overflow).
    public static let maximumTimeSeconds = 4e9
    private var roles = InlineArray<32, UInt8>(repeating: Role.ignore)

    private enum Role {
        static let ignore: UInt8 = 0, time: UInt8 = 1
        static let gyro: UInt8 = 2, accel: UInt8 = 5, mag: UInt8 = 8, reference: UInt8 = 11, movement: UInt8 = 15
    }

    private static let broadColumns = ["time_s", "gyr_x_rad_s", "gyr_y_rad_s", "gyr_z_rad_s",
                                       "acc_x_m_s2", "acc_y_m_s2", "acc_z_m_s2", "mag_x_uT", "mag_y_uT", "mag_z_uT",
                                       "ref_qw", "ref_qx", "ref_qy", "ref_qz", "movement"]
    private static let fusionColumns = ["Time (s)", "Gyroscope X (deg/s)", "Gyroscope Y (deg/s)", "Gyroscope Z (deg/s)",
                                        "Accelerometer X (g)", "Accelerometer Y (g)", "Accelerometer Z (g)",
                                        "Magnetometer X (uT)", "Magnetometer Y (uT)", "Magnetometer Z (uT)"]

    /// Reads the header row and detects the format.
    public init(header: UnsafeRawBufferPointer) throws(IMUCSVError) {
        let names = String(decoding: header, as: UTF8.self).split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingSpaces }
        let isBroad = names.contains("gyr_x_rad_s")
        let expected = isBroad ? IMUCSVParser.broadColumns : IMUCSVParser.fusionColumns
        let required = isBroad ? 10 : 7                  // time, gyro, accel (+ mag for BROAD)
        for name in expected.prefix(required) where !names.contains(name) { throw .unrecognizedHeader(missing: name) }
        format = isBroad ? .broad : .fusion
        fieldCount = names.count
        for (column, name) in names.enumerated() where column < 32 {
            if let role = expected.firstIndex(of: name) { roles[column] = UInt8(role + 1) }
        }
    }

    /// Parses one data line (without its newline). Returns nil for a blank line.
    public mutating func parse(line: UnsafeRawBufferPointer) throws(IMUCSVError) -> IMUCSVRecord? {
        lineNumber += 1
        var values = InlineArray<16, Double>(repeating: .nan)   // indexed by role
        var column = 0, start = 0, blank = true
        var i = 0
        let n = line.count
        while i <= n {
            if i == n || line[i] == UInt8(ascii: ",") {
                if column < 32, roles[column] != Role.ignore {
                    guard let v = IMUCSVParser.number(line, start, i) else { throw .badNumber(line: lineNumber, column: column + 1) }
                    values[Int(roles[column])] = v
                }
                column += 1
                start = i + 1
            } else if line[i] != UInt8(ascii: " ") && line[i] != UInt8(ascii: "\r") {
                blank = false
            }
            i += 1
        }
        if blank { return nil }
        guard column >= fieldCount else { throw .missingFields(line: lineNumber, found: column, expected: fieldCount) }
        let time = values[Int(Role.time)]
        guard time.isFinite else { throw .badNumber(line: lineNumber, column: 1) }
        guard abs(time) <= Self.maximumTimeSeconds else { throw .timeOutOfRange(line: lineNumber, seconds: time) }
        var gyro = Vector3(values[2], values[3], values[4])
        var accel = Vector3(values[5], values[6], values[7])
        guard gyro.isFinite, accel.isFinite else { throw .badNumber(line: lineNumber, column: 2) }
        if format == .fusion {
            gyro = gyro * Angle.radiansPerDegree
            accel = accel * AHRSFilter.standardGravity
        }
        let mag = Vector3(values[8], values[9], values[10])
        let q = Quaternion(w: values[11], x: values[12], y: values[13], z: values[14])
        let movement = values[15]
        // |time| ≤ 4e9 s (checked above): the nanoseconds fit Int64.
        let sample = IMUSample(timestampNanoseconds: Int64((time * 1e9).rounded()), gyroRadiansPerSecond: gyro,
                               accelerationMetersPerSecondSquared: accel, magneticFieldMicrotesla: mag.isFinite ? mag : nil)
        let qValid = q.w.isFinite && q.x.isFinite && q.y.isFinite && q.z.isFinite && q.normSquared > 0
        return IMUCSVRecord(sample: sample, timeSeconds: time, referenceOrientation: qValid ? q.normalized : nil,
                            movement: movement.isNaN ? nil : movement != 0)
    }

    /// Parses a whole file held in memory (header + rows); for tests and benchmarks (allocates).
    public static func parseAll(_ bytes: UnsafeRawBufferPointer) throws(IMUCSVError) -> (IMUCSVFormat, [IMUCSVRecord]) {
        var lineStart = 0
        var parser: IMUCSVParser? = nil
        var records: [IMUCSVRecord] = []
        var i = 0
        while i <= bytes.count {
            if i == bytes.count || bytes[i] == UInt8(ascii: "\n") {
                let line = UnsafeRawBufferPointer(rebasing: bytes[lineStart..<i])
                if parser == nil {
                    parser = try IMUCSVParser(header: line)
                } else if let record = try parser!.parse(line: line) {
                    records.append(record)
                }
                lineStart = i + 1
            }
            i += 1
        }
        guard let p = parser else { throw .unrecognizedHeader(missing: "time_s") }
        return (p.format, records)
    }

    /// The number in line[start..<end] (strtod on a stack copy); NaN for an empty field.
    private static func number(_ line: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Double? {
        var s = start, e = end
        while s < e && (line[s] == UInt8(ascii: " ")) { s += 1 }
        while e > s && (line[e - 1] == UInt8(ascii: " ") || line[e - 1] == UInt8(ascii: "\r")) { e -= 1 }
        let length = e - s
        if length == 0 { return .nan }
        guard length < 64 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> Double? in
            for k in 0..<length { buffer[k] = CChar(bitPattern: line[s + k]) }
            buffer[length] = 0
            var endPointer: UnsafeMutablePointer<CChar>? = nil
            let value = strtod(buffer.baseAddress!, &endPointer)
            guard let endPointer, endPointer == buffer.baseAddress! + length else { return nil }
            return value
        }
    }
}

extension Substring {
    /// Without leading/trailing spaces, tabs and carriage returns.
    fileprivate var trimmingSpaces: String {
        var s = self[...]
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return String(s)
    }
}
