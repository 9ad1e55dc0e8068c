import SystemCalls
import Glibc
import NMEA
import Testing
@testable import Puckd

/// The device applies a fix (tracking core, heading, LEDs: `handleFix`) in the wake-up that reads its
/// cycle's last sentence (docs/nmea-epochs.md §1), and an epoch whose ender it has not learned when the
/// line has been quiet for a quarter cycle: never one cycle late. The simulated receiver writes each
/// cycle of the bundled 10 Hz drive in one write.
@Suite struct DeviceEpochTests {
    @Test func aFixIsAppliedTheMomentItsCycleEndsOrAQuarterCycleLater() throws {
        let h = try SimulatedDeviceHarness()
        defer { h.removeDirectory() }
        let step: Int64 = 1_000_000
        var sentAt: [Int64] = []
        var appliedAt: [Int64] = []
        for _ in 0..<3000 {                                      // 3 s: 30 cycles of the drive
            h.now += step
            let sent = h.board.receiver.epochsSent
            _ = h.device.step(gps: &h.source, nowNanoseconds: h.now, ready: .all)   // the receiver writes, puckd reads
            if h.board.receiver.epochsSent > sent {
                // A pty hands the bytes to its reader from a kernel worker, later on a busy machine: until
                // puckd has read all that was written, wait for them (wall clock) and read them at the same
                // synthetic instant, as the one wake-up of a real loop would.
                var tries = 0
                while h.device.counters.gpsBytes < UInt64(h.board.receiver.bytesSent) && tries < 200 {
                    var p = pollfd(fd: h.source.pollRequest.fileDescriptor?.rawValue ?? -1, events: Int16(POLLIN), revents: 0)
                    _ = poll(&p, 1, 10)
                    _ = h.device.step(gps: &h.source, nowNanoseconds: h.now, ready: .all)
                    tries += 1
                }
            }
            while sentAt.count < h.board.receiver.epochsSent { sentAt.append(h.now) }
            while appliedAt.count < Int(h.device.counters.fixes) { appliedAt.append(h.now) }
        }
        try #require(sentAt.count >= 29 && appliedAt.count >= sentAt.count - 1)
        // The first two epochs (no ender learned yet) close at the end of their burst: the last read's
        // bytes (at most 82) plus 16 characters at the sim's 115200 baud, 8.5 ms, not a quarter cycle.
        let burstEnd = Int64(EpochAssembler.burstChunkCapBytes + EpochAssembler.burstEndCharacters)
            * EpochAssembler.characterNanoseconds(baud: 115_200)
        for k in 0..<2 {
            let delay = appliedAt[k] - sentAt[k]
            #expect(delay > 0 && delay <= burstEnd + step, "learning epoch \(k): applied \(delay) ns after its bytes")
        }
        var sameWakeUp = 0
        for k in 2..<appliedAt.count {
            let delay = appliedAt[k] - sentAt[k]
            if delay == 0 { sameWakeUp += 1; continue }
            // Not learned (a talker switch, a whole second): the quiet line closes it, 25 ms at 10 Hz.
            #expect(delay >= 25_000_000 && delay <= 25_000_000 + step, "epoch \(k): applied \(delay) ns after its bytes")
        }
        #expect(sameWakeUp >= 20, "\(sameWakeUp) of \(appliedAt.count - 2) epochs in the wake-up that read them")
        let counters = h.device.gpsLink.pipeline.assembler.counters
        #expect(counters.epochsClosedAtCycleEnder == sameWakeUp)
        #expect(counters.sentencesAfterClose == 0 && counters.epochsClosedByQuietLine > 0)
    }

    @Test func quietCloseFractionZeroLeavesItToTheNextEpochAndIsLive() throws {
        let h = try SimulatedDeviceHarness(overrides: ["gps.quiet_close_fraction=0"])
        defer { h.removeDirectory() }
        h.advance(by: 3_000_000_000)
        let counters = h.device.gpsLink.pipeline.assembler.counters
        #expect(counters.epochsClosedByQuietLine == 0 && counters.epochsClosedByNextEpoch > 0)
        #expect(counters.epochsClosedAtCycleEnder > 20)
        var changed = h.device.configuration
        changed.gps.quietCloseFraction = 0.5
        h.device.apply(changed, nowNanoseconds: h.now)
        #expect(h.device.gpsLink.pipeline.assembler.configuration.quietCloseFraction == 0.5)
        h.advance(by: 6_000_000_000)                             // past the drive's next talker switch
        #expect(h.device.gpsLink.pipeline.assembler.counters.epochsClosedByQuietLine > 0)
    }
}
