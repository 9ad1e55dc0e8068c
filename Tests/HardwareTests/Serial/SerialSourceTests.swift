import SystemCalls
import Glibc
import TestSupport
import Testing
@testable import Hardware

/// Serial sources against real kernel pseudo-terminals (posix_openpt): libserialport refuses
/// them, so these exercise the automatic fallback to POSIX termios, the reads, the baud changes
/// and the hangup of a real tty.
@Suite struct SerialSourceTests {
    static let corpus = "nmea/gpsd/ublox-neo-m9n-nmea.nmea"

    @Test func libserialportRefusesAPseudoTerminal() throws {
        let pty = try #require(PseudoTerminal())
        switch SerialPort.open(path: pty.slavePath, baudRate: 9600) {
        case .refused(.unknownDevice): break
        case .refused(let other): Issue.record("refused, but for \(other)")
        case .opened(let port): port.close(); Issue.record("libserialport opened a pty; the fallback is untested")
        case .failed(let error): Issue.record("failed: \(error.message)")
        }
    }

    @Test func fallsBackToTermiosAndReceivesEveryByteInOrder() throws {
        let expected = try #require(Fixtures.bytes(Self.corpus))
        let pty = try #require(PseudoTerminal())
        var source = SerialSource(path: pty.slavePath, baudRate: 9600)
        // Open first (bytes written before the open would be echoed back by the cooked tty).
        pump(&source, timeoutSeconds: 5) { _, status in status == .open }
        let backendChoice = source.backendChoice
        let choice = try #require(backendChoice)
        #expect(choice.backend == .termios)
        #expect(choice.reason == .refused(.unknownDevice(Errno(rawValue: ENOENT))))
        let name = String(pty.slavePath.split(separator: "/").last!)
        #expect(choice.message == "serial \(pty.slavePath): POSIX termios, because libserialport does not know the device (no /sys/class/tty/\(name), ENOENT: a pseudo-terminal or a tty without a driver entry)")

        // Feed in writes of awkward sizes so sentences are split anywhere.
        let sizes = [1, 7, 82, 3, 255, 1000, 13]
        var offset = 0, round = 0
        let collected = pump(&source, feed: {
            if offset < expected.count {
                let end = min(expected.count, offset + sizes[round % sizes.count])
                let chunk = Array(expected[offset..<end])
                let wrote = pty.write(chunk, from: 0)
                offset += wrote
                if wrote == chunk.count { round += 1 }
            }
            return offset < expected.count
        }) { c, _ in c.bytes.count >= expected.count }
        #expect(collected.errors.isEmpty)
        #expect(collected.bytes == expected)
        #expect(source.counters.bytesRead == UInt64(expected.count))
    }

    @Test func setsRawEightNOneAndChangesTheBaudRate() throws {
        let pty = try #require(PseudoTerminal())
        let port = try TermiosPort.open(path: pty.slavePath, baudRate: 4800)
        defer { port.close() }
        var settings = termios()
        #expect(tcgetattr(port.fileDescriptor, &settings) == 0)
        #expect(settings.c_lflag & tcflag_t(ICANON | ECHO) == 0)
        #expect(settings.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
        #expect(settings.c_cflag & (tcflag_t(PARENB) | tcflag_t(CSTOPB) | tcflag_t(CRTSCTS)) == 0)
        #expect(settings.c_iflag & (tcflag_t(IXON) | tcflag_t(IXOFF) | tcflag_t(ICRNL)) == 0)
        #expect(port.currentBaudRate() == 4800)
        try port.setBaudRate(115200)
        #expect(port.currentBaudRate() == 115200)
        #expect(fcntl(port.fileDescriptor, F_GETFL) & O_NONBLOCK != 0)
    }

