import Glibc
import GpsdServer
import SystemCalls
import Testing
import TestSupport
@testable import Puckd

/// The simulated board's PPS twin (line 18 of the GPIO twin, rising 40 ms before each whole second's
/// sentences) read through the real GPIO edge path, paired with the whole-second fixes, and routed by
/// the router to the gpsd server (`TOFF` then `PPS` to `pps` watchers, gpsd_json(5)) and to chrony's
/// PPS refclock socket as pulse samples (docs/gpsd-protocol.md §7).
@Suite(.serialized) struct DevicePPSTests {
    /// A Unix datagram socket bound at `path`, as chrony's `refclock SOCK` binds it.
    static func bindDatagram(_ path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var sa = sockaddr_un()
        sa.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &sa.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = b }
        }
        let rc = withUnsafePointer(to: &sa) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return rc == 0 ? fd : -1
    }

    @Test func pulsesReachTheServerAndChrony() throws {
        let scratch = SimulatedDeviceHarness.temporaryDirectory()
        defer { _ = runProcess(["rm", "-rf", scratch]) }
        let chronyPath = scratch + "/pps.sock"
        let chrony = Self.bindDatagram(chronyPath)
        try #require(chrony >= 0)
        defer { close(chrony) }
        let h = try SimulatedDeviceHarness(overrides: ["server.listen=127.0.0.1:0", "time.chrony_pps_socket=" + chronyPath],
                                           setupChanges: { setup in
            (setup.gpsdServer, setup.gpsdServerReport) = Device.openGpsdServer(setup.loaded.configuration)
        })
        defer { h.removeDirectory() }
        #expect(h.board.pps?.offset == 18)
        let server = try #require(h.device.gpsdServer as GpsdServer?)
        let port = try #require(server.listeners.first?.port)
        let watcher = try #require(DeviceGpsdServerAllocationTests.Client(port: port, request: "?WATCH={\"enable\":true,\"pps\":true};"))
        let other = try #require(DeviceGpsdServerAllocationTests.Client(port: port, request: "?WATCH={\"enable\":true,\"json\":true};"))
        func read(_ client: DeviceGpsdServerAllocationTests.Client) -> String {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = chunk.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n <= 0 { break }
                bytes += chunk[0..<n]
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        var text = ""
        var otherText = ""
        for _ in 0..<50 {                                       // 5 s of the 10 Hz drive
            h.advance(by: 100_000_000)
            text += read(watcher)
            otherText += read(other)
        }
        let pairing = h.device.ppsInput.pairing.statistics
        #expect(h.board.pps!.pulses >= 4 && pairing.pairedCount >= 3, "\(pairing)")
        // The server: TOFF then PPS for each pairing, both naming the whole second.
        let lines = text.split(separator: "\r\n")
        let pps = lines.filter { $0.hasPrefix("{\"class\":\"PPS\"") }
        let toff = lines.filter { $0.hasPrefix("{\"class\":\"TOFF\"") }
        #expect(pps.count >= 3 && pps.count == toff.count, "\(text)")
        #expect(pps.count == pairing.pairedCount)
        #expect(!otherText.contains("\"PPS\"") && !otherText.contains("\"TOFF\""), "only pps watchers get them")
        for line in pps {
            #expect(line.contains("\"real_nsec\":0,"), "\(line)")
            #expect(line.contains("\"precision\":-20"), "\(line)")
        }
        if let last = pps.last, let lastPairing = pairing.lastPairing {
            #expect(last.contains("\"real_sec\":\(lastPairing.utcNanoseconds / 1_000_000_000),"), "\(last)")
        }
        // chrony: one pulse sample per pairing, pulse flag set, the offset's fraction = the second
        // of the edge's system time within its second (system − true).
        var samples = 0
        var sample = [UInt8](repeating: 0, count: 64)
        while true {
            let n = sample.withUnsafeMutableBytes { recv(chrony, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n <= 0 { break }
            #expect(n == 40)
            sample.withUnsafeBytes { raw in
                #expect(raw.load(fromByteOffset: 24, as: Int32.self) == 1, "pulse flag")
                #expect(raw.load(fromByteOffset: 36, as: UInt32.self) == 0x534f_434b)
                let seconds = raw.load(fromByteOffset: 0, as: Int64.self)
                let micros = raw.load(fromByteOffset: 8, as: Int64.self)
                let offset = raw.load(fromByteOffset: 16, as: Double.self)
                let trueTime = Double(seconds) + Double(micros) / 1e6 - offset     // a pulse's offset: system − true
                #expect(abs(trueTime - trueTime.rounded()) < 1e-5, "system time − offset is a whole second: \(trueTime)")
            }
            samples += 1
        }
        #expect(samples == pairing.pairedCount && h.device.chronyPPS?.samplesSent == UInt64(samples))
    }

    @Test func fixesAndPulsesReachNTPSharedMemory() throws {
        // `[time] shm = 0` on private segments (the real NTP0/NTP1 belong to this machine's time service).
        let h = try SimulatedDeviceHarness(overrides: ["time.shm=0"], setupChanges: { setup in
            setup.ntpSharedMemoryKeys = (SharedMemorySegment.privateKey, SharedMemorySegment.privateKey)
        })
        defer { h.removeDirectory() }
        let coarse = try #require(h.device.ntpShm)
        let pulse = try #require(h.device.ntpShmPPS, "the sim board has a [pps] line: unit 1 is attached")
        #expect(coarse.unit == 0 && pulse.unit == 1)
        let coarseID = try #require(coarse.identifier), pulseID = try #require(pulse.identifier)
        defer { try? SharedMemorySegment.remove(identifier: coarseID); try? SharedMemorySegment.remove(identifier: pulseID) }
        let reader = try #require(shmat(coarseID, nil, 0)), pulseReader = try #require(shmat(pulseID, nil, 0))
        defer { _ = shmdt(reader); _ = shmdt(pulseReader) }
        var lastUTC: Int64?
        var dated: UInt64 = 0
        let fixes0 = h.device.counters.fixes
        for _ in 0..<50 {                                       // 5 s of the 10 Hz drive
            h.advance(by: 100_000_000)
            if let utc = h.device.lastGoodFix?.utcNanoseconds, utc != lastUTC { lastUTC = utc }
        }
        dated = coarse.samplesWritten
        #expect(dated > 30 && dated <= h.device.counters.fixes - fixes0, "one coarse sample per dated fix")
        // The segment holds the last fix's UTC (clockTimeStamp) and a valid, even count.
        let utc = try #require(lastUTC)
        #expect(reader.load(fromByteOffset: 8, as: Int64.self) == utc / 1_000_000_000)
        #expect(reader.load(fromByteOffset: 52, as: UInt32.self) == UInt32(utc % 1_000_000_000))
        #expect(reader.load(fromByteOffset: 48, as: Int32.self) == 1)
        #expect(reader.load(fromByteOffset: 4, as: Int32.self) == Int32(truncatingIfNeeded: 2 * dated))
        // The PPS unit: one sample per pairing, each naming a whole second.
        let pairing = h.device.ppsInput.pairing.statistics
        #expect(pairing.pairedCount >= 3 && pulse.samplesWritten == pairing.pairedCount)
        #expect(pulseReader.load(fromByteOffset: 52, as: UInt32.self) == 0, "clockTimeStamp of a pulse: the whole second")
        #expect(pulseReader.load(fromByteOffset: 8, as: Int64.self) == (pairing.lastPairing?.utcNanoseconds ?? 0) / 1_000_000_000)
        #expect(h.device.startupReport.contains { $0.hasPrefix("time: NTP shared memory NTP0 (key 0x4e545030)") })
    }
}
