import NMEA
import State

/// Which measurement a record's heading came from (the tracking core's bearing fallback).
public enum TrackHeadingSource: UInt8, Sendable, Equatable {
    case none = 0
    /// The IMU's fused heading.
    case imu = 1
    /// A GNSS true heading (NMEA HDT/THS).
    case gnssTrueHeading = 2
    /// The course over ground.
    case course = 3
}

/// The heading that goes into a record with the fix: degrees clockwise from true north, its 1-sigma
/// accuracy in degrees when known, and where it came from.
public struct TrackHeading: Sendable, Equatable {
    public var degrees: Double?
    public var accuracyDegrees: Double?
    public var source: TrackHeadingSource

    public init(degrees: Double? = nil, accuracyDegrees: Double? = nil, source: TrackHeadingSource = .none) {
        self.degrees = degrees
        self.accuracyDegrees = accuracyDegrees
        self.source = source
    }
}

/// One fix in the track journal: a fixed-size 88-byte little-endian record ending in a CRC-32
/// (docs/track-log.md §2 has the layout byte by byte). Optional values are absent (a flag bit clear),
/// never zero. Encoding and decoding allocate nothing.
public struct TrackRecord: Sendable, Equatable {
    /// Bytes of one record on disk.
    public static let byteCount = 88
    /// The first two bytes of every record, "TK".
    static let marker: (UInt8, UInt8) = (0x54, 0x4B)

    /// Position in the journal: increases by 1 per record across segments and restarts.
    public var sequence: UInt64
    /// UTC of the fix, nanoseconds since 1970, when the receiver gave a date.
    public var utcNanoseconds: Int64?
    /// WGS84 degrees.
    public var latitudeDegrees: Double
    public var longitudeDegrees: Double
    /// Above mean sea level, metres.
    public var altitudeMSLMeters: Double?
    public var speedMetersPerSecond: Double?
    /// Course over ground, degrees clockwise from true north.
    public var courseDegrees: Double?
    public var heading: TrackHeading
    /// Estimated horizontal and vertical position error, metres.
    public var horizontalAccuracyMeters: Double?
    public var verticalAccuracyMeters: Double?
    public var mode: FixMode
    public var quality: FixQuality
    /// Satellites used in the solution (255 stands for 255 or more).
    public var satellitesUsed: Int?
    public var hdop: Double?
    public var vdop: Double?
    public var pdop: Double?

    public init(sequence: UInt64, utcNanoseconds: Int64?, latitudeDegrees: Double, longitudeDegrees: Double,
                altitudeMSLMeters: Double? = nil, speedMetersPerSecond: Double? = nil, courseDegrees: Double? = nil,
                heading: TrackHeading = TrackHeading(), horizontalAccuracyMeters: Double? = nil,
                verticalAccuracyMeters: Double? = nil, mode: FixMode = .threeD, quality: FixQuality = .gps,
                satellitesUsed: Int? = nil, hdop: Double? = nil, vdop: Double? = nil, pdop: Double? = nil) {
        self.sequence = sequence
        self.utcNanoseconds = utcNanoseconds
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
        self.altitudeMSLMeters = altitudeMSLMeters
        self.speedMetersPerSecond = speedMetersPerSecond
        self.courseDegrees = courseDegrees
        self.heading = heading
        self.horizontalAccuracyMeters = horizontalAccuracyMeters
        self.verticalAccuracyMeters = verticalAccuracyMeters
        self.mode = mode
        self.quality = quality
        self.satellitesUsed = satellitesUsed
        self.hdop = hdop
        self.vdop = vdop
        self.pdop = pdop
    }

    /// The record of a fix with a position (nil for an epoch without one).
    public init?(sequence: UInt64, fix: borrowing Fix, heading: TrackHeading) {
        guard fix.hasPosition, let lat = fix.latitudeDegrees, let lon = fix.longitudeDegrees,
              lat.isFinite, lon.isFinite else { return nil }
        self.init(sequence: sequence, utcNanoseconds: fix.utcNanoseconds, latitudeDegrees: lat, longitudeDegrees: lon,
                  altitudeMSLMeters: fix.mode == .threeD ? fix.altitudeMSLMeters : nil,
                  speedMetersPerSecond: fix.speedMetersPerSecond, courseDegrees: fix.courseDegrees, heading: heading,
                  horizontalAccuracyMeters: fix.horizontalAccuracyMeters, verticalAccuracyMeters: fix.verticalAccuracyMeters,
                  mode: fix.mode, quality: fix.quality, satellitesUsed: fix.satellitesUsed,
                  hdop: fix.hdop, vdop: fix.vdop, pdop: fix.pdop)
    }

