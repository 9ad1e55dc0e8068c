import Testing
import TestSupport
@testable import TrackLog

/// `puckd track` on journals recorded from real receiver logs (gpsd's regression logs and the bundled
/// drive, docs/track-log.md §6, §7): the GPX validates against the GPX 1.1 schema with xmllint, the
/// GeoJSON parses with python3 and has RFC 7946's structure, `--nmea` gives back the bytes received
/// (and `puckd replay` finds the same fixes in them), `--from`/`--to` select by time, and `list`
/// counts what is there.
@Suite(.serialized) struct TrackExportTests {
    static let schema = Fixtures.path("gpx/gpx-1.1.xsd")

    /// Records `log` (nil: the bundled drive) into a new state directory; its path.
    static func record(_ log: String?, raw: Bool = true) throws -> String {
        let state = Fixtures.temporaryDirectory(prefix: "puckd-track-export")
        let result = try #require(runProcess([puckdExecutable, "track", "record"] + (log.map { [$0] } ?? [])
            + ["--set", "state.directory=" + state, "--set", "track.raw_nmea=" + (raw ? "true" : "false")]))
        #expect(result.status == 0, "\(result.errorOutput)")
        return state
    }

    static func track(_ state: String, _ arguments: [String]) throws -> ProcessResult {
        try #require(runProcess([puckdExecutable, "track"] + arguments + ["--set", "state.directory=" + state]))
    }

    static let logs = Fixtures.files(in: "nmea/gpsd", suffix: ".nmea")

    @Test func theGPXOfEveryRecordedLogValidatesAgainstTheGPX11Schema() throws {
        #expect(Self.logs.count >= 10)
        var validated = 0, points = 0
        for log in Self.logs {
            let state = try Self.record(Fixtures.path("nmea/gpsd/" + log))
            let gpx = try Self.track(state, ["export", "--gpx"])
            #expect(gpx.status == 0, "\(log): \(gpx.errorOutput)")
            let file = try #require(Fixtures.temporaryFile(named: "track.gpx", contents: gpx.standardOutput))
            let check = try #require(runProcess(["xmllint", "--noout", "--schema", Self.schema, file]),
                                     "xmllint is needed (Debian libxml2-utils; make test installs it)")
            #expect(check.status == 0 && check.errorOutput.contains("validates"), "\(log): \(check.errorOutput)")
            if check.status == 0 { validated += 1 }
            points += gpx.output.split(separator: "<trkpt ", omittingEmptySubsequences: false).count - 1
            _ = runProcess(["rm", "-rf", state])
        }
        #expect(validated == Self.logs.count)
        #expect(points > 500, "\(points) track points")
    }

    @Test func theGPXCarriesTheRecordsValues() throws {
        let state = try Self.record(nil)
        let gpx = try Self.track(state, ["export", "--gpx"]).output
        // The bundled drive's first epoch: GGA 132819.60, DGPS, 10 satellites, HDOP 0.9, 278.161 m; RMC 0.148 kn, 124.888°.
        #expect(gpx.contains("<trkpt lat=\"41.57496591\" lon=\"-93.750571901\"><ele>278.161</ele><time>2020-03-18T13:28:19.600Z</time>"
            + "<fix>dgps</fix><sat>10</sat><hdop>0.9</hdop><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>0.076</gpxtpx:speed>"
            + "<gpxtpx:course>124.89</gpxtpx:course></gpxtpx:TrackPointExtension><puckd:seq>0</puckd:seq>"))
        #expect(gpx.split(separator: "<trkpt ", omittingEmptySubsequences: false).count - 1 == 122)
        #expect(gpx.contains("<trkseg>") && gpx.contains("xmlns:gpxtpx=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v2\""))
        _ = runProcess(["rm", "-rf", state])
    }

    @Test func theGeoJSONIsRFC7946() throws {
        let state = try Self.record(nil)
        let json = try Self.track(state, ["export", "--geojson"])
        #expect(json.status == 0)
        let script = """
            import json, sys
            d = json.load(sys.stdin)
            assert d["type"] == "FeatureCollection", d["type"]
            n = 0
            for f in d["features"]:
                assert f["type"] == "Feature"
                g = f["geometry"]; p = f["properties"]
                assert g["type"] in ("LineString", "Point")
                coords = g["coordinates"] if g["type"] == "LineString" else [g["coordinates"]]
                assert g["type"] == "Point" or len(coords) >= 2
                for c in coords:
                    assert len(c) in (2, 3) and len(c) == len(coords[0])
                    assert -180 <= c[0] <= 180 and -90 <= c[1] <= 90
                for key in ("times", "seq", "speed", "course", "heading", "accuracy", "mode", "sats", "hdop"):
                    assert len(p[key]) == len(coords), key
                assert p["seq"] == list(range(p["firstSeq"], p["lastSeq"] + 1))
                n += len(coords)
            print(n, coords[0][0], coords[0][1], p["start"])
            """
        let parsed = try #require(runProcess(["python3", "-c", script], input: json.standardOutput))
        #expect(parsed.status == 0, "\(parsed.errorOutput)")
        // Longitude first (RFC 7946 §3.1.1).
        #expect(parsed.output == "122 -93.750571901 41.57496591 2020-03-18T13:28:19.600Z\n")
        _ = runProcess(["rm", "-rf", state])
    }

    @Test func theRawNMEAComesBackAsReceivedAndReplaysToTheSameFixes() throws {
        let log = Fixtures.path("nmea/gpsd/hemi.nmea")
        let state = try Self.record(log)
        let nmea = try Self.track(state, ["export", "--nmea"])
        #expect(nmea.status == 0)
        #expect(nmea.standardOutput == Fixtures.readFile(log), "\(nmea.standardOutput.count) bytes")
        let replayOriginal = try #require(runProcess([puckdExecutable, "replay", log, "--json"]))
        let file = try #require(Fixtures.temporaryFile(named: "back.nmea", contents: nmea.standardOutput))
        let replayBack = try #require(runProcess([puckdExecutable, "replay", file, "--json"]))
        #expect(replayBack.output == replayOriginal.output)
        #expect(replayBack.output.split(separator: "\n").count == 118)
        // Without raw_nmea nothing raw was kept, and --nmea says so.
        let plain = try Self.record(log, raw: false)
        let none = try Self.track(plain, ["export", "--nmea"])
        #expect(none.status == 66 && none.errorOutput.contains("raw_nmea = true"))
        _ = runProcess(["rm", "-rf", state, plain])
    }

    @Test func fromAndToSelectByTimeAndListCounts() throws {
        let state = try Self.record(nil)
        let gpx = try Self.track(state, ["export", "--gpx", "--from", "2020-03-18T13:28:20Z", "--to", "2020-03-18T13:28:25"])
        let times = gpx.output.split(separator: "<time>", omittingEmptySubsequences: false).dropFirst(2).map { String($0.prefix(24)) }
        #expect(times.count == 50 && times.allSatisfy { $0 >= "2020-03-18T13:28:20.000Z" && $0 < "2020-03-18T13:28:25.000Z" },
                "\(times.count): \(times.prefix(3))")
        let all = try Self.track(state, ["export", "--geojson", "--from", "@1584538099"])
        #expect(all.output.contains("\"firstSeq\":0,"))
        let later = try Self.track(state, ["export", "--geojson", "--from", "2030-01-01"])
        #expect(later.output == "{\"type\":\"FeatureCollection\",\"features\":[]}\n")
        let list = try Self.track(state, ["list"])
        #expect(list.output.contains("20200318-00000000000000000000.trk  122 records  seq 0-121  2020-03-18T13:28:19.600Z to "
            + "2020-03-18T13:39:01.500Z"), "\(list.output)")
        #expect(list.output.hasSuffix("total: 122 records, \(32 + 122 * 88 + 22083) bytes\n"), "\(list.output)")
        let bad = try Self.track(state, ["export", "--gpx", "--from", "yesterday"])
        #expect(bad.status == 64 && bad.errorOutput.contains("is not a time"))
        let missing = try #require(runProcess([puckdExecutable, "track", "list", "--set", "state.directory=/nonexistent/x"]))
        #expect(missing.status == 66 && missing.errorOutput.contains("nothing was recorded there yet"))
        _ = runProcess(["rm", "-rf", state])
    }
}
