import Console
import Glibc
import Testing
import TestSupport
import TrackLog
import UplinkClient
@testable import Puckd

/// The uplinks through the device (docs/uplink.md §5, §9), stepped with the synthetic clock against a
/// real nginx standing in for Traccar's OsmAnd port: the backlog-age fault (fault LED, `status`, said
/// once, cleared when the backlog drains), the rate keys (a position goes out when any threshold is
/// crossed since the last one sent), and the console's `uplink` view.
@Suite(.serialized) struct DeviceUplinkBehaviourTests {
    /// Steps `seconds` of synthetic time, letting real time pass too (the flusher thread makes records
    /// durable, the server answers), until `done`.
    static func run(_ h: SimulatedDeviceHarness, seconds: Int, until done: () -> Bool = { false }) {
        var steps = 0
        while steps < seconds * 1000 && !done() {
            h.advance(by: 1_000_000)
            steps += 1
            if steps % 10 == 0 { usleep(1000) }
        }
    }

    static func text(_ t: ConsoleText) -> String { String(decoding: (0..<t.count).map { t[$0] }, as: UTF8.self) }

    static func sequences(accessLog path: String) -> [UInt64] {
        let text = String(decoding: Fixtures.readFile(path) ?? [], as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("200 GET /?id="), let last = line.split(separator: "&").last, last.hasPrefix("seq=") else { return nil }
            return UInt64(last.dropFirst(4))
        }
    }

    @Test func anOldBacklogIsTheFaultSaidOnceAndClearedWhenItDrains() throws {
        let scratch = Fixtures.temporaryDirectory(prefix: "puckd-uplink-age")
        defer { _ = runProcess(["rm", "-rf", scratch]) }
        let port = DeviceUplinkAllocationTests.freeLoopbackPort()   // nothing listens yet: connection refused
        let h = try SimulatedDeviceHarness(overrides: ["track.flush_interval_s=1", "uplink.device_id=age",
                                                       "uplink.osmand_url=http://127.0.0.1:" + String(port), "uplink.backlog_max_age_s=3"])
        defer { h.removeDirectory() }
        let osmand = try #require(h.device.uplink.osmand, "\(h.device.uplink.reportLines)")
        let faultLED = try #require(h.device.configuration.gpio.ledFault)
        let start = h.now
        // At least 12 s of drive, and until the durable journal shows the old backlog (the flusher thread
        // runs in real time, behind the synthetic clock on a loaded machine).
        Self.run(h, seconds: 60) { h.now - start > 12_000_000_000 && osmand.backlogTooOld }
        #expect(osmand.backlogTooOld && h.device.faults.contains(.uplink))
        #expect(h.output.split(separator: "\n").filter { $0.contains("older than [uplink] backlog_max_age_s") }.count == 1,
                "said once while the backlog keeps growing: \(h.output)")
        var d = ConsoleDeviceState()
        h.device.uplink.fillSnapshot(&d, nowNanoseconds: h.now)
        let reasons = (0..<d.faults.count).map { d.faults[$0] }.filter { $0.source.description == "osmand" }
        #expect(reasons.count == 1 && Self.text(reasons[0].reason).contains("older than [uplink] backlog_max_age_s"))
        #expect(h.ledChanges(UInt32(faultLED), from: start).contains { $0.1 }, "the fault LED lit")

