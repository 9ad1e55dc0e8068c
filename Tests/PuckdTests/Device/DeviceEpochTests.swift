import SystemCalls
import Glibc
import NMEA
@testable import Simulation
import Hardware
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

    @Test func aWriterThatPausesInsideACycleCutsOnlyTheFirstLearningEpoch() throws {
        // A 10 Hz receiver at 460800 baud behind a USB-serial bridge (16 bytes a 1 ms frame) that pauses
        // 5 ms after each cycle's GGA, on its own pty. The first epoch is cut at the pause (nothing to go
        // by; its GSA and VTG come late, counted); the second, with the same pause, is whole and out
        // within twice the measured pause; from the third on, each closes at its ender. Under the old
        // n + 16 characters rule every sentence end cut both learning epochs. docs/nmea-epochs.md §1.
        let h = try SimulatedDeviceHarness(overrides: ["gps.baud=460800"])
        defer { h.removeDirectory() }
        let pty = try ReceiverPseudoTerminal.open()
        defer { try? pty.master.close(); try? pty.slaveHold.close() }
        h.source = SerialSource(path: pty.slavePath, baudRate: 460_800)
        let step: Int64 = 1_000_000
        var written: UInt64 = 0
        var appliedAt: [Int64] = []
        func wake() {
            h.now += step
            _ = h.device.step(gps: &h.source, nowNanoseconds: h.now, ready: .all)
            // The pty hands the bytes over from a kernel worker: read all that was written at this instant.
            var tries = 0
            while h.device.counters.gpsBytes < written && tries < 200 {
                var p = pollfd(fd: h.source.pollRequest.fileDescriptor?.rawValue ?? -1, events: Int16(POLLIN), revents: 0)
                _ = poll(&p, 1, 10)
                _ = h.device.step(gps: &h.source, nowNanoseconds: h.now, ready: .all)
                tries += 1
            }
            while appliedAt.count < Int(h.device.counters.fixes) { appliedAt.append(h.now) }
        }
        for _ in 0..<20 { wake() }                                   // puckd opens the pty
        let fixesBefore = Int(h.device.counters.fixes)
        var lastByte: [Int64] = []
        for k in 0..<6 {
            let time = "12000\(k / 10).\(k % 10)0"
            let cycleStart = h.now
            for body in ["$GPRMC,\(time),A,4807.0380,N,01131.0000,E,1.0,45.0,050826,,,A",
                         "$GPGGA,\(time),4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,",
                         "$GPGSA,A,3,04,05,09,12,24,,,,,,,,2.5,1.3,2.1", "$GPVTG,90.0,T,,M,20.0,N,37.0,K,A"] {
                let bytes = nmeaSentence(body)
                for from in stride(from: 0, to: bytes.count, by: 16) {
                    let chunk = Array(bytes[from..<min(from + 16, bytes.count)])
                    chunk.withUnsafeBytes { _ = try? pty.master.writeAll($0) }
                    written += UInt64(chunk.count)
                    wake()
                }
                if body.hasPrefix("$GPGGA") { for _ in 0..<5 { wake() } }   // the pause after the GGA
            }
            lastByte.append(h.now)
            while h.now < cycleStart + 100 * step { wake() }
        }
        let counters = h.device.gpsLink.pipeline.assembler.counters
        try #require(appliedAt.count - fixesBefore >= 5, "\(appliedAt.count - fixesBefore) fixes")
        #expect(counters.epochsCutWhileLearning == 1 && counters.sentencesAfterClose == 2,
                "cut \(counters.epochsCutWhileLearning), late \(counters.sentencesAfterClose): only the first epoch loses its GSA and VTG")
        let second = appliedAt[fixesBefore + 1] - lastByte[1]
        let pause = h.device.gpsLink.pipeline.assembler.longestCuttingPauseNanoseconds
        #expect(pause >= 5 * step && pause <= 7 * step, "measured pause \(pause) ns")
        #expect(second > 0 && second <= 2 * pause + step, "epoch 2 applied \(second) ns after its last byte")
        for k in 2..<5 { #expect(appliedAt[fixesBefore + k] == lastByte[k], "epoch \(k + 1) in the wake-up of its ender") }
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

/// `body` ("$GPGGA,…" without checksum) as a sentence on the wire: `*` checksum CR LF.
private func nmeaSentence(_ body: String) -> [UInt8] {
    let checksum = body.utf8.dropFirst().reduce(UInt8(0), ^)
    let hex = Array("0123456789ABCDEF".utf8)
    return Array(body.utf8) + [UInt8(ascii: "*"), hex[Int(checksum >> 4)], hex[Int(checksum & 15)], 13, 10]
}
