#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// `puckd run --board sim` publishing its track into a real mosquitto (docs/uplink.md §7, §9): the
/// consumer sees every sequence number, in order; SIGKILLed mid-run and restarted, puckd goes on from
/// the cursor file it wrote: nothing missing, duplicates only across the kill.
@Suite(.serialized) struct PuckdRunUplinkProcessTests {
    static func run(_ broker: MosquittoBroker, state: String, log: String) -> BackgroundProcess? {
        BackgroundProcess([puckdExecutable, "run", "--board", "sim", "--console", "none",
                           "--set", "state.directory=" + state, "--set", "server.enabled=false",
                           "--set", "console.status_interval_s=0", "--set", "track.flush_interval_s=0.5",
                           "--set", "uplink.mqtt_url=mqtt://fleet@127.0.0.1:" + String(broker.port),
                           "--set", "uplink.mqtt_password_file=" + broker.directory + "/mqtt.password",
                           "--set", "uplink.device_id=puck1"], outputPath: log)
    }

    @Test func sigkilledAndRestartedPuckdLeavesNoGap() throws {
        let broker = try #require(MosquittoBroker(), "mosquitto, mosquitto_sub and mosquitto_passwd are needed (make test installs them)")
        #expect(broker.start())
        writeFile(broker.directory + "/mqtt.password", "secret\n")
        // A password file others can read is refused, with the chmod to run.
        _ = runProcess(["chmod", "0644", broker.directory + "/mqtt.password"])
        let state = broker.directory + "/state"
        let refused = try #require(Self.run(broker, state: state, log: broker.directory + "/refused.log"))
        #expect(refused.waitFor("no fleet uplink", seconds: 20), "\(refused.output)")
        refused.stop()
        #expect(refused.output.contains("readable by every user (mode 0644): the MQTT password must be readable only by root"))
        #expect(refused.output.contains("chmod 0600 " + broker.directory + "/mqtt.password"))
        _ = runProcess(["rm", "-rf", state])
        _ = runProcess(["chmod", "0600", broker.directory + "/mqtt.password"])

        let sub = try #require(broker.subscribe())
        let first = try #require(Self.run(broker, state: state, log: broker.directory + "/run-1.log"))
        #expect(first.waitFor("uplink: MQTT 3.1.1 to", seconds: 20), "\(first.output)")
        // Until the cursor file holds a position past the first ones, then SIGKILL (no shutdown, no last save).
        var waited = 0
        while waited < 400 && MosquittoBroker.sequences(sub.output).count < 60 { sleepMilliseconds(50); waited += 1 }
        sleepMilliseconds(5600)   // at least one periodic cursor save (every 5 s)
        first.stop(SIGKILL)
        let beforeKill = MosquittoBroker.sequences(sub.output)
        #expect(beforeKill.count >= 60)
        #expect(beforeKill == Array(0..<UInt64(beforeKill.count)), "in order, from 0, no gap before the kill")

        let second = try #require(Self.run(broker, state: state, log: broker.directory + "/run-2.log"))
        #expect(second.waitFor("uplink: cursor ", seconds: 20), "\(second.output)")
        let cursorLine = second.output.split(separator: "\n").first { $0.contains("read from " + state + "/track/mqtt.cursor") }
        #expect(cursorLine != nil, "the restart reads the cursor file back: \(second.output)")
        let total = beforeKill.count + 60
        waited = 0
        while waited < 600 && MosquittoBroker.sequences(sub.output).count < total { sleepMilliseconds(50); waited += 1 }
        second.stop()
        sleepMilliseconds(300)
        sub.stop()
        let all = MosquittoBroker.sequences(sub.output)
        let distinct = Set(all)
        let highest = try #require(all.max())
        #expect(distinct == Set(0...highest), "every sequence from 0 to \(highest) arrived")
        // Duplicates only across the kill: what the second run re-sent lies at or below the first run's last.
        let resent = Array(all[beforeKill.count...]).prefix { $0 <= beforeKill.last! }
        let resentDistinct = Set(resent)
        #expect(resentDistinct.count == resent.count)
        #expect(resent.count < beforeKill.count, "the restart re-sends from the saved cursor, not from the start")
        let afterResend = Array(all[(beforeKill.count + resent.count)...])
        #expect(afterResend.first == beforeKill.last! + 1)
        #expect(afterResend == Array(afterResend.sorted()), "after the re-sent part, in order")
        #expect(second.output.contains("uplink: cursor "), "the clean stop saves the cursor")
    }
}
