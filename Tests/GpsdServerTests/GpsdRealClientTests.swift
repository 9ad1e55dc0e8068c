import Glibc
import GpsdProtocol
import GpsdServer
import Heading
import NMEA
import Testing
import TestSupport

/// gpsd's own Debian clients (gpsd-clients' gpspipe, python3-gps's `gps` module) against the server,
/// fed from gpsd's nmea-rtk regression log (docs/gpsd-protocol.md §5).
@Suite(.serialized) struct GpsdRealClientTests {
    static let hasGpspipe = access("/usr/bin/gpspipe", X_OK) == 0
    static let hasPythonGps = access("/usr/lib/python3/dist-packages/gps/__init__.py", R_OK) == 0

    static func lines(_ text: String) -> [String] {
        text.utf8.split(separator: 0x0A).map { String(decoding: $0.filter { $0 != 0x0D }, as: UTF8.self) }
    }

    static func value(_ line: String, _ key: String) -> Double? {
        guard let r = line.firstRange(of: "\"" + key + "\":") else { return nil }
        let rest = line[r.upperBound...]
        let end = rest.firstIndex { $0 == "," || $0 == "}" } ?? rest.endIndex
        return Double(rest[..<end])
    }

    @Test(.enabled(if: hasGpspipe, "gpspipe (Debian gpsd-clients)"))
    func gpspipeWatchReadsTPVAndSKYWithThePositionsOfTheFixes() throws {
        let h = try ServerHarness()
        let result = try #require(h.run(["/usr/bin/gpspipe", "-w", "-n", "60", "127.0.0.1:" + String(h.port)]))
        #expect(result.status == 0)
        let lines = Self.lines(result.output)
        #expect(lines.first?.hasPrefix("{\"class\":\"VERSION\"") == true)
        #expect(lines.contains { $0.hasPrefix("{\"class\":\"DEVICES\"") })
        #expect(lines.contains { $0.hasPrefix("{\"class\":\"WATCH\"") })
        let tpv = lines.filter { $0.hasPrefix("{\"class\":\"TPV\"") }
        #expect(tpv.count >= 20)
        #expect(lines.contains { $0.hasPrefix("{\"class\":\"SKY\"") })
        // Each TPV is the fix the pipeline made: its mode and position, in order.
        let withPosition = h.fixes.filter { $0.hasPosition }
        var matched = 0
        for line in tpv {
            guard let lat = Self.value(line, "lat"), let lon = Self.value(line, "lon"), let mode = Self.value(line, "mode") else { continue }
            if withPosition.contains(where: { abs($0.latitudeDegrees! - lat) < 1e-9 && abs($0.longitudeDegrees! - lon) < 1e-9
                && Double($0.mode.rawValue) == mode }) { matched += 1 }
        }
        #expect(matched == tpv.filter { $0.contains("\"lat\"") }.count && matched > 0)
    }

    @Test(.enabled(if: hasGpspipe, "gpspipe (Debian gpsd-clients)"))
    func gpspipeRawGetsTheReceiversSentencesByteForByte() throws {
        let h = try ServerHarness()
        let result = try #require(h.run(["/usr/bin/gpspipe", "-r", "-n", "80", "127.0.0.1:" + String(h.port)]))
        #expect(result.status == 0)
        let received = Self.lines(result.output).filter { $0.hasPrefix("$") }
        #expect(received.count >= 40)
        // Every sentence is a line of the log, unchanged, and they come in the log's order.
        let log = Self.lines(String(decoding: h.log, as: UTF8.self))
        guard let first = received.first, var index = log.firstIndex(of: first) else {
            Issue.record("the first sentence is not in the log: \(received.first ?? "")"); return
        }
        for sentence in received {
            if log[index] != sentence { Issue.record("\(sentence) is not \(log[index])"); break }
            index = (index + 1) % log.count
        }
        // Byte for byte, line ends included: gpspipe -r writes what it received.
        #expect(result.output.utf8.contains(0x0D))
    }

    @Test(.enabled(if: hasPythonGps, "python3-gps (Debian)"))
    func pythonGpsModuleReadsTPVSkyAndATT() throws {
        let h = try ServerHarness(logName: "ublox-neo-m9n-nmea")   // a receiver that sends GSV
        let script = """
        import gps
        s = gps.gps(host="127.0.0.1", port=\(h.port), mode=gps.WATCH_ENABLE | gps.WATCH_JSON)
        seen = set()
        for i in range(2000):
            r = s.next()
            seen.add(r["class"])
            if r["class"] == "TPV" and r.get("mode", 0) >= 2 and "lat" in r:
                print("FIX", r["mode"], "%.9f" % r["lat"], "%.9f" % r["lon"])
            if r["class"] == "ATT":
                print("ATT", r["heading"], r["pitch"], r["roll"], r["mag_st"])
            if {"TPV", "SKY", "ATT"} <= seen:
                break
        print("CLASSES", " ".join(sorted(seen)))
        print("FIXSTATE", s.fix.mode, "%.9f" % s.fix.latitude, s.satellites_used)
        """
        h.publishesAttitude = true
        let result = try #require(h.run(["/usr/bin/python3", "-c", script]))
        #expect(result.status == 0, "\(result.output)")
        let lines = Self.lines(result.output)
        let classes = lines.first { $0.hasPrefix("CLASSES") } ?? ""
        for cls in ["TPV", "SKY", "ATT", "VERSION", "DEVICES", "WATCH"] { #expect(classes.contains(cls), "\(classes)") }
        #expect(lines.contains { $0 == "ATT 259.4 -2.25 1.5 N" })
        let fixLine = try #require(lines.first { $0.hasPrefix("FIX ") })
        let parts = fixLine.split(separator: " ")
        let lat = Double(parts[2])!
        #expect(h.fixes.contains { $0.latitudeDegrees.map { abs($0 - lat) < 1e-9 } ?? false })
        // The module's own state took the fix (mode ≥ 2, satellites used counted from SKY).
        let state = try #require(lines.first { $0.hasPrefix("FIXSTATE") }).split(separator: " ")
        #expect(Int(state[1])! >= 2)
        #expect(Int(state[3])! > 0)
    }

    /// gpsd's clients speak TCP only (libgps takes a path as a device name): the Unix socket is read
    /// by Python's own socket module, with gpsd's JSON parsed by `json`.
    @Test(.enabled(if: access("/usr/bin/python3", X_OK) == 0, "python3"))
    func theUnixSocketServesTheSameProtocol() throws {
        let h = try ServerHarness()
        let script = """
        import json, socket
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect("\(h.socketPath)")
        s.sendall(b'?WATCH={"enable":true,"json":true};')
        f = s.makefile("r")
        classes = []
        while "TPV" not in classes:
            classes.append(json.loads(f.readline())["class"])
        print(" ".join(classes))
        """
        let result = try #require(h.run(["/usr/bin/python3", "-c", script]))
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.hasPrefix("VERSION DEVICES WATCH"))
        #expect(result.output.contains("TPV"))
        h.idle(20)
        #expect(h.server.client(at: 0) == nil)     // the client left and its slot is free again
    }
}
