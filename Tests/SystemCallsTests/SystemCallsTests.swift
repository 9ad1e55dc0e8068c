import SystemCalls
import Testing
import TestSupport

/// The syscall layer against the real kernel: a scratch file, a pipe, poll, typed errors and their
/// texts, and no allocation on the loop's calls.
@Suite struct SystemCallsTests {
    @Test func fileRoundTripThroughOpenWriteSyncSeekReadRename() throws {
        let directory = Fixtures.temporaryDirectory(prefix: "systemcalls")
        let path = directory + "/file.tmp", final = directory + "/file"
        let fd = try FileDescriptor.open(path, .readWrite, options: [.create, .truncate, .closeOnExec], permissions: 0o600)
        let text: [UInt8] = Array("hello, kernel".utf8)
        try text.withUnsafeBytes { bytes in try fd.writeAll(bytes) }
        try fd.sync()
        #expect(try fd.status().sizeBytes == Int64(text.count))
        #expect(try fd.status().permissions == 0o600)
        try fd.seek(toAbsoluteOffset: 7)
        var back = [UInt8](repeating: 0, count: 32)
        let n = try back.withUnsafeMutableBytes { buffer in try fd.read(into: buffer) }
        #expect(Array(back[0..<n]) == Array("kernel".utf8))
        let m = try back.withUnsafeMutableBytes { buffer in try fd.read(fromAbsoluteOffset: 0, into: buffer) }
        #expect(Array(back[0..<m]) == text)
        try fd.close()
        try FileSystem.rename(path, to: final)
        try FileSystem.syncDirectory(directory)
        #expect(try FileSystem.status(final).isRegularFile)
        #expect(throws: Errno.noSuchFileOrDirectory) { try FileSystem.status(path) }
        try FileSystem.unlink(final)
        #expect(throws: Errno.noSuchFileOrDirectory) { try FileSystem.unlink(final) }
        #expect(try FileSystem.status(directory).isDirectory)
    }

