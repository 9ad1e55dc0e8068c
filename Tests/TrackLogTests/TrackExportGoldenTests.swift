#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// The GPX and GeoJSON exports of the bundled drive and of every gpsd log, byte for byte against the
/// goldens written before the exporters' numbers and times moved onto Console's `OutputBuffer`
/// (Tests/Fixtures/track-export/README.md): one formatter, the same bytes.
@Suite(.serialized) struct TrackExportGoldenTests {
    /// `== NAME` then the export, for the bundled drive and each gpsd log, as the goldens hold them.
    static func exports(_ format: String) throws -> [UInt8] {
        var all: [UInt8] = []
        let inputs: [(String, String?)] = [("bundled drive", nil)]
            + TrackExportTests.logs.map { ($0, Fixtures.path("nmea/gpsd/" + $0)) }
        for (name, log) in inputs {
            let state = try TrackExportTests.record(log)
            defer { _ = runProcess(["rm", "-rf", state]) }
            let export = try TrackExportTests.track(state, ["export", format])
            #expect(export.status == 0, "\(name): \(export.errorOutput)")
            all += Array("== \(name)\n".utf8) + export.standardOutput
        }
        return all
    }

    static func check(_ format: String, golden: String) throws {
        let actual = try exports("--" + format)
        if let directory = getenv("PUCKD_WRITE_GOLDENS") {
            let path = String(cString: directory) + "/exports." + format
            let f = try #require(fopen(path, "w"))
            _ = actual.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
            fclose(f)
        }
        let expected = try #require(Fixtures.xzBytes("track-export/" + golden), "xz is needed (Debian xz-utils)")
        let same = actual == expected
        #expect(same, "\(format): \(actual.count) bytes against the golden's \(expected.count)")
        if !same {
            let a = String(decoding: actual, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let e = String(decoding: expected, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            if let k = zip(a, e).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                Issue.record("first difference at line \(k + 1):\n  now:    \(a[k])\n  golden: \(e[k])")
            }
        }
    }

    @Test func theGPXExportsAreTheGoldensByteForByte() throws { try Self.check("gpx", golden: "exports.gpx.xz") }

    @Test func theGeoJSONExportsAreTheGoldensByteForByte() throws { try Self.check("geojson", golden: "exports.geojson.xz") }
}
