import Heading
import IMU

/// Why stored calibration bytes could not be decoded. Every case says what to do.
public enum CalibrationRecordError: Error, Sendable, Equatable {
    /// Not the record's size.
    case wrongLength(actual: Int, expected: Int)
    /// The first four bytes are not "PKMC".
    case notACalibrationRecord
    /// Written by a newer format.
    case unsupportedVersion(UInt16)
    /// The CRC-32 does not match: the bytes were damaged.
    case checksumMismatch
    /// The numbers decode but do not form a usable calibration.
    case invalidValues

    /// One-sentence explanation with the fix.
    public var message: String {
        switch self {
        case let .wrongLength(actual, expected):
            return "magnetometer calibration record is \(actual) bytes, expected \(expected): the file is truncated or not a calibration; delete it and calibrate again"
        case .notACalibrationRecord:
            return "file is not a puckd magnetometer calibration record (no PKMC magic): delete it and calibrate again"
        case let .unsupportedVersion(v):
            return "magnetometer calibration record has format version \(v), this puckd reads version \(MagnetometerCalibration.recordVersion): upgrade puckd or calibrate again"
        case .checksumMismatch:
            return "magnetometer calibration record failed its CRC-32 check (damaged storage): delete it and calibrate again"
        case .invalidValues:
            return "magnetometer calibration record holds non-finite or singular values: delete it and calibrate again"
        }
    }
}

/// The compact, versioned byte form of a `MagnetometerCalibration`, for the state store (which
/// writes it atomically). Little-endian, 168 bytes:
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | magic "PKMC" |
/// | 4 | 2 | version (1) |
/// | 6 | 2 | flags: bit 0 gyro bias present, bit 1 time present |
/// | 8 | 24 | hard iron x, y, z (float64, µT) |
/// | 32 | 72 | soft iron W, row-major (float64) |
/// | 104 | 8 | field (float64, µT) |
/// | 112 | 8 | coverage fraction (float64) |
/// | 120 | 8 | residual fraction (float64) |
/// | 128 | 24 | gyro bias x, y, z (float64, rad/s; 0 when absent) |
/// | 152 | 8 | UTC nanoseconds since 1970 (int64; 0 when absent) |
/// | 160 | 4 | sample count (uint32) |
/// | 164 | 4 | CRC-32 (IEEE 802.3) of bytes 0 ..< 164 |
extension MagnetometerCalibration {
    /// Format version written by `encode`.
    public static let recordVersion: UInt16 = 1
    /// Size of the record, bytes.
    public static let recordByteCount = 168

    /// Writes the record into `buffer` (at least `recordByteCount` bytes); returns the bytes written
    /// (0 when the buffer is too small). Allocation-free.
    public func encode(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard buffer.count >= Self.recordByteCount else { return 0 }
        var w = RecordWriter(buffer: buffer)
        w.bytes(0x50, 0x4B, 0x4D, 0x43)                  // "PKMC"
        w.u16(Self.recordVersion)
        w.u16((gyroBiasRadiansPerSecond != nil ? 1 : 0) | (utcNanoseconds != nil ? 2 : 0))
        w.vector(hardIronMicrotesla)
        w.vector(softIronRow0)
        w.vector(softIronRow1)
        w.vector(softIronRow2)
        w.f64(fieldMicrotesla)
        w.f64(coverageFraction)
        w.f64(residualFraction)
        w.vector(gyroBiasRadiansPerSecond ?? .zero)
        w.u64(UInt64(bitPattern: utcNanoseconds ?? 0))
        w.u32(UInt32(clamping: sampleCount))
        w.u32(CRC32.checksum(UnsafeRawBufferPointer(rebasing: buffer[0..<w.offset])))
        return w.offset
    }

    /// The record as a byte array (allocates; for the state store and tests).
    public var recordBytes: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Self.recordByteCount)
        _ = bytes.withUnsafeMutableBytes { encode(into: $0) }
        return bytes
    }

    /// Decodes a record written by `encode`.
    public init(record bytes: UnsafeRawBufferPointer) throws(CalibrationRecordError) {
        guard bytes.count == Self.recordByteCount else {
            throw .wrongLength(actual: bytes.count, expected: Self.recordByteCount)
        }
        guard bytes[0] == 0x50, bytes[1] == 0x4B, bytes[2] == 0x4D, bytes[3] == 0x43 else { throw .notACalibrationRecord }
        var r = RecordReader(buffer: bytes, offset: 4)
        let version = r.u16()
        guard version == Self.recordVersion else { throw .unsupportedVersion(version) }
        let stored = RecordReader(buffer: bytes, offset: 164).peekU32()
        guard stored == CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<164])) else { throw .checksumMismatch }
        let flags = r.u16()
        let hard = r.vector(), row0 = r.vector(), row1 = r.vector(), row2 = r.vector()
        let field = r.f64(), coverage = r.f64(), residual = r.f64()
        let bias = r.vector()
        let utc = Int64(bitPattern: r.u64())
        let samples = Int(r.u32())
        self.init(hardIronMicrotesla: hard, softIronRow0: row0, softIronRow1: row1, softIronRow2: row2,
                  fieldMicrotesla: field, coverageFraction: coverage, residualFraction: residual, sampleCount: samples,
                  gyroBiasRadiansPerSecond: flags & 1 != 0 ? bias : nil, utcNanoseconds: flags & 2 != 0 ? utc : nil)
        guard isUsable, (0...1).contains(coverageFraction), bias.isFinite else { throw .invalidValues }
    }
}

private struct RecordWriter {
    let buffer: UnsafeMutableRawBufferPointer
    var offset = 0
    mutating func bytes(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        buffer[offset] = a; buffer[offset + 1] = b; buffer[offset + 2] = c; buffer[offset + 3] = d
        offset += 4
    }
    mutating func u16(_ v: UInt16) { put(UInt64(v), 2) }
    mutating func u32(_ v: UInt32) { put(UInt64(v), 4) }
    mutating func u64(_ v: UInt64) { put(v, 8) }
    mutating func f64(_ v: Double) { put(v.bitPattern, 8) }
    mutating func vector(_ v: Vector3) { f64(v.x); f64(v.y); f64(v.z) }
    private mutating func put(_ v: UInt64, _ n: Int) {
        for i in 0..<n { buffer[offset + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt64(i))) }
        offset += n
    }
}

private struct RecordReader {
    let buffer: UnsafeRawBufferPointer
    var offset: Int
    mutating func u16() -> UInt16 { UInt16(truncatingIfNeeded: get(2)) }
    mutating func u32() -> UInt32 { UInt32(truncatingIfNeeded: get(4)) }
    mutating func u64() -> UInt64 { get(8) }
    mutating func f64() -> Double { Double(bitPattern: get(8)) }
    mutating func vector() -> Vector3 { let x = f64(), y = f64(), z = f64(); return Vector3(x, y, z) }
    func peekU32() -> UInt32 {
        var v: UInt64 = 0
        for i in 0..<4 { v |= UInt64(buffer[offset + i]) << (8 * UInt64(i)) }
        return UInt32(v)
    }
    private mutating func get(_ n: Int) -> UInt64 {
        var v: UInt64 = 0
        for i in 0..<n { v |= UInt64(buffer[offset + i]) << (8 * UInt64(i)) }
        offset += n
        return v
    }
}
