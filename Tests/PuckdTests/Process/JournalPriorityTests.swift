import Glibc
import Testing
import TestSupport

/// Under systemd, standard output and error are the journal's stream and $JOURNAL_STREAM names it
/// ("DEVICE:INODE"): then every log line starts with its syslog priority (`<3>` error, `<4>` warning,
/// `<6>` info), so `journalctl -u puckd -p err` shows the errors, and lines without a journal get none.
/// Here the "journal" is a file the process writes to, named by $JOURNAL_STREAM as systemd would.
@Suite struct JournalPriorityTests {
    /// Runs `puckd ARGUMENTS >FILE 2>&1` with JOURNAL_STREAM naming FILE (or not), until `until` shows up
    /// in the file (then SIGTERM) or it exits. Returns the file's lines and the exit status.
    static func run(_ arguments: [String], journal: Bool, until: String? = nil) throws -> (lines: [String], status: Int32?) {
        let dir = SimulatedDeviceHarness.temporaryDirectory()
        defer { _ = runProcess(["rm", "-rf", dir]) }
        let file = dir + "/journal"
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        var info = stat()
        fstat(fd, &info)
        close(fd)
        let environment = journal ? ["JOURNAL_STREAM=\(info.st_dev):\(info.st_ino)"] : []
        let script = "f=$1; shift; exec \"$@\" >>\"$f\" 2>&1"
        let process = try #require(PuckdProcess(["-c", script, "sh", file, PuckdProcess.binary] + puckdTestArguments(arguments),
                                                executable: "/bin/sh", environment: environment, standardInputNull: true))
        func text() -> String { runProcess(["cat", file])?.output ?? "" }
        if let until {
            let deadline = PuckdProcess.now() + 30
            while !text().contains(until) && PuckdProcess.now() < deadline && process.waitForExit(seconds: 0.1) == nil {}
            process.signal(SIGTERM)
        }
        let status = process.waitForExit(seconds: 30)
        return (text().split(separator: "\n").map(String.init), status)
    }

    @Test func linesCarryTheirPriorityOnTheJournal() throws {
        let (lines, status) = try Self.run(["run", "--board", "sim", "--console", "none", "--set", "console.status_interval_s=0",
                                            "--set", "pps.device=/dev/nonexistent-pps"],
                                           journal: true, until: "faults: ")
        #expect(status == 0)
        #expect(lines.contains { $0.hasPrefix("<6>puckd: gpio: simulated chip") })
        #expect(lines.contains { $0.hasPrefix("<4>puckd: degraded: no PPS: PPS device: /dev/nonexistent-pps does not exist") })
        #expect(lines.contains { $0.hasPrefix("<4>puckd: faults: pps (new: pps)") })
        #expect(lines.contains { $0.hasPrefix("<6>puckd: stopped by SIGTERM") })
        #expect(lines.contains { $0.hasPrefix("<6>status ") })           // the status line too
        for line in lines {
            #expect(["<3>puckd: ", "<4>puckd: ", "<6>puckd: ", "<6>status "].contains { line.hasPrefix($0) }, "\(line)")
        }
    }

    @Test func aConfigurationErrorIsAnErrorOnTheJournal() throws {
        let (lines, status) = try Self.run(["run", "--board", "pi4-berrygps-imu-v4", "--set", "gpio.button=99"], journal: true)
        #expect(status == 78)
        #expect(lines == ["<3>puckd: --set gpio.button=99: out of range, allowed 0…53 (BCM line offset) or none"])
    }

    @Test func noPrefixesWithoutTheJournal() throws {
        let (lines, status) = try Self.run(["run", "--board", "pi4-berrygps-imu-v4", "--set", "gpio.button=99"], journal: false)
        #expect(status == 78)
        #expect(lines == ["puckd: --set gpio.button=99: out of range, allowed 0…53 (BCM line offset) or none"])
        let (simLines, _) = try Self.run(["run", "--board", "sim", "--console", "none", "--set", "console.status_interval_s=0"],
                                         journal: false, until: "degraded: ")
        #expect(!simLines.isEmpty && simLines.allSatisfy { $0.hasPrefix("puckd: ") || $0.hasPrefix("status ") }, "\(simLines)")
    }
}
