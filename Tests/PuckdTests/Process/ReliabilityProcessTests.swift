import Glibc
import Testing
import TestSupport
@testable import Puckd

/// The device process against the faults of the probe that only show from outside: a SIGHUP storm,
/// a final state save that fails, a device-shaping key typed on the console.
@Suite(.serialized) struct ReliabilityProcessTests {
    static func scratch() -> String {
        var template = Array("/tmp/puckd-reliability-XXXXXX".utf8CString)
        return String(cString: template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }!)
    }

    static func write(_ path: String, _ text: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        _ = Array(text.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// 30 SIGHUPs 10 ms apart: before, a reload for each one the loop saw (re-reading and re-validating
    /// the files every time); now one at once and one a second later that says how many it served.
    @Test(.timeLimit(.minutes(1))) func aSIGHUPStormIsTwoReloads() throws {
        let dir = Self.scratch()
        let config = dir + "/puckd.conf"
        Self.write(config, "[tracking]\nfollow_zoom = 15\n")
        let p = try #require(PuckdProcess(["run", "--board", "sim", "--config", config, "--console", "stdio",
                                           "--set", "state.directory=" + dir]))
        #expect(p.waitUntil(seconds: 20) { _ in p.errorOutput.contains("degraded") })
        for _ in 0..<30 {
            p.signal(SIGHUP)
            usleep(10_000)
        }
        #expect(p.waitUntil(seconds: 10) { _ in p.errorOutput.contains("SIGHUPs merged into this reload") })
        usleep(1_500_000)
        _ = p.waitUntil(seconds: 0.5) { _ in false }
        let reloads = p.errorOutput.split(separator: "\n").filter { $0.contains("config: reloaded") }
        // The kernel itself merges a SIGHUP that arrives while one is pending, so the second reload
        // serves "up to 29" (21 under ThreadSanitizer's slower loop).
        #expect(reloads.count == 2, "\(reloads)")
        #expect(reloads.last?.contains(" SIGHUPs merged into this reload)") == true, "\(reloads)")
        p.closeInput()
        #expect(p.waitForExit(seconds: 10) == 0)
    }

    /// Before: "saving the state … failed" and exit status 0.
    @Test(.timeLimit(.minutes(1))) func aFailedFinalStateSaveIsExitStatus74() throws {
        let dir = Self.scratch()
        try #require(mkdir(dir + "/state.tmp", 0o700) == 0)              // the temporary file cannot be made
        let result = try #require(runProcess([PuckdProcess.binary, "run", "--board", "sim", "--console", "stdio",
                                              "--set", "state.directory=" + dir], input: Array("mode next\n".utf8)))
        #expect(result.status == ExitStatus.stateNotSaved, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("saving the state to " + dir + "/state failed (Is a directory (EISDIR))"))
    }

    /// Before: `config state.directory /etc` and `config save` were accepted from any console.
    @Test(.timeLimit(.minutes(1))) func theConsoleCannotMoveTheStateDirectory() throws {
        let dir = Self.scratch()
        let config = dir + "/puckd.conf"
        Self.write(config, "[board]\nname = mine\n")
        let result = try #require(runProcess([PuckdProcess.binary, "run", "--board", "sim", "--config", config,
                                              "--console", "stdio", "--set", "state.directory=" + dir],
                                             input: Array("config state.directory /etc\nconfig save\n".utf8)))
        #expect(result.status == 0)
        #expect(result.output.contains("config: [state] directory shapes the device"), "\(result.output)")
        #expect(String(decoding: Fixtures.readFile(config) ?? [], as: UTF8.self) == "[board]\nname = mine\n")
    }
}
