import Glibc
import Testing
import TestSupport

/// The service unit's sandbox keeps systemd's exposure score at or below 2.0 (a sandbox a user can trust; README:
/// 1.3 "OK" with systemd 252): `systemd-analyze security --offline=yes` on board/puckd.service, the
/// unit board/install.sh and the Debian package install. A change that loosens it (PrivateIPC off for
/// NTP shared memory, a wider ProtectSystem for chrony's sockets) must keep the score.
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
}
