import SystemCalls
import Glibc
import TestSupport
import Testing
@testable import Hardware

@Suite struct FileSourceTests {
    static let corpus = "nmea/gpsd/quectel-l76k-nmea.nmea"

    @Test func readsAWholeLogInOrderThenFinishes() throws {
        let expected = try #require(Fixtures.bytes(Self.corpus))
        var source = FileSource(path: Fixtures.path(Self.corpus))
        #expect(source.status == .connecting)
        #expect(source.pollRequest.deadlineNanoseconds == .min)  // "read me now" to open
        let collected = pump(&source) { _, status in status == .finished }
        #expect(collected.bytes == expected)
        #expect(collected.errors.isEmpty)
        #expect(source.status == .finished)
        #expect(source.counters.bytesRead == UInt64(expected.count))
        #expect(source.counters.opens == 1)
        #expect(source.pollRequest == .never)
        // Reading after the end is harmless.
        var scratch = [UInt8](repeating: 0, count: 16)
        #expect(try scratch.withUnsafeMutableBytes { try source.read(into: $0, nowNanoseconds: 0) } == 0)
    }

    @Test func missingFileFailsForGoodWithItsPath() {
        var source = FileSource(path: "/nonexistent/drive.nmea")
        let collected = pump(&source, timeoutSeconds: 5) { c, _ in !c.errors.isEmpty }
        let error = collected.errors.first?.error
        #expect(error?.kind == .notFound)
        #expect(error?.message == "/nonexistent/drive.nmea does not exist (ENOENT): check the path of the NMEA log to replay.")
        #expect(source.status == .failed(.notFound))
        #expect(source.counters.errors(.notFound) == 1)
        #expect(source.pollRequest == .never)
    }

    @Test func pathUnderARegularFileIsNotFound() {
        // ENOTDIR: works the same as root (the tests run as root here).
        var source = FileSource(path: Fixtures.path(Self.corpus) + "/inside")
        let collected = pump(&source, timeoutSeconds: 5) { c, _ in !c.errors.isEmpty }
        #expect(collected.errors.first?.error.kind == .notFound)
        #expect(collected.errors.first?.error.systemError == Errno(rawValue: ENOTDIR))
    }

    @Test func directoryIsRefused() {
        var source = FileSource(path: Fixtures.path("nmea/gpsd"))
        let collected = pump(&source, timeoutSeconds: 5) { c, _ in !c.errors.isEmpty }
        #expect(collected.errors.first?.error.kind == .isADirectory)
        #expect(source.status == .failed(.isADirectory))
    }

    @Test func unreadableFileSaysHowToFixIt() throws {
        // A mode-000 file gives EACCES to anyone but root; as root the kernel lets us read it, so
        // then only the message is checked (the serial EACCES test drops privileges instead).
        let path = try #require(Fixtures.temporaryFile(named: "locked.nmea", contents: Array("$GPGGA\r\n".utf8)))
        chmod(path, 0)
        var source = FileSource(path: path)
        let collected = pump(&source, timeoutSeconds: 5) { c, status in !c.errors.isEmpty || status == .finished }
        if geteuid() != 0 {
            #expect(collected.errors.first?.error.kind == .permissionDenied)
        }
        let message = SourceError.classifying(Errno(rawValue: EACCES), origin: .file, subject: path).message
        #expect(message == "permission denied opening \(path) (EACCES): make the file readable by this user (chmod a+r) or run puckd as its owner.")
    }

    @Test func standardInputIsAPipeReadWithoutBlocking() throws {
        let expected = try #require(Fixtures.bytes("nmea/gpsd/hemi.nmea"))
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let reader = ends[0], writer = ends[1]
        _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) | O_NONBLOCK)
        defer { close(reader) }
        // The source must not set O_NONBLOCK on a descriptor it shares (stdin).
        var source = FileSource(descriptor: FileDescriptor(known: reader), name: "-")
        var written = 0
        var writerOpen = true
        let collected = pump(&source, feed: {
            guard writerOpen else { return false }
            if written < expected.count {
                let n = expected.withUnsafeBytes { write(writer, $0.baseAddress! + written, min(997, $0.count - written)) }
                if n > 0 { written += n }
            }
            if written == expected.count { close(writer); writerOpen = false }
            return writerOpen
        }) { _, status in status == .finished }
        #expect(collected.bytes == expected)
        #expect(fcntl(reader, F_GETFL) & O_NONBLOCK == 0)
        #expect(source.status == .finished)
    }

    @Test func anEmptyPipeReturnsNothingInsteadOfBlocking() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        var source = FileSource(descriptor: FileDescriptor(known: ends[0]), name: "-")
        var scratch = [UInt8](repeating: 0, count: 64)
        let n = try scratch.withUnsafeMutableBytes { try source.read(into: $0, nowNanoseconds: 0) }
        #expect(n == 0)
        #expect(source.status == .open)
        #expect(source.pollRequest == .input(FileDescriptor(known: ends[0])))
    }
}
