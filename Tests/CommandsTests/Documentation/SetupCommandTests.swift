import Configuration
import Glibc
import Testing
import TestSupport
@testable import Commands
@testable import Puckd

/// `puckd setup` as a user runs it after installing the package: the built binary on a scratch
/// configuration file (`--config`), its exit status, its messages and the file it leaves.
@Suite struct SetupCommandTests {
    static let template = "# no board chosen yet: sudo puckd setup BOARD\n"

    func puckd(_ arguments: String...) throws -> ProcessResult {
        try #require(access(GPIOCommandTests.binary, X_OK) == 0, "build puckd first: \(GPIOCommandTests.binary)")
        return try #require(runProcess([GPIOCommandTests.binary] + arguments))
    }

    static func contents(_ path: String) -> String? {
        Fixtures.readFile(path).map { String(decoding: $0, as: UTF8.self) }
    }

    static func scratch(_ text: String?) throws -> (directory: String, file: String) {
        let directory = Fixtures.temporaryDirectory(prefix: "puckd-setup")
        chmod(directory, 0o755)
        let file = directory + "/puckd.conf"
        if let text { try ConfigurationFileWriter.write(text, to: file) }
        return (directory, file)
    }

    @Test func conditionSkipsAFileWithoutABoardAndSaysWhatToRun() throws {
        let (directory, file) = try Self.scratch(Self.template)
        defer { _ = runProcess(["rm", "-rf", directory]) }
        let skipped = try puckd("setup", "--condition", "--config", file)
        #expect(skipped.status == ExitStatus.failure)
        #expect(skipped.errorOutput.contains("chooses no board yet"))
        #expect(skipped.errorOutput.contains("sudo puckd setup BOARD --config " + file))
        for name in BoardProfiles.names { #expect(skipped.errorOutput.contains(name)) }
        // The device itself refuses the same file with the same advice.
        let run = try puckd("run", "--config", file, "--check")
        #expect(run.status == ExitStatus.config && run.errorOutput.contains("sudo puckd setup BOARD"))
        unlink(file)
        let missing = try puckd("setup", "--condition", "--config", file)
        #expect(missing.status == ExitStatus.failure && missing.errorOutput.contains("does not exist"))
    }

    @Test func setupWritesTheProfileChecksItAndThenTheConditionPasses() throws {
        let (directory, file) = try Self.scratch(Self.template)
        defer { _ = runProcess(["rm", "-rf", directory]) }
        let setup = try puckd("setup", "pi4-berrygps-imu-v4", "--config", file)
        #expect(setup.status == ExitStatus.ok, "\(setup.errorOutput)")
        #expect(Self.contents(file) == BoardProfiles.builtIn("pi4-berrygps-imu-v4"))
        #expect(setup.output.contains("configuration valid: " + file), "setup runs the check of puckd run --check")
        #expect(setup.output.contains("sudo systemctl restart puckd"))
        var info = stat()
        #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o644)
        #expect(try puckd("setup", "--condition", "--config", file).status == ExitStatus.ok)
        // The listing marks the chosen profile; choosing it again writes nothing.
        let list = try puckd("setup", "--config", file)
        let marked = list.output.split(separator: "\n").filter { $0.hasSuffix("(" + file + " is this profile)") }
        #expect(marked.count == 1 && marked[0].hasPrefix("  pi4-berrygps-imu-v4 ") && marked[0].contains("Raspberry Pi 4 + BerryGPS-IMU v4"))
        #expect(try puckd("setup", "pi4-berrygps-imu-v4", "--config", file).output.contains("nothing written"))
        // Another unedited profile replaces it without --force.
        #expect(try puckd("setup", "pi5-berrygps-imu-v4", "--config", file).status == ExitStatus.ok)
        #expect(Self.contents(file) == BoardProfiles.builtIn("pi5-berrygps-imu-v4"))
        #expect(access(file + ".old", F_OK) != 0)
    }

    @Test func anEditedFileIsReplacedOnlyWithForceAndKept() throws {
        let edited = (BoardProfiles.builtIn("pi4-berrygps-imu-v4") ?? "") + "\n[console]\nstatus_interval_s = 5\n"
        let (directory, file) = try Self.scratch(edited)
        defer { _ = runProcess(["rm", "-rf", directory]) }
        let refused = try puckd("setup", "sim", "--config", file)
        #expect(refused.status == ExitStatus.config && refused.errorOutput.contains("--force"))
        #expect(Self.contents(file) == edited, "the edited file is untouched")
        let forced = try puckd("setup", "sim", "--config", file, "--force")
        #expect(forced.status == ExitStatus.ok, "\(forced.errorOutput)")
        #expect(Self.contents(file) == BoardProfiles.builtIn("sim") && Self.contents(file + ".old") == edited)
        // The condition lets a file of one's own through, and one that does not load too (run says why).
        #expect(try puckd("setup", "--condition", "--config", file + ".old").status == ExitStatus.ok)
        try ConfigurationFileWriter.write("[gpio]\nbutton = 99\n", to: file)
        #expect(try puckd("setup", "--condition", "--config", file).status == ExitStatus.ok)
    }

    @Test func wrongUse() throws {
        let unknown = try puckd("setup", "pi9-imaginary", "--config", "/nonexistent/puckd.conf")
        #expect(unknown.status == ExitStatus.usage && unknown.errorOutput.contains("no board profile 'pi9-imaginary'"))
        #expect(try puckd("setup", "sim", "hil").status == ExitStatus.usage)
        #expect(try puckd("setup", "--condition", "sim").status == ExitStatus.usage)
        let unwritable = try puckd("setup", "sim", "--config", "/nonexistent/puckd.conf")
        #expect(unwritable.status != ExitStatus.ok && unwritable.errorOutput.contains("/nonexistent/puckd.conf"))
    }
}
