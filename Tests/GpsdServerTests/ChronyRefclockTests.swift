import Glibc
import GpsdProtocol
import GpsdServer
import Testing
import TestSupport

/// puckd's samples against a real chronyd (Debian chrony) with its own configuration: `refclock SOCK`
/// in a scratch directory, `-x` (never sets this machine's clock), its command socket there too; then
/// `chronyc -n sources` lists the refclock with samples (docs/gpsd-protocol.md §7).
@Suite(.serialized) struct ChronyRefclockTests {
    static let hasChrony = access("/usr/sbin/chronyd", X_OK) == 0 && access("/usr/bin/chronyc", X_OK) == 0 && getuid() == 0

    static func realtime() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

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

    @Test(.enabled(if: hasChrony, "chronyd and chronyc (Debian chrony), as root"))
    func chronydTakesTheSamples() throws {
        var template = Array("/tmp/puckd-chrony-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { _ = runProcess(["rm", "-rf", dir]) }
        let config = """
        refclock SOCK \(dir)/refclock.sock refid PUCK poll 0 filter 1 offset 0.0 noselect
        bindcmdaddress \(dir)/chronyc.sock
        cmdport 0
        port 0
        pidfile \(dir)/chronyd.pid
        driftfile \(dir)/drift
        """
        let fd = open(dir + "/chrony.conf", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = Array(config.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        // -x: never touch this machine's clock; -d: stay in the foreground; -u root: no privilege drop
        // (the scratch directory is root's).
        let chronyd = try #require(ChildProcess(["/usr/sbin/chronyd", "-x", "-d", "-u", "root", "-f", dir + "/chrony.conf"]))
        defer { chronyd.kill() }
        // Wait for chrony to create its refclock socket.
        var waited = 0
        while access(dir + "/refclock.sock", F_OK) != 0 && waited < 100 { usleep(100_000); waited += 1; _ = chronyd.poll() }
        try #require(access(dir + "/refclock.sock", F_OK) == 0, "chronyd did not create its socket: \(String(decoding: chronyd.output, as: UTF8.self))")

        // A receiver 0.3 s ahead of the system clock, 10 fixes a second for 4 s.
        let socket = ChronySocket(path: dir + "/refclock.sock")
        var monotonic: Int64 = 0
        for _ in 0..<40 {
            let system = Self.realtime()
            socket.send(ChronySample(fixUTCNanoseconds: system + 300_000_000, receivedSystemNanoseconds: system),
                        nowNanoseconds: monotonic)
            monotonic += 100_000_000
            usleep(100_000)
            _ = chronyd.poll()
        }
        #expect(socket.samplesSent == 40)
        #expect(socket.samplesLost == 0)
        let sources = try #require(runProcess(["/usr/bin/chronyc", "-h", dir + "/chronyc.sock", "-n", "sources"]))
        #expect(sources.status == 0, "\(sources.errorOutput)")
        let row = try #require(sources.output.split(separator: "\n").first { $0.contains("PUCK") }, "\(sources.output)")
        // Columns: state, name, stratum, poll, reach (octal), last sample age, offset … ("#? PUCK 0 0 377 0 -300ms[…]");
        // chrony's offset is the local clock's from the source: 300 ms behind a receiver 300 ms ahead.
        let columns = row.split(separator: " ", omittingEmptySubsequences: true)
        let reach = try #require(Int(columns[4], radix: 8))
        #expect(reach != 0, "\(row)")
        #expect(row.contains("-300ms") || row.contains("-299ms") || row.contains("-301ms"), "\(row)")
    }

    @Test(.enabled(if: hasChrony, "chronyd and chronyc (Debian chrony), as root"))
    func chronydTakesThePulsesLockedToTheCoarseRefclock() throws {
        // gpsd's time-service arrangement: a coarse refclock (each fix's UTC) and a PPS refclock whose
        // pulse samples (pulse flag) chrony numbers by the coarse one (`lock NMEA`). The receiver is
        // 300 ms ahead of the system clock; a pulse at system time T marks the true second T + 0.3 s.
        var template = Array("/tmp/puckd-chrony-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { _ = runProcess(["rm", "-rf", dir]) }
        let config = """
        refclock SOCK \(dir)/nmea.sock refid NMEA poll 0 filter 1 noselect
        refclock SOCK \(dir)/pps.sock refid PPS poll 0 filter 1 lock NMEA noselect
        bindcmdaddress \(dir)/chronyc.sock
        cmdport 0
        port 0
        pidfile \(dir)/chronyd.pid
        driftfile \(dir)/drift
        """
        let fd = open(dir + "/chrony.conf", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = Array(config.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let chronyd = try #require(ChildProcess(["/usr/sbin/chronyd", "-x", "-d", "-u", "root", "-f", dir + "/chrony.conf"]))
        defer { chronyd.kill() }
        var waited = 0
        while access(dir + "/pps.sock", F_OK) != 0 && waited < 100 { usleep(100_000); waited += 1; _ = chronyd.poll() }
        try #require(access(dir + "/pps.sock", F_OK) == 0, "chronyd did not create its sockets: \(String(decoding: chronyd.output, as: UTF8.self))")
        let coarse = ChronySocket(path: dir + "/nmea.sock")
        let pulses = ChronySocket(path: dir + "/pps.sock")
        var monotonic: Int64 = 0
        for _ in 0..<8 {
            let system = Self.realtime()
            coarse.send(ChronySample(fixUTCNanoseconds: system + 300_000_000, receivedSystemNanoseconds: system),
                        nowNanoseconds: monotonic)
            pulses.send(ChronySample(pulseAtSystemNanoseconds: system, trueSecondUTCNanoseconds: system + 300_000_000),
                        nowNanoseconds: monotonic)
            monotonic += 1_000_000_000
            usleep(1_000_000)
            _ = chronyd.poll()
        }
        #expect(pulses.samplesSent == 8 && pulses.samplesLost == 0)
        let sources = try #require(runProcess(["/usr/bin/chronyc", "-h", dir + "/chronyc.sock", "-n", "sources"]))
        #expect(sources.status == 0, "\(sources.errorOutput)")
        let row = try #require(sources.output.split(separator: "\n").first { $0.contains("PPS") }, "\(sources.output)")
        let columns = row.split(separator: " ", omittingEmptySubsequences: true)
        let reach = try #require(Int(columns[4], radix: 8))
        #expect(reach != 0, "\(row)\n\(sources.output)")
        #expect(row.contains("-300ms") || row.contains("-299ms") || row.contains("-301ms"), "\(row)\n\(sources.output)")
    }
}
