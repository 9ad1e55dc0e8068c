import Configuration
import Heading
import IMU
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
    case empty
    case notAStateFile
    case unsupportedVersion(UInt16)
    case checksumMismatch
    case badValue(field: StaticString)

    /// What is wrong, for the log line.
    public var reason: String {
        switch self {
        case .wrongLength(let actual, let expected):
            return "it has \(actual) bytes, a state file of its version has \(expected) (truncated or cut short by a crash)"
        case .empty: return "it is empty (cut short before its first byte was written)"
        case .notAStateFile: return "it does not start with the state file's magic bytes PKST"
        case .unsupportedVersion(let v):
            return "it has format version \(v), this puckd reads versions 1 to \(DeviceStateRecord.version) (written by a newer puckd?)"
        case .checksumMismatch: return "its checksum does not match its content (a torn or damaged write)"
        case .badValue(let field): return "its \(field) field holds an impossible value"
        }
    }

    public static func == (a: StateRecordError, b: StateRecordError) -> Bool { a.reason == b.reason }
}

/// The follow-puck viewport options the state keeps (set with `viewport follow zoom=… pitch=… bearing=…`).
public struct SavedFollowViewport: Sendable, Equatable {
    /// Zoom level (512-pt tiles) and pitch, degrees.
    public var zoom: Double
    public var pitchDegrees: Double
    /// Heading, course, or a constant bearing (degrees clockwise from true north).
    public var bearing: FollowPuckBearing

    public init(zoom: Double, pitchDegrees: Double, bearing: FollowPuckBearing) {
        self.zoom = zoom
        self.pitchDegrees = pitchDegrees
        self.bearing = bearing
    }

    /// The tracking core's options.
    public var options: FollowPuckOptions { FollowPuckOptions(zoom: zoom, pitchDegrees: pitchDegrees, bearing: bearing) }
}

/// What puckd remembers across restarts: tracking mode and viewport (with the follow-puck options),
/// showsUserLocation, authorization, the last good fix, the magnetometer calibration and the gyroscope
/// bias. A fixed-size binary record, versioned, with a CRC-32; encoding and decoding allocate nothing.
///
/// Version 2 (written; version 1 files, 228 bytes without the last three rows, are still read):
///
/// | offset | size | content |
/// |---|---|---|
/// | 0 | 4 | magic "PKST" |
/// | 4 | 2 | version (2), little-endian |
/// | 6 | 2 | flags: 1 fix, 2 calibration, 4 showsLocation, 8 altitude, 16 accuracy, 32 UTC, 64 gyro bias, 128 follow options |
/// | 8 | 4 | tracking mode, viewport, authorization status, accuracy authorization (one byte each) |
/// | 12 | 41 | fix: latitude, longitude, altitude, accuracy (float64), UTC ns (int64), mode (uint8) |
/// | 53 | 1 | follow bearing kind: 0 heading, 1 course, 2 constant |
/// | 56 | 168 | magnetometer calibration record (`MagnetometerCalibration.encode`) |
/// | 224 | 24 | gyroscope bias x, y, z, rad/s (float64) |
/// | 248 | 24 | follow zoom, follow pitch (degrees), constant follow bearing (degrees) (float64) |
/// | 272 | 4 | CRC-32 (IEEE 802.3) of bytes 0 ..< 272 |
public struct DeviceStateRecord: Sendable, Equatable {
    /// Format version written.
    public static let version: UInt16 = 2
    /// Size of the record written, bytes.
    public static let byteCount = 276
    /// Size of a version 1 record, bytes.
    public static let version1ByteCount = 228

    public var trackingMode: TrackingMode
    public var viewport: InitialViewport
    public var showsLocation: Bool
    public var authorization: AuthorizationStatus
    public var accuracy: AccuracyAuthorization
    public var lastFix: SavedFix?
    public var calibration: MagnetometerCalibration?
    /// Gyroscope bias, rad/s (board frame), from `calibrate gyro` or learned at rest; nil when none.
    public var gyroBiasRadiansPerSecond: Vector3?
    /// The follow-puck viewport's options, nil for the configured ones.
    public var followViewport: SavedFollowViewport?

    public init(trackingMode: TrackingMode = .none, viewport: InitialViewport = .idle, showsLocation: Bool = true,
                authorization: AuthorizationStatus = .authorized, accuracy: AccuracyAuthorization = .full,
                lastFix: SavedFix? = nil, calibration: MagnetometerCalibration? = nil,
                gyroBiasRadiansPerSecond: Vector3? = nil, followViewport: SavedFollowViewport? = nil) {
        self.trackingMode = trackingMode
        self.viewport = viewport
        self.showsLocation = showsLocation
        self.authorization = authorization
        self.accuracy = accuracy
        self.lastFix = lastFix
        self.calibration = calibration
        self.gyroBiasRadiansPerSecond = gyroBiasRadiansPerSecond
        self.followViewport = followViewport
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
        if gyroBiasRadiansPerSecond != nil { flags |= 64 }
        if followViewport != nil { flags |= 128 }
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
        if let bias = gyroBiasRadiansPerSecond {
            put(bias.x.bitPattern, 8, at: 224, buffer)
            put(bias.y.bitPattern, 8, at: 232, buffer)
            put(bias.z.bitPattern, 8, at: 240, buffer)
        }
        if let follow = followViewport {
            put(follow.zoom.bitPattern, 8, at: 248, buffer)
            put(follow.pitchDegrees.bitPattern, 8, at: 256, buffer)
            switch follow.bearing {
            case .heading: buffer[53] = 0
            case .course: buffer[53] = 1
            case .constant(let degrees):
                buffer[53] = 2
                put(degrees.bitPattern, 8, at: 264, buffer)
            }
        }
        put(UInt64(CRC32.checksum(UnsafeRawBufferPointer(rebasing: buffer[0..<272]))), 4, at: 272, buffer)
        return Self.byteCount
    }

