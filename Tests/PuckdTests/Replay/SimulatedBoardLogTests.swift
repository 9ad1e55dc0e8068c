@testable import Configuration
import CBundledData
import Glibc
@testable import Simulation
import Testing
import TestSupport
@testable import Puckd

/// The simulated receiver replays `[sim] gps_log` byte for byte: garbage and non-UTF-8 bytes between
/// sentences reach the framer as they are, and a log may be larger than a configuration file.
@Suite struct SimulatedBoardLogTests {
    @Test func aLargeLogWithNonUTF8GarbageIsReplayedByteForByte() throws {
        let drive = Array(UnsafeRawBufferPointer(start: bundled_drive_bytes(), count: bundled_drive_count()))
        let probe = try SimulatedDeviceHarness()
        defer { probe.removeDirectory() }
        let reference = probe.board.receiver.schedule.epochs
        let split = reference[60].start
        // 1.2 MB of line noise a bad cable could produce: bytes that are not UTF-8, ending in CR LF.
        var garbage = [UInt8](repeating: 0xFF, count: 1_200_000)
        for i in stride(from: 0, to: garbage.count, by: 3) { garbage[i] = 0x80 }
        garbage += [0x0D, 0x0A]
        let log = Array(drive[..<split]) + garbage + Array(drive[split...])
        let path = probe.directory + "/noisy.nmea"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        _ = log.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        defer { unlink(path) }

        let loaded = try ConfigurationSources(board: "sim", file: nil,
                                              overrides: ["sim.gps_log=" + path, "state.directory=" + probe.directory]).load()
        let board = try SimulatedBoard(configuration: loaded.configuration, startNanoseconds: 0)
        let epochs = board.receiver.schedule.epochs
        #expect(epochs.count == reference.count)
        // Every epoch after the noise sits exactly the noise's length further on: nothing was re-encoded.
        #expect(epochs.first { $0.start >= split }?.start == split + garbage.count)
        #expect(epochs.last?.end == reference.last!.end + garbage.count)
    }
}