    // Presence flags (bytes 2–3).
    static let hasUTC: UInt16 = 1, hasAltitude: UInt16 = 2, hasSpeed: UInt16 = 4, hasCourse: UInt16 = 8
    static let hasHeading: UInt16 = 16, hasHeadingAccuracy: UInt16 = 32, hasHorizontalAccuracy: UInt16 = 64
    static let hasVerticalAccuracy: UInt16 = 128, hasSatellites: UInt16 = 256, hasHDOP: UInt16 = 512
    static let hasVDOP: UInt16 = 1024, hasPDOP: UInt16 = 2048
    static let knownFlags: UInt16 = 4095

    /// Writes the record into `out[offset ..< offset + byteCount]`.
    public func encode(into out: UnsafeMutableRawBufferPointer, at offset: Int) {
        precondition(offset >= 0 && offset + Self.byteCount <= out.count)
        var w = RecordWriter(base: out.baseAddress! + offset)
        var flags: UInt16 = 0
        let altitude = Self.float(altitudeMSLMeters, Self.hasAltitude, &flags)
        let speed = Self.float(speedMetersPerSecond, Self.hasSpeed, &flags)
        let course = Self.float(courseDegrees, Self.hasCourse, &flags)
        let headingValue = Self.float(heading.degrees, Self.hasHeading, &flags)
        let headingAccuracy = Self.float(heading.accuracyDegrees, Self.hasHeadingAccuracy, &flags)
        let horizontal = Self.float(horizontalAccuracyMeters, Self.hasHorizontalAccuracy, &flags)
        let vertical = Self.float(verticalAccuracyMeters, Self.hasVerticalAccuracy, &flags)
        let h = Self.float(hdop, Self.hasHDOP, &flags), v = Self.float(vdop, Self.hasVDOP, &flags)
        let p = Self.float(pdop, Self.hasPDOP, &flags)
        if utcNanoseconds != nil { flags |= Self.hasUTC }
        if satellitesUsed != nil { flags |= Self.hasSatellites }
        w.u8(Self.marker.0); w.u8(Self.marker.1)
        w.u16(flags)
        w.u8(mode.rawValue); w.u8(quality.rawValue); w.u8(heading.source.rawValue)
        w.u8(UInt8(clamping: max(0, satellitesUsed ?? 0)))
        w.u64(sequence)
        w.u64(UInt64(bitPattern: utcNanoseconds ?? 0))
        w.u64(latitudeDegrees.bitPattern); w.u64(longitudeDegrees.bitPattern)
        w.u32(altitude.bitPattern); w.u32(speed.bitPattern); w.u32(course.bitPattern); w.u32(headingValue.bitPattern)
        w.u32(headingAccuracy.bitPattern); w.u32(horizontal.bitPattern); w.u32(vertical.bitPattern)
        w.u32(h.bitPattern); w.u32(v.bitPattern); w.u32(p.bitPattern)
        w.u32(0)   // reserved
        let crc = CRC32.checksum(UnsafeRawBufferPointer(start: out.baseAddress! + offset, count: Self.byteCount - 4))
        w.u32(crc)
    }

    /// The next float32 field as a Double, or nil when its flag `bit` is clear (the field is still read).
    @inline(__always)
    static func value(_ r: inout RecordReader, _ flags: UInt16, _ bit: UInt16) -> Double? {
        let raw = Double(Float(bitPattern: r.u32()))
        return flags & bit != 0 ? raw : nil
    }

    /// The float32 of a present, finite value (and its flag set), else 0.
    @inline(__always)
    static func float(_ value: Double?, _ bit: UInt16, _ flags: inout UInt16) -> Float {
        guard let value, value.isFinite else { return 0 }
        flags |= bit
        return Float(value)
    }