    @Test func setBaudRateAppliesNowAndRejectsNonstandardRates() throws {
        let pty = try #require(PseudoTerminal())
        var source = SerialSource(path: pty.slavePath, baudRate: 9600)
        pump(&source, timeoutSeconds: 5) { _, status in status == .open }
        try source.setBaudRate(38400, nowNanoseconds: monotonicNanoseconds())
        #expect(source.baudRate == 38400)
        var settings = termios()
        #expect(tcgetattr(source.pollRequest.fileDescriptor?.rawValue ?? -1, &settings) == 0)
        #expect(cfgetispeed(&settings) == speed_t(B38400))
        #expect(throws: SourceError(.unsupportedBaudRate, origin: .serial, subject: pty.slavePath, systemError: .invalidArgument, detail: 12345)) {
            try source.setBaudRate(12345)
        }
        #expect(source.baudRate == 38400)
    }

    @Test func hangupIsReportedThenRetriedWithBackoff() throws {
        let pty = try #require(PseudoTerminal())
        // Open through a symlink, as through udev's /dev/gps0: the "unplug" removes it, so the
        // retries cannot open a recycled /dev/pts/N that a parallel test has just created.
        let dir = try #require(Fixtures.temporaryFile(named: "x", contents: []).map { String($0.dropLast(2)) })
        let link = dir + "/gps0"
        #expect(symlink(pty.slavePath, link) == 0)
        let policy = ReconnectPolicy(initialDelayNanoseconds: 20_000_000, maximumDelayNanoseconds: 80_000_000)
        var source = SerialSource(path: link, baudRate: 9600, policy: policy)
        pump(&source, timeoutSeconds: 5) { _, status in status == .open }
        let sentence = Array("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n".utf8)
        #expect(pty.write(sentence, from: 0) == sentence.count)
        let before = pump(&source, timeoutSeconds: 10) { c, _ in c.bytes.count >= sentence.count }
        #expect(before.bytes == sentence)
        // The "unplug": closing the master hangs the slave up (the kernel discards unread input,
        // read(2) returns 0, as on a USB unplug); udev would remove the symlink.
        pty.closeMaster()
        unlink(link)
        let collected = pump(&source) { c, _ in c.errors.count >= 3 }
        #expect(collected.bytes.isEmpty)
        let kinds = collected.errors.map(\.error.kind)
        #expect(kinds == [.disconnected, .notFound, .notFound])
        #expect(collected.errors.first?.error.message == "\(link) went away mid-stream (hangup): the receiver was unplugged, lost power or its driver reset; puckd reopens it with backoff when it comes back.")
        // Backoff: the retries are due 20 ms, then 40 ms, then 80 ms after each failure.
        let delays = collected.errors.map { entry -> Int64 in
            guard case .waitingToReconnect(let at) = entry.statusAfter else { return -1 }
            return at - entry.nowNanoseconds
        }
        #expect(delays == [20_000_000, 40_000_000, 80_000_000])
        let counters = source.counters
        #expect(counters.errors(.disconnected) == 1)
        #expect(counters.errors(.notFound) == 2)
        #expect(counters.opens == 1)
        #expect(source.pollRequest.fileDescriptor == nil)
    }

    @Test func missingDeviceIsRetriedNotFatal() {
        var source = SerialSource(path: "/dev/ttyPUCKD-absent", policy: ReconnectPolicy(initialDelayNanoseconds: 1_000_000))
        let collected = pump(&source, timeoutSeconds: 5) { c, _ in c.errors.count >= 2 }
        #expect(collected.errors.map(\.error.kind) == [.notFound, .notFound])
        #expect(collected.errors[0].error.message == "/dev/ttyPUCKD-absent does not exist (ENOENT): check that the receiver is plugged in and powered (for a HAT: that the UART is enabled in config.txt), then run 'puckd ports' to list this machine's serial ports.")
        guard case .waitingToReconnect = source.status else {
            Issue.record("a missing device must be retried, got \(source.status)")
            return
        }
    }

    @Test(arguments: ["/dev/null", "REGULAR"])
    func nonTerminalsAreRefusedForGood(path: String) throws {
        let target = path == "REGULAR" ? try #require(Fixtures.temporaryFile(named: "log.nmea", contents: [36])) : path
        var source = SerialSource(path: target)
        let collected = pump(&source, timeoutSeconds: 5) { c, _ in !c.errors.isEmpty }
        let error = try #require(collected.errors.first?.error)
        #expect(error.kind == .notATerminal)
        #expect(error.message.contains("or file:\(target) to replay it"))
        #expect(source.status == .failed(.notATerminal))
    }

    @Test func symlinkToADeviceIsFollowed() throws {
        let pty = try #require(PseudoTerminal())
        let dir = try #require(Fixtures.temporaryFile(named: "x", contents: []).map { String($0.dropLast(2)) })
        let link = dir + "/gps0"
        #expect(symlink(pty.slavePath, link) == 0)
        var source = SerialSource(path: link)
        pump(&source, timeoutSeconds: 5) { _, status in status == .open }
        let choice = source.backendChoice
        #expect(choice?.device == pty.slavePath)
        #expect(choice?.message.hasPrefix("serial \(link) (\(pty.slavePath)): POSIX termios") == true)
    }

    @Test func forcedTermiosSaysSo() throws {
        let pty = try #require(PseudoTerminal())
        var source = SerialSource(path: pty.slavePath, forceTermios: true)
        pump(&source, timeoutSeconds: 5) { _, status in status == .open }
        let choice = source.backendChoice
        #expect(choice?.reason == .requested)
        #expect(choice?.message == "serial \(pty.slavePath): POSIX termios, as requested")
    }
}
