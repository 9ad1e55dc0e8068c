import Glibc
import Testing
import TestSupport

/// `puckd run --board sim` serving gpsd's protocol to gpsd's own clients (docs/gpsd-protocol.md §5):
/// the TPVs gpspipe reads are the fixes `puckd replay --json` prints for the same drive, and
/// python3-gps reads TPV, SKY and ATT from the fused simulated IMU, and cgps (in a detached tmux pane)
/// shows the fix on its screen.
@Suite(.serialized) struct GpsdServerProcessTests {
    static let hasClients = access("/usr/bin/gpspipe", X_OK) == 0
        && access("/usr/lib/python3/dist-packages/gps/__init__.py", R_OK) == 0

    static func value(_ line: Substring, _ key: String) -> String? {
        guard let r = line.firstRange(of: "\"" + key + "\":") else { return nil }
        let rest = line[r.upperBound...]
        let end = rest.firstIndex { $0 == "," || $0 == "}" } ?? rest.endIndex
        return String(rest[..<end]).replacing("\"", with: "")
    }

    @Test(.enabled(if: hasClients, "gpsd-clients and python3-gps (Debian)"))
    func gpspipeAndPythonGpsAgainstTheSimulatedBoard() throws {
        let scratch = ConsoleProcessTests.Scratch()
        let process = try #require(PuckdProcess(["run", "--board", "sim", "--set", "state.directory=" + scratch.path,
                                                 "--set", "server.listen=127.0.0.1:0",
                                                 "--set", "server.socket=" + scratch.path + "/gpsd.sock"]))
        defer { process.signal(SIGTERM); _ = process.waitForExit(seconds: 30) }
        let line = try #require(process.logLine(containing: "server: gpsd protocol 3.14 on 127.0.0.1:", seconds: 30))
        let portText = line.split(separator: "127.0.0.1:")[1].prefix { $0.isNumber }
        let port = try #require(UInt16(portText))
        #expect(line.contains(scratch.path + "/gpsd.sock"))

        let pipe = try #require(runProcess(["/usr/bin/timeout", "60", "/usr/bin/gpspipe", "-w", "-n", "60",
                                            "127.0.0.1:" + String(port)]))
        #expect(pipe.status == 0, "\(pipe.errorOutput)")
        // By bytes: gpsd's lines end in CR LF, one Character to Swift's String.
        let lines = pipe.output.utf8.split(separator: 0x0A).map { Substring(String(decoding: $0.filter { $0 != 0x0D }, as: UTF8.self)) }
        let tpv = lines.filter { $0.hasPrefix("{\"class\":\"TPV\"") && $0.contains("\"lat\"") }
        #expect(tpv.count >= 10)
        #expect(pipe.output.contains("{\"class\":\"SKY\""))
        // The same epochs in `puckd replay --json` of the bundled drive: same time, mode and position.
        let replay = try #require(runProcess([puckdExecutable, "replay", "--json"]))
        var byTime: [String: Substring] = [:]
        for l in replay.output.split(separator: "\n") { if let t = Self.value(l, "time") { byTime[t] = l } }
        var matched = 0
        for t in tpv {
            guard let time = Self.value(t, "time"), let r = byTime[time] else { continue }
            #expect(Self.value(t, "mode") == Self.value(r, "mode"), "\(time)")
            #expect(Self.value(t, "lat") == Self.value(r, "lat"), "\(time)")
            #expect(Self.value(t, "lon") == Self.value(r, "lon"), "\(time)")
            matched += 1
        }
        #expect(matched == tpv.count, "every TPV is an epoch of the replay (\(matched) of \(tpv.count))")

        let script = """
        import gps
        s = gps.gps(host="127.0.0.1", port=\(port), mode=gps.WATCH_ENABLE | gps.WATCH_JSON)
        seen = set()
        for i in range(5000):
            r = s.next()
            seen.add(r["class"])
            if r["class"] == "ATT":
                print("ATT %.2f %.2f %.2f" % (r["heading"], r["pitch"], r["roll"]))
            if {"TPV", "SKY", "ATT"} <= seen:
                break
        print("CLASSES", " ".join(sorted(seen)), s.fix.mode)
        """
        let python = try #require(runProcess(["/usr/bin/timeout", "60", "/usr/bin/python3", "-c", script]))
        #expect(python.status == 0, "\(python.errorOutput)")
        #expect(python.output.contains("CLASSES ATT DEVICES SKY TPV VERSION WATCH 3"), "\(python.output)")
        let att = try #require(python.output.split(separator: "\n").first { $0.hasPrefix("ATT ") })
        let heading = try #require(Double(att.split(separator: " ")[1]))
        #expect(heading >= 0 && heading < 360)
    }

    static let hasCgps = access("/usr/bin/cgps", X_OK) == 0 && access("/usr/bin/tmux", X_OK) == 0

    /// The number after `label` on a cgps screen line ("Latitude:         41.57499019 N"), negative for S and W.
    static func degrees(_ screen: [Substring], _ label: String) -> Double? {
        guard let line = screen.first(where: { $0.contains(label) }), let r = line.firstRange(of: label) else { return nil }
        let words = line[r.upperBound...].split(separator: " ", omittingEmptySubsequences: true)
        guard words.count >= 2, let value = Double(words[0]) else { return nil }
        return words[1].hasPrefix("S") || words[1].hasPrefix("W") ? -value : value
    }

    @Test(.enabled(if: hasCgps, "gpsd-clients and tmux (Debian)"))
    func cgpsInTmuxShowsTheFix() throws {
        let scratch = ConsoleProcessTests.Scratch()
        let process = try #require(PuckdProcess(["run", "--board", "sim", "--set", "state.directory=" + scratch.path,
                                                 "--set", "server.listen=127.0.0.1:0"]))
        defer { process.signal(SIGTERM); _ = process.waitForExit(seconds: 30) }
        let line = try #require(process.logLine(containing: "server: gpsd protocol 3.14 on 127.0.0.1:", seconds: 30))
        let port = try #require(UInt16(line.split(separator: "127.0.0.1:")[1].prefix { $0.isNumber }))
        // Its own tmux server (-L: a socket of this test's), one detached 100x40 pane running cgps.
        let tmux = ["/usr/bin/tmux", "-L", "puckd-cgps-" + String(getpid())]
        let started = try #require(runProcess(tmux + ["new-session", "-d", "-s", "cgps", "-x", "100", "-y", "40",
                                                      "/usr/bin/cgps 127.0.0.1:" + String(port) + "; sleep 30"]))
        #expect(started.status == 0, "\(started.errorOutput)")
        defer { _ = runProcess(tmux + ["kill-server"]) }
        let replay = try #require(runProcess([puckdExecutable, "replay", "--json"]))
        var byTime: [String: Substring] = [:]
        for l in replay.output.split(separator: "\n") { if let t = Self.value(l, "time") { byTime[t] = l } }
        // cgps redraws its whole window for each TPV: a capture shows one fix's time, position and mode.
        var shown: (time: String, lat: Double, lon: Double, status: Substring)?
        var last = ""
        for _ in 0..<40 where shown == nil {
            usleep(250_000)
            let capture = try #require(runProcess(tmux + ["capture-pane", "-p", "-t", "cgps"]))
            last = capture.output
            let screen = capture.output.split(separator: "\n")
            guard let timeLine = screen.first(where: { $0.contains("Time:") }),
                  let time = timeLine.split(separator: " ").first(where: { $0.hasSuffix("Z") }),
                  let lat = Self.degrees(screen, "Latitude:"), let lon = Self.degrees(screen, "Longitude:"),
                  let status = screen.first(where: { $0.contains("Status:") }) else { continue }
            shown = (String(time), lat, lon, status)
        }
        let fix = try #require(shown, "cgps never showed a fix:\n\(last)")
        #expect(fix.status.contains("3D"), "\(fix.status)")
        let epoch = try #require(byTime[fix.time], "cgps's time \(fix.time) is an epoch of the replay")
        let lat = try #require(Self.value(epoch, "lat").flatMap(Double.init)), lon = try #require(Self.value(epoch, "lon").flatMap(Double.init))
        // cgps prints 8 decimals.
        #expect(abs(fix.lat - lat) < 1e-8 && abs(fix.lon - lon) < 1e-8, "cgps \(fix) vs replay \(epoch)")
        #expect(Self.value(epoch, "mode") == "3")
    }
}