    /// Decodes the record at `bytes[offset ..< offset + byteCount]`; nil when its marker, CRC or a
    /// value is wrong (a torn or damaged record).
    public init?(decoding bytes: UnsafeRawBufferPointer, at offset: Int) {
        guard offset >= 0, offset + Self.byteCount <= bytes.count else { return nil }
        let record = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + Self.byteCount])
        var r = RecordReader(bytes: record)
        guard r.u8() == Self.marker.0, r.u8() == Self.marker.1 else { return nil }
        let flags = r.u16()
        let crc = UnsafeRawBufferPointer(rebasing: record[(Self.byteCount - 4)...]).loadUnaligned(as: UInt32.self)
        guard flags & ~Self.knownFlags == 0,
              CRC32.checksum(UnsafeRawBufferPointer(rebasing: record[0..<(Self.byteCount - 4)])) == UInt32(littleEndian: crc),
              let mode = FixMode(rawValue: r.u8()), mode != .noFix, let quality = FixQuality(rawValue: r.u8()),
              let source = TrackHeadingSource(rawValue: r.u8()) else { return nil }
        let satellites = Int(r.u8())
        sequence = r.u64()
        let utc = Int64(bitPattern: r.u64())
        latitudeDegrees = Double(bitPattern: r.u64())
        longitudeDegrees = Double(bitPattern: r.u64())
        guard (-90...90).contains(latitudeDegrees), (-180...180).contains(longitudeDegrees) else { return nil }
        // A static helper with the reader passed inout: a local func capturing the `var` reader boxed
        // it on the heap (one allocation per decoded record in debug builds).
        altitudeMSLMeters = Self.value(&r, flags, Self.hasAltitude)
        speedMetersPerSecond = Self.value(&r, flags, Self.hasSpeed)
        courseDegrees = Self.value(&r, flags, Self.hasCourse)
        let headingDegrees = Self.value(&r, flags, Self.hasHeading)
        let headingAccuracy = Self.value(&r, flags, Self.hasHeadingAccuracy)
        heading = TrackHeading(degrees: headingDegrees, accuracyDegrees: headingAccuracy, source: source)
        horizontalAccuracyMeters = Self.value(&r, flags, Self.hasHorizontalAccuracy)
        verticalAccuracyMeters = Self.value(&r, flags, Self.hasVerticalAccuracy)
        hdop = Self.value(&r, flags, Self.hasHDOP)
        vdop = Self.value(&r, flags, Self.hasVDOP)
        pdop = Self.value(&r, flags, Self.hasPDOP)
        self.mode = mode
        self.quality = quality
        utcNanoseconds = flags & Self.hasUTC != 0 ? utc : nil
        satellitesUsed = flags & Self.hasSatellites != 0 ? satellites : nil
    }
}

/// Little-endian writes at a moving offset (allocation-free).
struct RecordWriter {
    var base: UnsafeMutableRawPointer
    var offset = 0
    mutating func u8(_ v: UInt8) { base.storeBytes(of: v, toByteOffset: offset, as: UInt8.self); offset += 1 }
    mutating func u16(_ v: UInt16) { base.storeBytes(of: v.littleEndian, toByteOffset: offset, as: UInt16.self); offset += 2 }
    mutating func u32(_ v: UInt32) { base.storeBytes(of: v.littleEndian, toByteOffset: offset, as: UInt32.self); offset += 4 }
    mutating func u64(_ v: UInt64) { base.storeBytes(of: v.littleEndian, toByteOffset: offset, as: UInt64.self); offset += 8 }
}

/// Little-endian reads at a moving offset (allocation-free; the caller checked the length).
struct RecordReader {
    var bytes: UnsafeRawBufferPointer
    var offset = 0
    mutating func u8() -> UInt8 { defer { offset += 1 }; return bytes[offset] }
    mutating func u16() -> UInt16 { defer { offset += 2 }; return UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)) }
    mutating func u32() -> UInt32 { defer { offset += 4 }; return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    mutating func u64() -> UInt64 { defer { offset += 8 }; return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
}
