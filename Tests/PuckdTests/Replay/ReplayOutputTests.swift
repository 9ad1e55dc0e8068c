import Glibc
import SystemCalls
import Testing
import TestSupport
@testable import Commands
@testable import Puckd

/// `puckd replay` writes every fix, however much output one 64 KiB chunk of input makes, and a
/// destination that does not take every byte is a failure said once (exit 74), never a silent cut:
/// before, 8 copies of the nmea-rtk log printed 712 of 976 fixes and exited 0.
@Suite struct ReplayOutputTests {
    static func copies(_ n: Int) throws -> [UInt8] {
        let one = try #require(Fixtures.bytes("nmea/gpsd/nmea-rtk.nmea"))
        return Array([[UInt8]](repeating: one, count: n).joined())
    }

    /// Replays `bytes` in process into a temporary file; returns the exit status, the output's lines
    /// and what went to standard error (a file as well).
    static func replay(_ bytes: [UInt8], _ configure: (inout ReplayOptions) -> Void) throws
        -> (status: Int32, lines: [Substring], errors: String) {
        var options = ReplayOptions()
        configure(&options)
        let path = try #require(Fixtures.temporaryFile(named: "out.txt", contents: []))
        let out = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        let summary = open("/dev/null", O_WRONLY | O_CLOEXEC)
        let status = bytes.withUnsafeBytes { ReplayCommand.replay($0, options: options, output: FileDescriptor(known: out), summary: FileDescriptor(known: summary)) }
        close(out); close(summary)
        let text = String(decoding: try #require(Fixtures.readFile(path)), as: UTF8.self)
        unlink(path)
        return (status, text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { $0 }, "")
    }

    @Test func everyFixOfOutputManyTimesTheBuffer() throws {
        // 64 copies: 7808 fixes, ≈ 1.6 MB of JSON, 25 times the 64 KiB buffer.
        let (status, lines, _) = try Self.replay(try Self.copies(64)) { $0.json = true }
        #expect(status == ExitStatus.ok)
        #expect(lines.count == 64 * 122)
        #expect(lines.allSatisfy { $0.hasPrefix("{\"time\":\"2020-03-18T") && $0.hasSuffix("}") })
        let text = try Self.replay(try Self.copies(8)) { _ in }
        #expect(text.status == ExitStatus.ok && text.lines.count == 976)
    }

    @Test func everyTrackingTickOfALongReplay() throws {
        let (status, lines, _) = try Self.replay(try Self.copies(4)) { $0.json = true; $0.track = .mode(.followWithCourse) }
        #expect(status == ExitStatus.ok)
        #expect(lines.count > 20 * 65_536 / 300)                  // many times the buffer
        #expect(lines.allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") })
    }

    /// A full disk: exit 74 and one sentence with the error's text, not "(errno 28)".
    @Test func aFullDiskIsAFailureSaidOnce() throws {
        let log = try #require(Fixtures.temporaryFile(named: "two.nmea", contents: try Self.copies(2)))
        let result = try #require(runProcess(["sh", "-c", "exec '\(PuckdProcess.binary)' replay '\(log)' >/dev/full"]))
        #expect(result.status == ExitStatus.ioError)
        #expect(result.errorOutput.hasPrefix("puckd replay: writing the output failed (No space left on device (ENOSPC)): "),
                "\(result.errorOutput)")
        #expect(result.errorOutput.split(separator: "\n").count == 1)
    }

    /// A reader that closes the pipe early (`| head`): the run stops, says so once and fails (exit 74).
    @Test func aClosedPipeIsAFailureSaidOnce() throws {
        let log = try #require(Fixtures.temporaryFile(named: "eight.nmea", contents: try Self.copies(8)))
        let result = try #require(runProcess(["bash", "-c", "'\(PuckdProcess.binary)' replay '\(log)' --json | head -c 100 "
            + ">/dev/null; echo \"status ${PIPESTATUS[0]}\""]))
        #expect(result.output == "status 74\n")
        // Standard error holds the summary (--json) and the one sentence.
        let said = result.errorOutput.split(separator: "\n").filter { $0.hasPrefix("puckd replay:") }
        #expect(said.count == 1)
        #expect(said.first?.hasPrefix("puckd replay: the output was closed by its reader (EPIPE) before the end: ") == true,
                "\(result.errorOutput)")
    }
}
