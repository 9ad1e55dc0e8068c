import SystemCalls
import Testing
import TestSupport

/// The syscall layer's terminal, pseudo-terminal, eventfd, directory, link, thread, PPS and
/// non-throwing I/O calls against the real kernel (what the serial sources, the simulated board,
/// the track journal and the commands use).
@Suite struct SystemCallsDeviceTests {
    @Test func pseudoTerminalSettingsRoundTripThroughTheSlave() throws {
        let (master, slavePath) = try FileDescriptor.openPseudoTerminal()
        defer { try? master.close() }
        #expect(slavePath.hasPrefix("/dev/pts/"))
        let slave = try FileDescriptor.open(slavePath, .readWrite, options: [.noControllingTerminal, .closeOnExec, .nonBlocking])
        defer { try? slave.close() }
        #expect(slave.isTerminal)
        var settings = try slave.terminalSettings()
        #expect(settings.echoes, "a new pty echoes")
        settings.makeRaw()
        settings.useEightDataBitsNoParityOneStopBit()
        settings.setReadMinimum(bytes: 1, timeoutDeciseconds: 0)
        try settings.setSpeed(bitsPerSecond: 38400)
        #expect(throws: Errno.invalidArgument) { try settings.setSpeed(bitsPerSecond: 12345) }
        try slave.setTerminalSettings(settings)
        try slave.takeTerminalExclusively()
        try slave.discardTerminalInput()
        let back = try slave.terminalSettings()
        #expect(!back.echoes)
        #expect(back.inputBitsPerSecond == 38400 && back.outputBitsPerSecond == 38400)
        // The master reports the slave's termios on Linux (the receiver twins read puckd's speed so).
        #expect(try master.terminalSettings().outputBitsPerSecond == 38400)
        // Exclusive: a second open of the slave is refused (root, CAP_SYS_ADMIN, may open it anyway).
        if ProcessIdentity.effectiveUserID != 0 {
            #expect(throws: Errno.busy) { try FileDescriptor.open(slavePath, .readWrite, options: [.noControllingTerminal]) }
        }
        // Bytes through the pair, with the non-throwing calls.
        let text: [UInt8] = Array("$GPGGA".utf8)
        #expect(text.withUnsafeBytes { master.writeOutcome($0) } == .processed(text.count))
        var buffer = [UInt8](repeating: 0, count: 16)
        var got = 0
        for _ in 0..<100 where got < text.count {
            if case .processed(let n) = buffer.withUnsafeMutableBytes({ slave.readOutcome(into: UnsafeMutableRawBufferPointer(rebasing: $0[got...])) }) {
                got += n
            } else {
                var entry = PollEntry(slave, events: .readable)
                _ = try withUnsafeMutablePointer(to: &entry) { try FileDescriptor.poll(.init(start: $0, count: 1), timeoutMilliseconds: 10) }
            }
        }
        #expect(Array(buffer[0..<got]) == text)
        #expect(buffer.withUnsafeMutableBytes { slave.readOutcome(into: $0) } == .wouldBlock)
        let null = try FileDescriptor.open("/dev/null", .readOnly, options: [.closeOnExec])
        defer { try? null.close() }
        #expect(throws: Errno.notATerminal) { try null.terminalSettings() }
        #expect(TerminalSpeed.isStandard(115200) && !TerminalSpeed.isStandard(115201))
    }

    @Test func failedReadsAndWritesAreValuesNotThrows() throws {
        // A descriptor number far above any this process hands out: EBADF, returned (not thrown).
        let never = FileDescriptor(known: 1_000_000)
        var byte: UInt8 = 0
        #expect(withUnsafeMutableBytes(of: &byte) { never.readOutcome(into: $0) } == .failed(.badFileDescriptor))
        #expect(withUnsafeBytes(of: byte) { never.writeOutcome($0) } == .failed(.badFileDescriptor))
    }

    @Test func eventCounterPollsReadableUntilDrained() throws {
        let event = try FileDescriptor.eventCounter()
        defer { try? event.close() }
        #expect(try event.pollNow(.readable).isEmpty)
        #expect(event.signalEventCounter() && event.signalEventCounter())
        #expect(try event.pollNow(.readable).contains(.readable))
        #expect(event.drainEventCounter() == 2)
        #expect(try event.pollNow(.readable).isEmpty)
        #expect(event.drainEventCounter() == 0)
    }

    @Test func directoryEntriesExistenceAndHardLinks() throws {
        let directory = Fixtures.temporaryDirectory(prefix: "systemcalls-dir")
        defer { _ = runProcess(["rm", "-rf", directory]) }
        #expect(try FileSystem.entries(ofDirectory: directory).isEmpty, "no . and ..")
        let fd = try FileDescriptor.open(directory + "/a", .writeOnly, options: [.create, .closeOnExec])
        try fd.close()
        try FileSystem.makeHardLink(directory + "/a", at: directory + "/b")
        #expect(throws: Errno.fileExists) { try FileSystem.makeHardLink(directory + "/a", at: directory + "/b") }
        #expect(try FileSystem.entries(ofDirectory: directory).sorted() == ["a", "b"])
        #expect(FileSystem.exists(directory + "/b") && !FileSystem.exists(directory + "/c"))
        #expect(throws: Errno.noSuchFileOrDirectory) { try FileSystem.entries(ofDirectory: directory + "/c") }
        #expect(throws: Errno.notADirectory) { try FileSystem.entries(ofDirectory: directory + "/a") }
    }

    @Test func workerThreadRunsUnderTheLockAndIsJoined() throws {
        final class Box: @unchecked Sendable {
            let lock = ThreadLock(conditionCount: 1)
            var handed = 0
            var done = false
        }
        let box = Box()
        let context = Unmanaged.passRetained(box).toOpaque()
        let thread = try WorkerThread.start(stackBytes: 64 << 10, context: context) { context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            box.lock.lock()
            while box.handed == 0 { box.lock.wait(onCondition: 0) }
            box.done = true
            box.lock.unlock()
            return nil
        }
        box.lock.lock()
        box.handed = 1
        box.lock.signal(condition: 0)
        box.lock.unlock()
        thread.join()
        #expect(box.done)
    }

    @Test func pulseCallsOnANonPPSDeviceSayNotATerminal() throws {
        let null = try FileDescriptor.open("/dev/null", .readOnly, options: [.closeOnExec])
        defer { try? null.close() }
        #expect(throws: Errno.notATerminal) { try null.pulseCapabilities() }
        #expect(throws: Errno.notATerminal) { try null.fetchPulse() }
        #expect(null.isNullDevice)
        let requests = FileDescriptor.pulseRequestNumbers
        #expect(requests.getCapabilities & 0xFFFF == 0x70A3 && requests.fetch & 0xFFFF == 0x70A4)
    }
}
