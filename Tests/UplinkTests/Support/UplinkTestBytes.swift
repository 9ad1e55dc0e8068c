import TrackLog
@testable import Uplink

/// Runs `body` with a writer over a fresh buffer of `capacity` bytes; returns what it wrote.
func written(capacity: Int = 1024, _ body: (inout UplinkByteWriter) -> Void) -> [UInt8] {
    var storage = [UInt8](repeating: 0, count: capacity)
    return storage.withUnsafeMutableBytes { raw in
        var out = UplinkByteWriter(raw)
        body(&out)
        precondition(!out.overflowed)
        return Array(raw[0..<out.count])
    }
}

func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

/// A record like the bundled drive's first epoch (docs/track-log.md §2 fields).
func sampleRecord(sequence: UInt64 = 42) -> TrackRecord {
    TrackRecord(sequence: sequence, utcNanoseconds: 1_584_538_099_600_000_000, latitudeDegrees: 41.5749658,
                longitudeDegrees: -93.7505719, altitudeMSLMeters: 278.161, speedMetersPerSecond: 0.0761,
                courseDegrees: 124.888, heading: TrackHeading(degrees: 259.4, accuracyDegrees: 3, source: .imu),
                horizontalAccuracyMeters: 1.8, verticalAccuracyMeters: 3.1, mode: .threeD, quality: .dgps,
                satellitesUsed: 10, hdop: 0.9, vdop: 1.2, pdop: 1.5)
}
