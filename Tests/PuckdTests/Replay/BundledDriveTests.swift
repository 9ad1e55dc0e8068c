import Testing
import TestSupport
import CBundledData

@Suite struct BundledDriveTests {
    /// The drive compiled into puckd is byte-for-byte the fixture the NMEA tests score against gpsd.
    @Test func embeddedDriveMatchesFixture() throws {
        let fixture = try #require(Fixtures.bytes("nmea/gpsd/nmea-rtk.nmea"))
        let embedded = Array(UnsafeBufferPointer(start: bundled_drive_bytes(), count: bundled_drive_count()))
        #expect(embedded == fixture)
        let license = String(decoding: UnsafeBufferPointer(start: bundled_drive_license_bytes(),
                                                           count: bundled_drive_license_count()), as: UTF8.self)
        #expect(license.contains("BSD"))
    }
}

@Suite struct TestSupportTests {
    @Test func xzFixtureDecompresses() throws {
        let json = try #require(Fixtures.xzBytes("nmea/gpsd/quectel-l76k-nmea.gpsdecode.json.xz"))
        #expect(String(decoding: json.prefix(200), as: UTF8.self).contains("\"class\":\"SKY\""))
    }

    @Test func processStatusAndOutput() throws {
        let r = try #require(runProcess(["sh", "-c", "cat; echo err >&2; exit 3"], input: Array("in".utf8)))
        #expect(r.status == 3 && r.output == "in" && r.errorOutput == "err\n")
    }
}
