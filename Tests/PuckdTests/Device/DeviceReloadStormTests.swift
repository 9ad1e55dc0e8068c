import Glibc
import Testing
import TestSupport
@testable import Puckd

/// SIGHUP storms are coalesced (one reload per second, the merged count said), and the state file's
/// failures speak words and set the exit status.
@Suite struct DeviceReloadStormTests {
    static func harnessWithFile() throws -> (SimulatedDeviceHarness, String) {
        let (directory, path) = ConfigurationFileTests.configFile("[tracking]\nfollow_zoom = 15\n")
        return (try SimulatedDeviceHarness(directory: directory, configFile: path), path)
    }

    /// Before: every SIGHUP re-read and re-validated the files, so a storm kept the loop busy reloading.
    @Test func aStormOfSIGHUPsIsOneReloadPerSecond() throws {
        let (h, path) = try Self.harnessWithFile()
        defer { unlink(path); h.removeDirectory() }
        for _ in 0..<10 { h.device.requestReload() }
        h.advance(by: 1_000_000)
        #expect(h.device.counters.reloads == 1)
        #expect(h.output.contains("(10 SIGHUPs merged into this reload)"))
        // 50 more during the next 0.5 s: none runs before the second is over, then one for all of them.
        for _ in 0..<50 {
            h.device.requestReload()
            h.advance(by: 10_000_000)
        }
        #expect(h.device.counters.reloads == 1)
        h.advance(by: 600_000_000)
        #expect(h.device.counters.reloads == 2 && h.device.counters.reloadRequests == 60)
        #expect(h.output.contains("(50 SIGHUPs merged into this reload)"))
        // A lone SIGHUP later is served at once and says nothing about merging.
        h.advance(by: 2_000_000_000)
        h.device.requestReload()
        h.advance(by: 1_000_000)
        #expect(h.device.counters.reloads == 3)
        let last = h.output.split(separator: "\n").last { $0.contains("config: reloaded") } ?? ""
        #expect(!last.contains("merged"))
    }

    /// A failing state write logged "(errno 21)"; the final save failing still exited 0.
    @Test func stateFailuresSpeakWordsAndSetTheExitStatus() throws {
        let h = try SimulatedDeviceHarness()
        defer { rmdir(h.directory + "/state.tmp"); h.removeDirectory() }
        try #require(mkdir(h.directory + "/state.tmp", 0o700) == 0)          // the temporary file cannot be created
        _ = h.device.core.setTrackingMode(.followWithCourse, animated: false, atNanoseconds: h.now)
        h.device.persistence.dirty = true
        h.advance(by: 100_000_000)
        #expect(h.output.contains("state: writing the state file failed (Is a directory (EISDIR)); keeping the state "
            + "in memory and retrying"), "\(h.output)")
        let status = h.device.shutdown(nowNanoseconds: h.now)
        #expect(status == ExitStatus.stateNotSaved)
        #expect(h.output.contains("saving the state to " + h.directory + "/state failed (Is a directory (EISDIR)): the "
            + "changes since the last save are lost; exit status 74"))
    }
}