    /// Decodes a record written by `encode` (version 2) or by an older puckd (version 1).
    public init(bytes: UnsafeRawBufferPointer) throws(StateRecordError) {
        if bytes.count == 0 { throw .empty }
        guard bytes.count >= 4, bytes[0] == 0x50, bytes[1] == 0x4B, bytes[2] == 0x53, bytes[3] == 0x54 else {
            throw bytes.count < 4 ? .wrongLength(actual: bytes.count, expected: Self.byteCount) : .notAStateFile
        }
        guard bytes.count >= 6 else { throw .wrongLength(actual: bytes.count, expected: Self.byteCount) }
        let version = UInt16(Self.get(bytes, 4, 2))
        let size: Int
        switch version {
        case 1: size = Self.version1ByteCount
        case 2: size = Self.byteCount
        default: throw .unsupportedVersion(version)
        }
        guard bytes.count == size else { throw .wrongLength(actual: bytes.count, expected: size) }
        guard UInt32(Self.get(bytes, size - 4, 4)) == CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<size - 4])) else {
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
            let altitude = flags & 8 != 0 ? Double(bitPattern: Self.get(bytes, 28, 8)) : nil
            let accuracy = flags & 16 != 0 ? Double(bitPattern: Self.get(bytes, 36, 8)) : nil
            let utc = flags & 32 != 0 ? Int64(bitPattern: Self.get(bytes, 44, 8)) : nil
            // What puckd writes is a fix from its NMEA pipeline: finite, dated 1970…2262.
            guard altitude?.isFinite ?? true, accuracy?.isFinite ?? true,
                  utc.map({ $0 >= 0 && $0 < UTCDateResolver.latestDays * 86_400_000_000_000 }) ?? true else {
                throw .badValue(field: "fix values")
            }
            fix = SavedFix(latitudeDegrees: lat, longitudeDegrees: lon, altitudeMSLMeters: altitude,
                           horizontalAccuracyMeters: accuracy, utcNanoseconds: utc, mode: fixMode)
        }
        var calibration: MagnetometerCalibration?
        if flags & 2 != 0 {
            do throws(CalibrationRecordError) {
                calibration = try MagnetometerCalibration(record: UnsafeRawBufferPointer(rebasing: bytes[56..<224]))
            } catch {
                throw .badValue(field: "magnetometer calibration")
            }
        }
        var gyroBias: Vector3?
        var follow: SavedFollowViewport?
        if version >= 2 {
            if flags & 64 != 0 {
                let bias = Vector3(Double(bitPattern: Self.get(bytes, 224, 8)), Double(bitPattern: Self.get(bytes, 232, 8)),
                                   Double(bitPattern: Self.get(bytes, 240, 8)))
                guard bias.x.isFinite, bias.y.isFinite, bias.z.isFinite, bias.length < 1 else {
                    throw .badValue(field: "gyroscope bias")
                }
                gyroBias = bias
            }
            if flags & 128 != 0 {
                let zoom = Double(bitPattern: Self.get(bytes, 248, 8)), pitch = Double(bitPattern: Self.get(bytes, 256, 8))
                guard zoom.isFinite, zoom >= 0, zoom <= 25.5, pitch.isFinite, pitch >= 0, pitch <= 85 else {
                    throw .badValue(field: "follow viewport")
                }
                let bearing: FollowPuckBearing
                switch bytes[53] {
                case 0: bearing = .heading
                case 1: bearing = .course
                case 2:
                    let degrees = Double(bitPattern: Self.get(bytes, 264, 8))
                    guard degrees.isFinite, degrees >= 0, degrees < 360 else { throw .badValue(field: "follow bearing") }
                    bearing = .constant(degrees)
                default: throw .badValue(field: "follow bearing")
                }
                follow = SavedFollowViewport(zoom: zoom, pitchDegrees: pitch, bearing: bearing)
            }
        } else if let seed = calibration?.gyroBiasRadiansPerSecond {
            gyroBias = seed
        }
        self.init(trackingMode: mode, viewport: viewport, showsLocation: flags & 4 != 0, authorization: status,
                  accuracy: accuracy, lastFix: fix, calibration: calibration, gyroBiasRadiansPerSecond: gyroBias,
                  followViewport: follow)
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
}
