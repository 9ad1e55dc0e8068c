import Heading
import NMEA
import Tracking

/// The last good fix as the state keeps it: enough to start the puck "acquiring" where it was.
public struct SavedFix: Sendable, Equatable {
    /// WGS84 degrees.
    public var latitudeDegrees: Double
    public var longitudeDegrees: Double
    /// Altitude above mean sea level, metres, when known.
    public var altitudeMSLMeters: Double?
    /// Horizontal accuracy, metres, when known.
    public var horizontalAccuracyMeters: Double?
    /// UTC of the fix, nanoseconds since 1970, when known.
    public var utcNanoseconds: Int64?
    /// 2D or 3D.
    public var mode: FixMode

    public init(latitudeDegrees: Double, longitudeDegrees: Double, altitudeMSLMeters: Double? = nil,
                horizontalAccuracyMeters: Double? = nil, utcNanoseconds: Int64? = nil, mode: FixMode = .threeD) {
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
        self.altitudeMSLMeters = altitudeMSLMeters
        self.horizontalAccuracyMeters = horizontalAccuracyMeters
        self.utcNanoseconds = utcNanoseconds
        self.mode = mode
    }

    /// The saved fix of a fix with a position (nil otherwise).
    public init?(_ fix: borrowing Fix) {
        guard fix.hasPosition, let lat = fix.latitudeDegrees, let lon = fix.longitudeDegrees else { return nil }
        self.init(latitudeDegrees: lat, longitudeDegrees: lon, altitudeMSLMeters: fix.altitudeMSLMeters,
                  horizontalAccuracyMeters: fix.horizontalAccuracyMeters, utcNanoseconds: fix.utcNanoseconds, mode: fix.mode)
    }

    /// A `Fix` carrying these values (to feed the tracking core at start-up).
    public var fix: Fix {
        var f = Fix(timeOfDayNanoseconds: utcNanoseconds.map { (($0 % 86_400_000_000_000) + 86_400_000_000_000) % 86_400_000_000_000 } ?? 0)
        f.utcNanoseconds = utcNanoseconds
        f.mode = mode
        f.quality = .gps
        f.latitudeDegrees = latitudeDegrees
        f.longitudeDegrees = longitudeDegrees
        f.altitudeMSLMeters = altitudeMSLMeters
        f.horizontalAccuracyMeters = horizontalAccuracyMeters
        return f
    }
}

/// Why a state file could not be decoded.
public enum StateRecordError: Error, Sendable, Equatable {
    case wrongLength(actual: Int, expected: Int)
    case notAStateFile
    case unsupportedVersion(UInt16)
    case checksumMismatch
    case badValue(field: StaticString)

    /// What is wrong, for the log line.
    public var reason: String {
        switch self {
        case .wrongLength(let actual, let expected): return "it has \(actual) bytes, a state file has \(expected) (truncated?)"
        case .notAStateFile: return "it does not start with the state file's magic bytes PKST"
        case .unsupportedVersion(let v): return "it has format version \(v), this puckd reads version \(DeviceStateRecord.version)"
        case .checksumMismatch: return "its checksum does not match its content (a torn or damaged write)"
        case .badValue(let field): return "its \(field) field holds an impossible value"
        }
    }

    public static func == (a: StateRecordError, b: StateRecordError) -> Bool { a.reason == b.reason }
}

/// What puckd remembers across restarts: tracking mode and viewport, showsUserLocation, authorization,
/// the last good fix and the magnetometer calibration. A fixed-size binary record, versioned, with a
/// CRC-32; encoding and decoding allocate nothing.
///
/// | offset | size | content |
/// |---|---|---|
/// | 0 | 4 | magic "PKST" |
/// | 4 | 2 | version (1), little-endian |
/// | 6 | 2 | flags: 1 fix, 2 calibration, 4 showsLocation, 8 altitude, 16 accuracy, 32 UTC |
/// | 8 | 4 | tracking mode, viewport, authorization status, accuracy authorization (one byte each) |
/// | 12 | 41 | fix: latitude, longitude, altitude, accuracy (float64), UTC ns (int64), mode (uint8) |
/// | 56 | 168 | magnetometer calibration record (`MagnetometerCalibration.encode`) |
/// | 224 | 4 | CRC-32 (IEEE 802.3) of bytes 0 ..< 224 |
public struct DeviceStateRecord: Sendable, Equatable {
    /// Format version written.
    public static let version: UInt16 = 1
    /// Size of the record, bytes.
    public static let byteCount = 228

    public var trackingMode: TrackingMode
    public var viewport: InitialViewport
    public var showsLocation: Bool
    public var authorization: AuthorizationStatus
    public var accuracy: AccuracyAuthorization
    public var lastFix: SavedFix?
    public var calibration: MagnetometerCalibration?

    public init(trackingMode: TrackingMode = .none, viewport: InitialViewport = .idle, showsLocation: Bool = true,
                authorization: AuthorizationStatus = .authorized, accuracy: AccuracyAuthorization = .full,
                lastFix: SavedFix? = nil, calibration: MagnetometerCalibration? = nil) {
        self.trackingMode = trackingMode
        self.viewport = viewport
        self.showsLocation = showsLocation
        self.authorization = authorization
        self.accuracy = accuracy
        self.lastFix = lastFix
        self.calibration = calibration
    }

