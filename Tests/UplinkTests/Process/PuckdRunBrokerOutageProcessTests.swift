#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// `puckd run --board sim` publishing into a real mosquitto that is stopped for 30 s and started again
/// (docs/uplink.md §5, §9), in the default test run: positions wait in the journal, the client backs off
/// (no retry storm), and after the restart every sequence arrives; the live records and the backlog
/// each arrive oldest first (the ordering rule: the newest first, then the backlog oldest first).
@Suite(.serialized) struct PuckdRunBrokerOutageProcessTests {
    /// True when `sequence` splits into at most two increasing runs interleaved (live and backlog).
    static func isTwoIncreasingStreams(_ sequence: [UInt64]) -> Bool {
        var tails: [UInt64] = []
        for s in sequence {
            // Patience sorting on decreasing runs: the count of piles is the longest decreasing subsequence.
            if let k = tails.firstIndex(where: { $0 < s }) { tails[k] = s } else { tails.append(s) }
            if tails.count > 2 { return false }
        }
        return true
    }

    @Test func aBrokerAwayFor30SecondsLosesNothing() throws {
        let broker = try #require(MosquittoBroker(), "mosquitto and mosquitto_sub are needed (make test installs them)")
        #expect(broker.start())
        writeFile(broker.directory + "/mqtt.password", "secret\n")
        _ = runProcess(["chmod", "0600", broker.directory + "/mqtt.password"])
        let sub = try #require(broker.subscribe())
        let state = broker.directory + "/state"
        let puckd = try #require(PuckdRunUplinkProcessTests.run(broker, state: state, log: broker.directory + "/puckd.log"))
        var waited = 0
        while waited < 400 && MosquittoBroker.sequences(sub.output).count < 30 { sleepMilliseconds(50); waited += 1 }
        let beforeOutage = MosquittoBroker.sequences(sub.output)
        #expect(beforeOutage.count >= 30, "\(puckd.output)")
        broker.stop()
        sleepMilliseconds(30_000)
        #expect(puckd.output.contains("uplink mqtt: "), "the lost broker is said: \(puckd.output)")
        let attempts = puckd.output.split(separator: "\n").filter { $0.contains("uplink mqtt: ") }.count
        #expect(attempts <= 3, "said once per change, not per attempt: \(attempts)")
        #expect(broker.start())
        // Backoff: 1 s doubling with equal jitter, so the next attempt comes at most ~32 s after the restart.
        // Until the backlog drained (no gap up to the newest) and live positions flowed past it.
        let stopAt = UInt64(beforeOutage.count) + 350
        func drained() -> Bool {
            let seqs = Set(MosquittoBroker.sequences(sub.output))
            guard let top = seqs.max(), top >= stopAt else { return false }
            return seqs.count == Int(top) + 1
        }
        waited = 0
        while waited < 180 && !drained() { sleepMilliseconds(500); waited += 1 }
        puckd.stop()
        sleepMilliseconds(300)
        sub.stop()
        let all = MosquittoBroker.sequences(sub.output)
        let highest = try #require(all.max())
        #expect(highest >= stopAt, "the backlog drained and live positions flow again: \(highest)")
        #expect(Set(all) == Set(0...highest), "every sequence arrived: missing \(Set(0...highest).subtracting(all).sorted().prefix(10))")
        var seen = Set<UInt64>(), firsts: [UInt64] = []
        for s in all where seen.insert(s).inserted { firsts.append(s) }
        #expect(Self.isTwoIncreasingStreams(firsts), "live and backlog each in order")
        #expect(puckd.output.contains("uplink mqtt: delivering again"), "\(puckd.output)")
    }
}
