import Glibc
import GpsdProtocol
import GpsdServer
import Testing
import TestSupport

/// puckd's samples against a real chronyd (Debian chrony) with its own configuration: `refclock SOCK`
/// in a scratch directory, `-x` (never sets this machine's clock), its command socket there too; then
/// `chronyc -n sources` lists the refclock with samples (docs/gpsd-protocol.md §7).
@Suite(.serialized) struct ChronyRefclockTests {
    @Test func theSampleIsChronysSockSampleLayout() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 40, alignment: 8)
        defer { buffer.deallocate() }
        ChronySample(systemNanoseconds: 1_700_000_000_123_456_789, offsetSeconds: -0.25, pulse: true, leap: 1).encode(into: buffer)
        #expect(buffer.load(fromByteOffset: 0, as: Int64.self) == 1_700_000_000)
        #expect(buffer.load(fromByteOffset: 8, as: Int64.self) == 123_456)
        #expect(buffer.load(fromByteOffset: 16, as: Double.self) == -0.25)
        #expect(buffer.load(fromByteOffset: 24, as: Int32.self) == 1)
        #expect(buffer.load(fromByteOffset: 28, as: Int32.self) == 1)
        #expect(buffer.load(fromByteOffset: 36, as: UInt32.self) == 0x534f_434b)
    }

    @Test(.enabled(if: ChronydHarness.available, "chronyd and chronyc (Debian chrony), as root"))
    func chronydTakesTheSamples() throws {
        let chronyd = try ChronydHarness(readyPath: "refclock.sock") { dir in
            ["refclock SOCK \(dir)/refclock.sock refid PUCK poll 0 filter 1 offset 0.0 noselect"]
        }
        defer { chronyd.stop() }
        // A receiver 0.3 s ahead of the system clock, 10 fixes a second for 4 s.
        let socket = ChronySocket(path: chronyd.directory + "/refclock.sock")
        var monotonic: Int64 = 0
        for _ in 0..<40 {
            let system = ChronydHarness.realtime()
            socket.send(ChronySample(fixUTCNanoseconds: system + 300_000_000, receivedSystemNanoseconds: system),
                        nowNanoseconds: monotonic)
            monotonic += 100_000_000
            usleep(100_000)
            _ = chronyd.process.poll()
        }
        #expect(socket.samplesSent == 40)
        #expect(socket.samplesLost == 0)
        // Columns: state, name, stratum, poll, reach (octal), last sample age, offset … ("#? PUCK 0 0 377 0 -300ms[…]");
        // chrony's offset is the local clock's from the source: 300 ms behind a receiver 300 ms ahead.
        let (row, reach) = try chronyd.source("PUCK")
        #expect(reach != 0, "\(row)")
        #expect(row.contains("-300ms") || row.contains("-299ms") || row.contains("-301ms"), "\(row)")
    }

    @Test(.enabled(if: ChronydHarness.available, "chronyd and chronyc (Debian chrony), as root"))
    func chronydTakesThePulsesLockedToTheCoarseRefclock() throws {
        // gpsd's time-service arrangement: a coarse refclock (each fix's UTC) and a PPS refclock whose
        // pulse samples (pulse flag) chrony numbers by the coarse one (`lock NMEA`). The receiver is
        // 300 ms ahead of the system clock; a pulse at system time T marks the true second T + 0.3 s.
        let chronyd = try ChronydHarness(readyPath: "pps.sock") { dir in [
            "refclock SOCK \(dir)/nmea.sock refid NMEA poll 0 filter 1 noselect",
            "refclock SOCK \(dir)/pps.sock refid PPS poll 0 filter 1 lock NMEA noselect",
        ] }
        defer { chronyd.stop() }
        let coarse = ChronySocket(path: chronyd.directory + "/nmea.sock")
        let pulses = ChronySocket(path: chronyd.directory + "/pps.sock")
        var monotonic: Int64 = 0
        for _ in 0..<8 {
            let system = ChronydHarness.realtime()
            coarse.send(ChronySample(fixUTCNanoseconds: system + 300_000_000, receivedSystemNanoseconds: system),
                        nowNanoseconds: monotonic)
            pulses.send(ChronySample(pulseAtSystemNanoseconds: system, trueSecondUTCNanoseconds: system + 300_000_000),
                        nowNanoseconds: monotonic)
            monotonic += 1_000_000_000
            usleep(1_000_000)
            _ = chronyd.process.poll()
        }
        #expect(pulses.samplesSent == 8 && pulses.samplesLost == 0)
        let (row, reach) = try chronyd.source("PPS")
        #expect(reach != 0, "\(row)")
        #expect(row.contains("-300ms") || row.contains("-299ms") || row.contains("-301ms"), "\(row)")
    }
}
