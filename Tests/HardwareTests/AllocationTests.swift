import SystemCalls
import Glibc
import TestSupport
import Testing
@testable import Hardware

/// Steady-state reads allocate nothing: the serial (termios on a pty), file, TCP, gpsd and
/// simulated sources, measured with the per-thread malloc counter in debug and release builds.
@Suite struct AllocationTests {
    /// Waits until `fd` is readable (poll allocates nothing).
    func waitReadable(_ fd: FileDescriptor?) {
        var entry = pollfd(fd: fd?.rawValue ?? -1, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, 5000)
    }

    @Test func serialReadsFromAPtyAllocateNothing() throws {
        let pty = try #require(PseudoTerminal())
        var source = SerialSource(path: pty.slavePath, baudRate: 9600)
        pump(&source, timeoutSeconds: 5) { _, status in status == .open }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 1)
        defer { buffer.deallocate() }
        let sentence = Array("$GPRMC,081836,A,3751.65,S,14507.36,E,000.0,360.0,130998,011.3,E*62\r\n".utf8)
        var received = 0
        func oneRound() throws {
            _ = sentence.withUnsafeBytes { write(pty.master, $0.baseAddress, $0.count) }
            var got = 0
            while got < sentence.count {
                waitReadable(source.pollRequest.fileDescriptor)
                got += try source.read(into: buffer, nowNanoseconds: monotonicNanoseconds())
            }
            received += got
        }
        for _ in 0..<10 { try oneRound() }
        received = 0
        let allocations = try allocationCount { for _ in 0..<2000 { try oneRound() } }
        let bytes = received
        #expect(allocations == 0)
        #expect(bytes == 2000 * sentence.count)
    }

    @Test func fileReadsAllocateNothing() throws {
        let log = try #require(Fixtures.bytes("nmea/gpsd/quectel-l76k-nmea.nmea"))
        let path = try #require(Fixtures.temporaryFile(named: "big.nmea", contents: Array(repeating: log, count: 8).flatMap { $0 }))
        var source = FileSource(path: path)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 512, alignment: 1)
        defer { buffer.deallocate() }
        var total = try source.read(into: buffer, nowNanoseconds: 0)  // opens (may allocate)
        var reads = 0
        let allocations = try allocationCount {
            while true {
                let n = try source.read(into: buffer, nowNanoseconds: 1)
                if n == 0 { break }
                total += n
                reads += 1
            }
        }
        let (count, readCount) = (total, reads)
        #expect(allocations == 0)
        #expect(count == log.count * 8)
        #expect(readCount > 2000)
    }

    @Test func tcpAndGpsdReadsAllocateNothing() throws {
        let server = try #require(LoopbackListener())
        var tcp = TCPSource(host: "127.0.0.1", port: server.port)
        var gpsd = GpsdSource(host: "127.0.0.1", port: server.port)
        var clients: [Int32] = []
        defer { clients.forEach { close($0) } }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 512, alignment: 1)
        defer { buffer.deallocate() }
        // Connect both (allocates: name resolution, first-time metadata).
        for _ in 0..<200 where clients.count < 2 || tcp.status != .open || gpsd.status != .open {
            _ = try tcp.read(into: buffer, nowNanoseconds: monotonicNanoseconds())
            _ = try gpsd.read(into: buffer, nowNanoseconds: monotonicNanoseconds())
            if let client = server.acceptNow() { clients.append(client) }
            var entry = pollfd(fd: -1, events: 0, revents: 0)
            _ = poll(&entry, 0, 5)
        }
        try #require(clients.count == 2)
        // The JSON line is dropped by the gpsd source; the TCP source passes everything.
        let json = Array("{\"class\":\"TPV\",\"mode\":3}\r\n".utf8)
        let nmea = Array("$GPGLL,4916.45,N,12311.12,W,225444,A,*1D\r\n".utf8)
        let chunk = json + nmea
        let nmeaBytes = nmea.count
        let (first, second) = (clients[0], clients[1])
        var tcpBytes = 0, gpsdBytes = 0
        func oneRound() throws {
            _ = chunk.withUnsafeBytes { send(first, $0.baseAddress, $0.count, 0) }
            _ = chunk.withUnsafeBytes { send(second, $0.baseAddress, $0.count, 0) }
            var gotTCP = 0, gotGpsd = 0
            while gotTCP < chunk.count {
                waitReadable(tcp.pollRequest.fileDescriptor)
                gotTCP += try tcp.read(into: buffer, nowNanoseconds: monotonicNanoseconds())
            }
            while gotGpsd < nmeaBytes {
                waitReadable(gpsd.pollRequest.fileDescriptor)
                gotGpsd += try gpsd.read(into: buffer, nowNanoseconds: monotonicNanoseconds())
            }
            tcpBytes += gotTCP
            gpsdBytes += gotGpsd
        }
        for _ in 0..<10 { try oneRound() }
        tcpBytes = 0
        gpsdBytes = 0
        let allocations = try allocationCount { for _ in 0..<2000 { try oneRound() } }
        let (t, g) = (tcpBytes, gpsdBytes)
        #expect(allocations == 0)
        #expect(t == 2000 * chunk.count)
        #expect(g == 2000 * nmeaBytes)
    }

    @Test func simulatedPortAllocatesNothing() throws {
        let log = try #require(Fixtures.bytes("nmea/gpsd/hemi.nmea"))
        var port = SimulatedSerialPort(bytes: log, receiverBaudRate: 9600, baudRate: 9600)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
        defer { buffer.deallocate() }
        var total = try port.read(into: buffer, nowNanoseconds: 1_000_000)
        let allocations = try allocationCount {
            var now: Int64 = 1_000_000
            while port.status == .open {
                now += 10_000_000
                while true {
                    let n = try port.read(into: buffer, nowNanoseconds: now)
                    if n == 0 { break }
                    total += n
                }
            }
        }
        let count = total
        #expect(allocations == 0)
        #expect(count == log.count)
    }

    /// Swift Testing installs a `swift_willThrow` hook that boxes every thrown error (one
    /// allocation per throw, also for a trivial typed error; a plain executable measured 0), so
    /// the hangup (one throw) is compared with a bare typed throw: the source's own path must add
    /// nothing.
    @Test func aHangupIsReportedWithoutAllocating() throws {
        var counts: [UInt64] = []
        var baselines: [UInt64] = []
        // The first hangup in the process fills metadata caches (warm-up); the second is measured.
        for _ in 0..<2 {
            let pty = try #require(PseudoTerminal())
            var source = SerialSource(path: pty.slavePath, baudRate: 9600)
            pump(&source, timeoutSeconds: 5) { _, status in status == .open }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
            defer { buffer.deallocate() }
            pty.closeMaster()
            var kind: SourceError.Kind?
            let allocations = allocationCount {
                do throws(SourceError) {
                    _ = try source.read(into: buffer, nowNanoseconds: 1)
                } catch {
                    kind = error.kind
                }
            }
            let baseline = allocationCount {
                do throws(BareError) { try throwBare() } catch { _ = error.code }
            }
            counts.append(allocations)
            baselines.append(baseline)
            #expect(kind == .disconnected)
        }
        #expect(counts.last == baselines.last)
        #expect(baselines.last ?? 9 <= 1)
    }
}

struct BareError: Error { var code: Int32 }

@inline(never) func throwBare() throws(BareError) { throw BareError(code: 1) }