    /// Writes the record into `buffer` (at least `byteCount` bytes); returns `byteCount` (0 when the
    /// buffer is too small).
    public func encode(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard buffer.count >= Self.byteCount else { return 0 }
        var i = 0
        while i < Self.byteCount { buffer[i] = 0; i += 1 }
        buffer[0] = 0x50; buffer[1] = 0x4B; buffer[2] = 0x53; buffer[3] = 0x54
        put(UInt64(Self.version), 2, at: 4, buffer)
        var flags: UInt16 = 0
        if lastFix != nil { flags |= 1 }
        if calibration != nil { flags |= 2 }
        if showsLocation { flags |= 4 }
        if lastFix?.altitudeMSLMeters != nil { flags |= 8 }
        if lastFix?.horizontalAccuracyMeters != nil { flags |= 16 }
        if lastFix?.utcNanoseconds != nil { flags |= 32 }
        put(UInt64(flags), 2, at: 6, buffer)
        buffer[8] = trackingMode.rawValue
        buffer[9] = viewport.rawValue
        buffer[10] = authorization.rawValue
        buffer[11] = accuracy.rawValue
        if let fix = lastFix {
            put(fix.latitudeDegrees.bitPattern, 8, at: 12, buffer)
            put(fix.longitudeDegrees.bitPattern, 8, at: 20, buffer)
            put((fix.altitudeMSLMeters ?? 0).bitPattern, 8, at: 28, buffer)
            put((fix.horizontalAccuracyMeters ?? 0).bitPattern, 8, at: 36, buffer)
            put(UInt64(bitPattern: fix.utcNanoseconds ?? 0), 8, at: 44, buffer)
            buffer[52] = fix.mode.rawValue
        }
        if let calibration {
            _ = calibration.encode(into: UnsafeMutableRawBufferPointer(rebasing: buffer[56..<224]))
        }
        put(UInt64(Self.crc32(UnsafeRawBufferPointer(rebasing: buffer[0..<224]))), 4, at: 224, buffer)
        return Self.byteCount
    }

    /// Decodes a record written by `encode`.
    public init(bytes: UnsafeRawBufferPointer) throws(StateRecordError) {
        guard bytes.count == Self.byteCount else { throw .wrongLength(actual: bytes.count, expected: Self.byteCount) }
        guard bytes[0] == 0x50, bytes[1] == 0x4B, bytes[2] == 0x53, bytes[3] == 0x54 else { throw .notAStateFile }
        let version = UInt16(Self.get(bytes, 4, 2))
        guard version == Self.version else { throw .unsupportedVersion(version) }
        guard UInt32(Self.get(bytes, 224, 4)) == Self.crc32(UnsafeRawBufferPointer(rebasing: bytes[0..<224])) else {
            throw .checksumMismatch
        }
        let flags = UInt16(Self.get(bytes, 6, 2))
        guard let mode = TrackingMode(rawValue: bytes[8]) else { throw .badValue(field: "tracking mode") }
        guard let viewport = InitialViewport(rawValue: bytes[9]) else { throw .badValue(field: "viewport") }
        guard let status = AuthorizationStatus(rawValue: bytes[10]) else { throw .badValue(field: "authorization") }
        guard let accuracy = AccuracyAuthorization(rawValue: bytes[11]) else { throw .badValue(field: "accuracy") }
        var fix: SavedFix?
        if flags & 1 != 0 {
            guard let fixMode = FixMode(rawValue: bytes[52]), fixMode != .noFix else { throw .badValue(field: "fix mode") }
            let lat = Double(bitPattern: Self.get(bytes, 12, 8)), lon = Double(bitPattern: Self.get(bytes, 20, 8))
            guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else { throw .badValue(field: "fix position") }
            fix = SavedFix(latitudeDegrees: lat, longitudeDegrees: lon,
                           altitudeMSLMeters: flags & 8 != 0 ? Double(bitPattern: Self.get(bytes, 28, 8)) : nil,
                           horizontalAccuracyMeters: flags & 16 != 0 ? Double(bitPattern: Self.get(bytes, 36, 8)) : nil,
                           utcNanoseconds: flags & 32 != 0 ? Int64(bitPattern: Self.get(bytes, 44, 8)) : nil,
                           mode: fixMode)
        }
        var calibration: MagnetometerCalibration?
        if flags & 2 != 0 {
            do throws(CalibrationRecordError) {
                calibration = try MagnetometerCalibration(record: UnsafeRawBufferPointer(rebasing: bytes[56..<224]))
            } catch {
                throw .badValue(field: "magnetometer calibration")
            }
        }
        self.init(trackingMode: mode, viewport: viewport, showsLocation: flags & 4 != 0, authorization: status,
                  accuracy: accuracy, lastFix: fix, calibration: calibration)
    }

    private func put(_ value: UInt64, _ size: Int, at offset: Int, _ buffer: UnsafeMutableRawBufferPointer) {
        var i = 0
        while i < size { buffer[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))); i += 1 }
    }

    private static func get(_ bytes: UnsafeRawBufferPointer, _ offset: Int, _ size: Int) -> UInt64 {
        var value: UInt64 = 0
        var i = 0
        while i < size { value |= UInt64(bytes[offset + i]) << (8 * UInt64(i)); i += 1 }
        return value
    }

    /// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), bit by bit: 224 bytes, no table.
    static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        var i = 0
        while i < bytes.count {
            crc ^= UInt32(bytes[i])
            var bit = 0
            while bit < 8 {
                crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
                bit += 1
            }
            i += 1
        }
        return ~crc
    }
}
