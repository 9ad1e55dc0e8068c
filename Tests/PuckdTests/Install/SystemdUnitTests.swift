import Glibc
import Testing
import TestSupport

/// The service unit's sandbox keeps systemd's exposure score at or below 2.0 (a sandbox a user can trust; README:
/// 1.3 "OK" with systemd 252): `systemd-analyze security --offline=yes` on board/puckd.service, the
/// unit board/install.sh and the Debian package install, alone and with each chrony drop-in of
/// board/puckd.service.d/ (docs/gpsd-protocol.md §7.3), which `systemd-analyze verify` parses cleanly.
@Suite struct SystemdUnitTests {
    static let analyzer: String? = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first { (path: String) in access(path, X_OK) == 0 }

    @Test(.enabled(if: analyzer != nil, "systemd-analyze (Debian systemd; make test installs it)"))
    func theExposureScoreStaysAtOrBelowTwo() throws {
        let unit = RepositoryFiles.root + "/board/puckd.service"
        let result = try #require(runProcess([Self.analyzer!, "security", "--offline=yes", unit]))
        let text = String(decoding: result.standardOutput + result.standardError, as: UTF8.self)
        let line = try #require(text.split(separator: "\n").first { $0.contains("Overall exposure level for puckd.service:") },
                                "\(text)")
        let words = line.split(separator: " ")
        let index = try #require(words.firstIndex { $0.hasSuffix("puckd.service:") })
        let score = try #require(Double(words[index + 1]), "\(line)")
        #expect(score <= 2.0, "\(line)")
        #expect(score > 0, "\(line)")
    }

    /// A root with the unit in etc/systemd/system and `dropIns` in its puckd.service.d.
    static func root(dropIns: [String]) -> String {
        let dir = SimulatedDropInRoot.make()
        _ = runProcess(["mkdir", "-p", dir + "/etc/systemd/system/puckd.service.d"])
        _ = runProcess(["cp", RepositoryFiles.root + "/board/puckd.service", dir + "/etc/systemd/system/"])
        for d in dropIns {
            _ = runProcess(["cp", RepositoryFiles.root + "/board/puckd.service.d/" + d, dir + "/etc/systemd/system/puckd.service.d/"])
        }
        return dir
    }

    static func analyze(_ arguments: [String]) throws -> String {
        let result = try #require(runProcess([analyzer!] + arguments))
        return String(decoding: result.standardOutput + result.standardError, as: UTF8.self)
    }

    @Test(.enabled(if: analyzer != nil, "systemd-analyze (Debian systemd; make test installs it)"),
          arguments: ["chrony-sock.conf", "ntp-shm.conf"])
    func eachChronyDropInParsesAndKeepsTheScore(dropIn: String) throws {
        let root = Self.root(dropIns: [dropIn])
        defer { _ = runProcess(["rm", "-rf", root]) }
        // verify: no line about the unit's or the drop-in's own text (unknown key, bad value); a root
        // without sysinit.target or /usr/local/bin/puckd says so in lines naming neither file.
        let verify = try Self.analyze(["verify", "--root=" + root, "puckd.service"])
        let problems = verify.split(separator: "\n").filter { $0.contains(".conf:") || $0.contains("puckd.service:") && $0.contains("line") || $0.contains("Unknown") || $0.contains("Failed to parse") }
        #expect(problems.isEmpty, "\(verify)")
        let security = try Self.analyze(["security", "--offline=yes", "--root=" + root, "puckd.service"])
        let line = try #require(security.split(separator: "\n").first { $0.contains("Overall exposure level for puckd.service:") }, "\(security)")
        let words = line.split(separator: " ")
        let index = try #require(words.firstIndex { $0.hasSuffix("puckd.service:") })
        let score = try #require(Double(words[index + 1]), "\(line)")
        #expect(score <= 2.0, "\(line)")
        // The drop-in took effect: the SHM one lets the user's IPC objects outlive the service.
        let removeIPC = try #require(security.split(separator: "\n").first { $0.contains("RemoveIPC=") }, "\(security)")
        #expect(removeIPC.contains("✗") == (dropIn == "ntp-shm.conf"), "\(removeIPC)")
    }

    @Test func theShippedUnitKeepsItsPrivateIPCAndNamesNoChronyGroup() throws {
        let unit = try #require(Fixtures.readFile(RepositoryFiles.root + "/board/puckd.service").map { String(decoding: $0, as: UTF8.self) })
        let lines = unit.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.contains("PrivateIPC=yes") && lines.contains("RemoveIPC=yes"))
        #expect(!lines.contains { $0.contains("_chrony") || $0.contains("/run/chrony") }, "a missing group would fail the start (216/GROUP)")
        let shm = try #require(Fixtures.readFile(RepositoryFiles.root + "/board/puckd.service.d/ntp-shm.conf").map { String(decoding: $0, as: UTF8.self) })
        #expect(shm.contains("\nPrivateIPC=no\n") && shm.contains("\nRemoveIPC=no\n"))
        let sock = try #require(Fixtures.readFile(RepositoryFiles.root + "/board/puckd.service.d/chrony-sock.conf").map { String(decoding: $0, as: UTF8.self) })
        #expect(sock.contains("\nSupplementaryGroups=_chrony\n") && !sock.contains("\nReadWritePaths"))
    }
}

/// A scratch root directory for `systemd-analyze --root`.
enum SimulatedDropInRoot {
    static func make() -> String {
        var template = Array("/tmp/puckd-unit-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }
}
