import Glibc
import Testing
import TestSupport

/// Runs the `puckd` built next to these tests.
private func puckd(_ arguments: [String], input: [UInt8] = []) throws -> ProcessResult {
    try #require(access(puckdExecutable, X_OK) == 0, "build puckd first (swift build --build-tests)")
    return try #require(runProcess([puckdExecutable] + puckdTestArguments(arguments), input: input))
}

/// `board/install.sh` staged into a scratch `DESTDIR` (no users, services or udev touched) with the
/// `puckd` built next to these tests, and `puckd run --check`, which the installer runs on the
/// profile before installing anything.
@Suite(.serialized) struct InstallScriptTests {
    /// The repository (TestSupport's `RepositoryFiles.root`).
    static let repository: String = RepositoryFiles.root

    static func install(_ arguments: [String], destination: String, binary: String = puckdExecutable) throws -> ProcessResult {
        try #require(binary != puckdExecutable || access(binary, X_OK) == 0, "build puckd first (swift build --build-tests)")
        return try #require(runProcess(["/usr/bin/env", "DESTDIR=" + destination, "PUCKD=" + binary,
                                        "sh", repository + "/board/install.sh"] + arguments))
    }

    static func contents(_ path: String) -> String? {
        Fixtures.readFile(path).map { String(decoding: $0, as: UTF8.self) }
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    @Test func checkAcceptsEveryProfileAndRejectsABadValue() throws {
        for board in ["sim", "pi4-berrygps-imu-v4", "pi5-berrygps-imu-v4", "zero2w-berrygps-imu-v4",
                      "adafruit-ultimate-gps-hat", "sense-hat-usb-gps", "waveshare-l76x-hat", "hil"] {
            let r = try puckd(["run", "--config", Self.repository + "/board/" + board + ".conf", "--check"])
            #expect(r.status == 0, "\(board): \(r.errorOutput)")
            #expect(r.output.hasPrefix("puckd: configuration valid: "), "\(board)")
        }
        let bad = try puckd(["run", "--board", "pi4-berrygps-imu-v4", "--set", "gpio.button=99", "--check"])
        #expect(bad.status == 78)
        #expect(bad.errorOutput == "puckd: --set gpio.button=99: out of range, allowed 0…53 (BCM line offset) or none\n")
        let badSource = try puckd(["run", "--board", "pi4-berrygps-imu-v4", "--set", "gps.source=tcp://host", "--check"])
        #expect(badSource.status == 78)
        #expect(badSource.errorOutput.contains("has no port"))
        // --check opens nothing: a real board's profile is checked on a machine without its hardware.
        #expect(!bad.errorOutput.contains("gpio:") && !badSource.output.contains("imu:"))
    }

    @Test func stagesIdempotentlyKeepsAnEditedConfigurationAndUninstalls() throws {
        let root = SimulatedDeviceHarness.temporaryDirectory()
        defer { _ = runProcess(["rm", "-rf", root]) }
        let conf = root + "/etc/puckd.conf"

        let first = try Self.install(["pi4-berrygps-imu-v4"], destination: root)
        #expect(first.status == 0, "\(first.errorOutput)")
        for path in ["/usr/local/bin/puckd", "/etc/systemd/system/puckd.service", "/etc/udev/rules.d/99-puckd.rules",
                     "/usr/local/share/doc/puckd/README.md", "/etc/puckd.conf"] {
            #expect(Self.exists(root + path), "\(path)")
        }
        // Every document README links is installed beside it, at the same relative path.
        for document in Fixtures.files(in: "../../docs", suffix: ".md") {
            #expect(Self.contents(root + "/usr/local/share/doc/puckd/docs/" + document)
                == Self.contents(Self.repository + "/docs/" + document), "docs/\(document)")
        }
        #expect(Fixtures.files(in: "../../docs", suffix: ".md").contains("configuration.md"))
        #expect(access(root + "/usr/local/bin/puckd", X_OK) == 0)
        #expect(Self.contents(conf) == Self.contents(Self.repository + "/board/pi4-berrygps-imu-v4.conf"))
        #expect(first.output.contains("staged into " + root))

        let again = try Self.install(["pi4-berrygps-imu-v4"], destination: root)
        #expect(again.status == 0)
        #expect(again.output.contains("/etc/puckd.conf is already board/pi4-berrygps-imu-v4.conf"))
        #expect(!Self.exists(conf + ".new"))

        // An edited configuration is the user's: never overwritten, the profile goes next to it.
        let edited = (Self.contents(conf) ?? "") + "# edited by hand\n"
        let fd = open(conf, O_WRONLY | O_TRUNC | O_CLOEXEC)
        _ = Array(edited.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let update = try Self.install(["pi4-berrygps-imu-v4"], destination: root)
        #expect(update.status == 0)
        #expect(Self.contents(conf) == edited)
        #expect(Self.contents(conf + ".new") == Self.contents(Self.repository + "/board/pi4-berrygps-imu-v4.conf"))

        let remove = try Self.install(["--uninstall"], destination: root)
        #expect(remove.status == 0)
        #expect(!Self.exists(root + "/usr/local/bin/puckd") && !Self.exists(root + "/etc/systemd/system/puckd.service"))
        #expect(Self.exists(conf), "uninstall keeps the configuration")
        let purge = try Self.install(["--uninstall", "--purge"], destination: root)
        #expect(purge.status == 0)
        #expect(!Self.exists(conf) && !Self.exists(conf + ".new"))
    }

    /// PREFIX moves the binary and the documentation, and the installed unit starts that binary.
    @Test func prefixIsWhereTheUnitLooks() throws {
        let root = SimulatedDeviceHarness.temporaryDirectory()
        defer { _ = runProcess(["rm", "-rf", root]) }
        let staged = try #require(runProcess(["/usr/bin/env", "DESTDIR=" + root, "PREFIX=/opt/puckd", "PUCKD=" + puckdExecutable,
                                              "sh", Self.repository + "/board/install.sh", "pi4-berrygps-imu-v4"]))
        #expect(staged.status == 0, "\(staged.errorOutput)")
        #expect(access(root + "/opt/puckd/bin/puckd", X_OK) == 0 && Self.exists(root + "/opt/puckd/share/doc/puckd/README.md"))
        #expect(!Self.exists(root + "/usr/local/bin/puckd"))
        let unit = try #require(Self.contents(root + "/etc/systemd/system/puckd.service"))
        #expect(unit.contains("\nExecStart=/opt/puckd/bin/puckd run --config /etc/puckd.conf\n"))
        #expect(unit.contains("\nDocumentation=file:/opt/puckd/share/doc/puckd/README.md\n"))
        #expect(!unit.contains("/usr/local"))
        // The default keeps the unit as it is in board/.
        let plain = SimulatedDeviceHarness.temporaryDirectory()
        defer { _ = runProcess(["rm", "-rf", plain]) }
        #expect(try Self.install(["sim"], destination: plain).status == 0)
        #expect(Self.contents(plain + "/etc/systemd/system/puckd.service") == Self.contents(Self.repository + "/board/puckd.service"))
    }

    /// A bad configuration must not restart-loop: exit status 78 (EX_CONFIG) stops the unit for good.
    @Test func unitDoesNotRestartOnAConfigurationError() throws {
        let unit = try #require(Self.contents(Self.repository + "/board/puckd.service"))
        #expect(unit.contains("\nRestart=on-failure\n") && unit.contains("\nRestartPreventExitStatus=78\n"))
        let bad = try puckd(["run", "--board", "pi4-berrygps-imu-v4", "--set", "gpio.button=99"])
        #expect(bad.status == 78)
    }

    @Test func refusesUnknownBoardsAndAMissingBinary() throws {
        let root = SimulatedDeviceHarness.temporaryDirectory()
        defer { _ = runProcess(["rm", "-rf", root]) }
        let unknown = try Self.install(["pi9-imaginary"], destination: root)
        #expect(unknown.status != 0)
        #expect(unknown.errorOutput.contains("no profile board/pi9-imaginary.conf (boards: "))
        let missing = try Self.install(["sim"], destination: root, binary: root + "/no-such-puckd")
        #expect(missing.status != 0)
        #expect(missing.errorOutput.contains("run 'make build' first"))
        #expect(!Self.exists(root + "/etc/puckd.conf"), "nothing is installed when the binary is missing")
    }
}