        // The server comes up on that port: the backlog drains, the fault clears, said once.
        let nginx = try #require(DeviceUplinkAllocationTests.startNginx(in: scratch, port: port), "nginx is needed")
        defer { kill(nginx.pid, SIGTERM) }
        Self.run(h, seconds: 120) { osmand.client.forwarder.backlog == 0 && !h.device.faults.contains(.uplink) }
        #expect(osmand.client.forwarder.backlog == 0 && !osmand.backlogTooOld && !osmand.isFaulted)
        #expect(!h.device.faults.contains(.uplink))
        #expect(h.output.contains("uplink osmand: delivering again"), "\(h.output)")
        #expect(h.output.split(separator: "\n").filter { $0.contains("older than [uplink] backlog_max_age_s") }.count == 1, "\(h.output.split(separator: "\n").filter { $0.contains("uplink") })")
        let sent = Self.sequences(accessLog: scratch + "/access.log")
        #expect(Set(sent) == Set(0..<UInt64(sent.count)), "no gap after the outage")
    }

    /// The rate rule of docs/uplink.md §5 written again here: a record is sent when, since the last one
    /// sent, `interval` seconds passed, or it moved `distance` metres, or its heading turned more than `turn`.
    static func expectedSent(_ records: [TrackRecord], interval: Double, distance: Double, turn: Double) -> [UInt64] {
        var last: TrackRecord?
        var sent: [UInt64] = []
        for r in records {
            guard let l = last else { last = r; sent.append(r.sequence); continue }
            let dt = Double((r.utcNanoseconds ?? 0) - (l.utcNanoseconds ?? 0)) / 1e9
            let lat = (l.latitudeDegrees + r.latitudeDegrees) / 2 * .pi / 180
            var dLon = (r.longitudeDegrees - l.longitudeDegrees).truncatingRemainder(dividingBy: 360)
            if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
            let x = dLon * .pi / 180 * cos(lat), y = (r.latitudeDegrees - l.latitudeDegrees) * .pi / 180
            let metres = (x * x + y * y).squareRoot() * 6_371_008.8
            var turned = 0.0
            if let a = l.heading.degrees ?? l.courseDegrees, let b = r.heading.degrees ?? r.courseDegrees {
                turned = abs((b - a + 540).truncatingRemainder(dividingBy: 360) - 180)
            }
            if dt >= interval || metres >= distance || turned > turn {
                sent.append(r.sequence)
                last = r
            }
        }
        return sent
    }

    @Test func theRateKeysSendAPositionWhenAnyThresholdIsCrossedAndTheViewShowsIt() throws {
        let scratch = Fixtures.temporaryDirectory(prefix: "puckd-uplink-rate")
        defer { _ = runProcess(["rm", "-rf", scratch]) }
        let nginx = try #require(DeviceUplinkAllocationTests.startNginx(in: scratch), "nginx is needed")
        defer { kill(nginx.pid, SIGTERM) }
        let c = try ConsoleDeviceHarness(overrides: ["track.flush_interval_s=1", "uplink.device_id=rate",
                                                     "uplink.osmand_url=http://127.0.0.1:" + String(nginx.port),
                                                     "uplink.interval_s=5", "uplink.min_distance_m=60", "uplink.min_heading_change_deg=20"])
        defer { c.h.removeDirectory() }
        let osmand = try #require(c.device.uplink.osmand)
        Self.run(c.h, seconds: 60)
        let durable = try #require(c.device.trackRecorder.durableSequence)
        Self.run(c.h, seconds: 20) { osmand.client.forwarder.cursor >= durable + 1 }
        let journal = JournalRecordSource(directory: c.h.directory + "/track")
        let records = (0...durable).compactMap { journal.record(sequence: $0) }
        #expect(records.count == Int(durable) + 1)
        let expected = Self.expectedSent(records, interval: 5, distance: 60, turn: 20)
        let sent = Self.sequences(accessLog: scratch + "/access.log").filter { $0 <= durable }
        #expect(sent == expected, "sent \(sent.count), expected \(expected.count)")
        #expect(expected.count > 3 && expected.count < records.count / 2, "the rate keys thin the track: \(expected.count) of \(records.count)")
        #expect(osmand.feed.filtered == UInt64(records.count - expected.count))

        // The console's view of it.
        let text = c.command("uplink")
        #expect(text.contains("mqtt: off\n"), "\(text)")
        #expect(text.contains("osmand  http://127.0.0.1:" + String(nginx.port) + " as rate\n"), "\(text)")
        #expect(text.contains("  state     connected\n") && text.contains("  last err  "), "\(text)")
        #expect(text.contains(" s ago\n") && text.contains(" filtered, "), "\(text)")
        _ = c.command("json on")
        let json = c.command("uplink")
        #expect(json.hasPrefix("{\"reply\":\"uplink\",\"mqtt\":null,\"osmand\":{\"url\":\"http://127.0.0.1:"), "\(json)")
        #expect(json.contains("\"state\":\"connected\",\"healthy\":true,") && json.contains("\"fault\":null"), "\(json)")
    }
}