    @Test func openErrorsAreTyped() {
        #expect(throws: Errno.noSuchFileOrDirectory) {
            try FileDescriptor.open("/nonexistent-puckd/x", .readOnly)
        }
        #expect(throws: Errno.notADirectory) { try FileDescriptor.open("/dev/null/x", .readOnly) }
        #expect(throws: Errno.fileExists) {
            try FileDescriptor.open("/dev/null", .readWrite, options: [.create, .exclusiveCreate])
        }
    }

    @Test func pipePollAndNonBlockingRead() throws {
        let (readEnd, writeEnd) = try FileDescriptor.pipe(nonBlocking: true)
        // Closed once each: a second close could close a parallel test's descriptor with the same number.
        var writeEndOpen = true
        defer { try? readEnd.close(); if writeEndOpen { try? writeEnd.close() } }
        #expect(try readEnd.pollNow(.readable) == [])
        var byte: UInt8 = 0
        #expect(throws: Errno.wouldBlock) {
            try withUnsafeMutableBytes(of: &byte) { buffer in _ = try readEnd.read(into: buffer) }
        }
        #expect(try writeEnd.write(UnsafeRawBufferPointer(start: nil, count: 0)) == 0)
        let one: UInt8 = 42
        #expect(try withUnsafeBytes(of: one) { bytes in try writeEnd.write(bytes) } == 1)
        #expect(try readEnd.pollNow(.readable).contains(.readable))

        // A set with an empty slot: the kernel skips it, the other slot reports.
        var slots = [PollEntry(nil, events: .readable), PollEntry(readEnd, events: .readable)]
        let ready = try slots.withUnsafeMutableBufferPointer { buffer in
            try FileDescriptor.poll(buffer, timeoutMilliseconds: 0)
        }
        #expect(ready == 1)
        #expect(slots[0].returnedEvents == [] && slots[0].descriptor == nil)
        #expect(slots[1].returnedEvents.contains(.readable) && slots[1].descriptor == readEnd)
        #expect(try withUnsafeMutableBytes(of: &byte) { buffer in try readEnd.read(into: buffer) } == 1)
        #expect(byte == 42)

        writeEndOpen = false
        try writeEnd.close()
        #expect(try readEnd.pollNow(.readable).contains(.hangUp))
        #expect(try withUnsafeMutableBytes(of: &byte) { buffer in try readEnd.read(into: buffer) } == 0)
    }

    @Test func closedDescriptorIsBadFileDescriptor() throws {
        // Not a descriptor this test closed itself: tests run in parallel, and another test's open() may
        // get the number back at once (closing it again would close theirs). A number this high is
        // never handed out, so it is closed whatever else runs.
        let neverOpen = try #require(FileDescriptor(rawValue: CInt.max - 1))
        #expect(throws: Errno.badFileDescriptor) { try neverOpen.close() }
        #expect(throws: Errno.badFileDescriptor) { try neverOpen.setNonBlocking(true) }
        #expect(throws: Errno.badFileDescriptor) { try neverOpen.control(0x5401) }   // TCGETS
    }

    @Test func noneIsNilNotMinusOne() throws {
        #expect(FileDescriptor(rawValue: -1) == nil)
        #expect(FileDescriptor(rawValue: 0) == .standardInput)
        #expect(throws: Errno.permissionDenied) { try FileDescriptor.check(negated: -Errno.permissionDenied.rawValue) }
        #expect((try? FileDescriptor.check(negated: 7)) == FileDescriptor(known: 7))
        #expect(throws: Errno.busy) { try Errno.check(negated: -Int(Errno.busy.rawValue)) }
        #expect((try? Errno.check(negated: 12)) == 12)
    }

    @Test func ioctlOnANonTerminalIsNotATerminal() throws {
        let fd = try FileDescriptor.open("/dev/null", .readOnly, options: .closeOnExec)
        defer { try? fd.close() }
        #expect(!fd.isTerminal)
        var size = (UInt16(0), UInt16(0), UInt16(0), UInt16(0))
        #expect(throws: Errno.notATerminal) {
            try withUnsafeMutableBytes(of: &size) { raw in try fd.control(0x5413, raw.baseAddress) }  // TIOCGWINSZ
        }
    }

    @Test func errnoTexts() {
        #expect(Errno.noSpace.description == "No space left on device (ENOSPC)")
        #expect(Errno.permissionDenied.description == "Permission denied (EACCES)")
        #expect(Errno(rawValue: 4242).description == "errno 4242")
    }

    @Test func nonBlockingCallsSayWouldBlockWithoutThrowing() throws {
        let (readEnd, writeEnd) = try FileDescriptor.pipe(nonBlocking: true)
        defer { try? readEnd.close(); try? writeEnd.close() }
        var byte: UInt8 = 0
        #expect(try withUnsafeMutableBytes(of: &byte) { try readEnd.readNonBlocking(into: $0) } == .wouldBlock)
        var filled = 0
        let block = [UInt8](repeating: 1, count: 4096)
        while case .processed(let n) = try block.withUnsafeBytes({ try writeEnd.writeNonBlocking($0) }) { filled += n }
        #expect(filled >= 4096)                      // the pipe's buffer, then EAGAIN
        #expect(try withUnsafeMutableBytes(of: &byte) { try readEnd.readNonBlocking(into: $0) } == .processed(1))
        try writeEnd.close()
        #expect(throws: Errno.badFileDescriptor) { try withUnsafeBytes(of: byte) { try writeEnd.writeNonBlocking($0) } }
    }

    /// The loop's calls (poll, a read until EAGAIN, a write, an error's text) allocate nothing.
    /// Thrown errors are left out on purpose: Swift Testing's will-throw hook records a backtrace
    /// for every throw in the test process (not in puckd), which allocates.
    @Test func loopCallsAllocateNothing() throws {
        let (readEnd, writeEnd) = try FileDescriptor.pipe(nonBlocking: true)
        defer { try? readEnd.close(); try? writeEnd.close() }
        var buffer = (UInt64(0), UInt64(0))
        var slots = (PollEntry(readEnd, events: .readable), PollEntry(nil, events: .readable))
        var moved = 0
        func round() {
            withUnsafeBytes(of: UInt64(7)) {
                if case .processed(let n) = try? writeEnd.writeNonBlocking($0) { moved &+= n }
            }
            withUnsafeMutableBytes(of: &slots) { raw in
                _ = try? FileDescriptor.poll(raw.bindMemory(to: PollEntry.self), timeoutMilliseconds: 0)
            }
            _ = try? readEnd.pollNow(.readable)
            while case .processed(let n) = (try? withUnsafeMutableBytes(of: &buffer) { try readEnd.readNonBlocking(into: $0) }) ?? .wouldBlock {
                moved &+= n
            }
            Errno.noSpace.write { moved &+= $0.count }
        }
        round()
        let count = allocationCount { for _ in 0..<1000 { round() } }
        #expect(count == 0)
        #expect(moved == 1001 * (8 + 8 + "No space left on device (ENOSPC)".utf8.count))
    }
}
