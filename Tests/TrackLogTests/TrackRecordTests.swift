import NMEA
import Testing
@testable import TrackLog

/// The record, segment header and segment name formats (docs/track-log.md §1, §2): every field
/// survives a round trip, an absent value stays absent, and every flipped bit is detected by the CRC.
struct TrackRecordTests {
    static let full = TrackRecord(
        sequence: 123_456_789_012, utcNanoseconds: 1_584_538_106_500_000_000, latitudeDegrees: 41.574991512,
        longitudeDegrees: -93.750581403, altitudeMSLMeters: 280.25, speedMetersPerSecond: 13.5, courseDegrees: 322.5,
        heading: TrackHeading(degrees: 259.25, accuracyDegrees: 3.5, source: .imu), horizontalAccuracyMeters: 4.25,
        verticalAccuracyMeters: 6.5, mode: .threeD, quality: .rtkFixed, satellitesUsed: 17, hdop: 0.75, vdop: 1.25, pdop: 1.5)

    static func encoded(_ r: TrackRecord) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: TrackRecord.byteCount)
        bytes.withUnsafeMutableBytes { r.encode(into: $0, at: 0) }
        return bytes
    }

    static func decoded(_ bytes: [UInt8]) -> TrackRecord? { bytes.withUnsafeBytes { TrackRecord(decoding: $0, at: 0) } }

    @Test func everyFieldRoundTrips() {
        // Values exactly representable in float32 come back unchanged; positions are float64.
        #expect(Self.decoded(Self.encoded(Self.full)) == Self.full)
        let sparse = TrackRecord(sequence: 0, utcNanoseconds: nil, latitudeDegrees: -33.8688, longitudeDegrees: 151.2093,
                                 mode: .twoD, quality: .gps)
        let back = Self.decoded(Self.encoded(sparse))
        #expect(back == sparse)
        #expect(back?.altitudeMSLMeters == nil && back?.utcNanoseconds == nil && back?.satellitesUsed == nil)
        #expect(back?.heading == TrackHeading())
    }

    @Test func theLayoutIsTheDocumentedOne() {
        let bytes = Self.encoded(Self.full)
        #expect(bytes.count == 88)
        #expect(bytes[0] == 0x54 && bytes[1] == 0x4B)                    // "TK"
        #expect(bytes[2] == 0xFF && bytes[3] == 0x0F)                    // all 12 presence flags
        #expect(bytes[4] == 3 && bytes[5] == 4 && bytes[6] == 1 && bytes[7] == 17)
        let sequence = bytes[8..<16].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(sequence == 123_456_789_012)
        let lat = Double(bitPattern: bytes[24..<32].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        #expect(lat == 41.574991512)
        let altitude = Float(bitPattern: bytes[40..<44].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        #expect(altitude == 280.25)
        #expect(bytes[80..<84].allSatisfy { $0 == 0 })
    }

    @Test func everyFlippedBitIsDetected() {
        let bytes = Self.encoded(Self.full)
        for i in 0..<bytes.count {
            for bit in 0..<8 {
                var damaged = bytes
                damaged[i] ^= UInt8(1 << bit)
                #expect(Self.decoded(damaged) == nil, "bit \(bit) of byte \(i)")
            }
        }
        #expect(Self.decoded([UInt8](repeating: 0, count: 88)) == nil)
        #expect(Array(Self.encoded(Self.full)[0..<87]).withUnsafeBytes { TrackRecord(decoding: $0, at: 0) } == nil)
    }

    @Test func aFixBecomesARecordOnlyWithAPosition() {
        var fix = Fix(timeOfDayNanoseconds: 0)
        #expect(TrackRecord(sequence: 1, fix: fix, heading: TrackHeading()) == nil)
        fix.mode = .twoD
        fix.quality = .gps
        fix.latitudeDegrees = 52.52
        fix.longitudeDegrees = 13.405
        fix.altitudeMSLMeters = 40   // a 2D fix's altitude is not a measurement: left out
        fix.satellitesUsed = 300
        let r = TrackRecord(sequence: 1, fix: fix, heading: TrackHeading(degrees: 90, source: .course))
        #expect(r?.altitudeMSLMeters == nil)
        #expect(r.map { Self.decoded(Self.encoded($0))?.satellitesUsed } == 255)
        #expect(r?.heading.source == .course)
    }

    @Test func segmentHeadersAndNames() throws {
        var bytes = [UInt8](repeating: 0, count: 32)
        let header = TrackSegmentHeader(utcDay: 18339, firstSequence: 42)
        bytes.withUnsafeMutableBytes { header.encode(into: $0) }
        #expect(Array(bytes[0..<4]) == Array("PKTL".utf8))
        #expect(try bytes.withUnsafeBytes { try TrackSegmentHeader(decoding: $0) } == header)
        for i in 0..<32 {
            var damaged = bytes
            damaged[i] ^= 0x10
            #expect(throws: TrackSegmentHeaderError.self) { try damaged.withUnsafeBytes { try TrackSegmentHeader(decoding: $0) } }
        }
        let name = TrackSegmentName(utcDay: 18339, firstSequence: 42)
        #expect(name.fileName() == "20200318-00000000000000000042.trk")
        #expect(name.fileName(extension: ".nmea") == "20200318-00000000000000000042.nmea")
        #expect(TrackSegmentName(fileName: name.fileName()) == name)
        for bad in ["20200318-00000000000000000042.nmea", "20201318-00000000000000000042.trk", "x.trk",
                    "20200318-0000000000000000004a.trk", "20200318-99999999999999999999.trk"] {
            #expect(TrackSegmentName(fileName: bad) == nil, "\(bad)")
        }
        #expect(TrackSegmentName(utcDay: 1, firstSequence: 9) < TrackSegmentName(utcDay: 0, firstSequence: 10))
    }

    @Test func calendarAndTimeText() {
        // (The calendar itself is NMEA's CivilDate, tested in NMEATests.)
        #expect(TrackTimeText.utcDay(nanoseconds: -1) == -1)
        #expect(TrackTimeText.utcDay(nanoseconds: 0) == 0)
        #expect(TrackTimeText.utcDay(nanoseconds: 1_584_538_106_500_000_000) == 18339)
        #expect(TrackTimeText.iso8601(nanoseconds: 1_584_538_106_500_000_000) == "2020-03-18T13:28:26.500Z")
        #expect(TrackTimeText.parse("2020-03-18T13:28:26.5Z") == 1_584_538_106_500_000_000)
        #expect(TrackTimeText.parse("2020-03-18T13:28") == 1_584_538_080_000_000_000)
        #expect(TrackTimeText.parse("2020-03-18") == 1_584_489_600_000_000_000)
        #expect(TrackTimeText.parse("@1584538106.5") == 1_584_538_106_500_000_000)
        for bad in ["2020-3-18", "2020-03-18T25:00", "yesterday", "2020-03-18T13:28:+5", "@nan", ""] {
            #expect(TrackTimeText.parse(bad) == nil, "\(bad)")
        }
        #expect(TrackNumberText.fixed(-0.0000123, decimals: 9) == "-0.0000123")
        #expect(TrackNumberText.fixed(12.5, decimals: 3) == "12.5")
        #expect(TrackNumberText.fixed(-0.0000000001, decimals: 3) == "0")
        #expect(TrackNumberText.fixed(3, decimals: 2) == "3")
        // Only zeros after the point go: an integer keeps its own (decimals 0, or too large for fixed point).
        #expect(TrackNumberText.fixed(100, decimals: 0) == "100")
        #expect(TrackNumberText.fixed(-2500.0, decimals: 3) == "-2500")
        #expect(TrackNumberText.fixed(1e19, decimals: 3) == "10000000000000000000")
        #expect(TrackNumberText.fixed(.nan, decimals: 3) == "0")
        // Milliseconds are truncated, never rounded up into the next second (or day).
        #expect(TrackTimeText.iso8601(nanoseconds: 1_584_489_599_999_999_999) == "2020-03-17T23:59:59.999Z")
        #expect(TrackTimeText.iso8601(nanoseconds: -1) == "1969-12-31T23:59:59.999Z")
    }
}
