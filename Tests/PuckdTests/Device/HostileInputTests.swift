import Glibc
@testable import Simulation
import Testing
import TestSupport
@testable import Puckd

/// The four traps of the fault probe (arithmetic on input-derived numbers), each through the real
/// binary where the user met it: the process must end with an exit status and a sentence, never a
/// signal. Before the fixes each of these died with SIGTRAP (status 133) or SIGILL.
@Suite(.serialized) struct HostileInputTests {
    static let fusionHeader = "Time (s),Gyroscope X (deg/s),Gyroscope Y (deg/s),Gyroscope Z (deg/s),"
        + "Accelerometer X (g),Accelerometer Y (g),Accelerometer Z (g),"
        + "Magnetometer X (uT),Magnetometer Y (uT),Magnetometer Z (uT)"

    static func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        try #require(Fixtures.temporaryFile(named: name, contents: bytes))
    }

    static func csv(_ name: String, times: [String]) throws -> String {
        let rows = times.map { $0 + ",0,0,0,0,0,1,20,0,-40" }
        return try file(name, Array(([fusionHeader] + rows).joined(separator: "\n").utf8) + [10])
    }

    /// The temporary directory a test file was written to (the state goes there too).
    static func directory(of path: String) -> String { String(path[..<path.lastIndex(of: "/")!]) }

    static func puckd(_ arguments: [String]) throws -> ProcessResult {
        try #require(runProcess([PuckdProcess.binary] + puckdTestArguments(arguments)), "cannot start \(PuckdProcess.binary)")
    }

    /// gpsd's corpus logs, sorted by name, concatenated `times` times: dates from 1999 to 2026, time
    /// going back and forth between them.
    static func concatenatedCorpus(times: Int) throws -> [UInt8] {
        let logs = Fixtures.files(in: "nmea/gpsd", suffix: ".nmea")
        try #require(logs.count == 22)
        var all: [UInt8] = []
        for _ in 0..<times {
            for log in logs { all += try #require(Fixtures.bytes("nmea/gpsd/" + log)) }
        }
        return all
    }

    @Test func headingReplayOfATimeBeyondInt64() throws {
        for time in ["1e10", "-1e10"] {
            let path = try Self.csv("far-\(time).csv", times: ["0", time])
            let result = try Self.puckd(["heading", "replay", path])
            #expect(result.status == ExitStatus.dataError, "status \(result.status): \(result.errorOutput)")
            #expect(result.errorOutput.contains("line 3: the time \(time == "1e10" ? "10000000000.0" : "-10000000000.0") s is outside ±4e9 s"),
                    "\(result.errorOutput)")
        }
    }

    @Test func simulatedIMULogWithTimesBeyondInt64() throws {
        let path = try Self.csv("far-sim.csv", times: ["0", "1e10"])
        let result = try Self.puckd(["run", "--board", "sim", "--set", "sim.imu_log=" + path, "--set", "state.directory=" + Self.directory(of: path),
                                     "--console", "stdio"])
        #expect(result.status == ExitStatus.noInput, "status \(result.status): \(result.errorOutput)")
        #expect(result.errorOutput.contains(path + ":3: CSV line 3: the time 10000000000.0 s is outside ±4e9 s"))
    }

    /// Rows at −3.9e9 s and 3.9e9 s: each fits, the span (7.8e18 ns) does, but a lap (span + a period)
    /// did not (overflow in `SimulatedIMURecording.init`).
    @Test func simulatedIMULogSpanningMoreThanAYear() throws {
        let path = try Self.csv("span.csv", times: ["-3.9e9", "3.9e9"])
        let result = try Self.puckd(["run", "--board", "sim", "--set", "sim.imu_log=" + path, "--set", "state.directory=" + Self.directory(of: path),
                                     "--console", "stdio"])
        #expect(result.status == ExitStatus.noInput, "status \(result.status): \(result.errorOutput)")
        #expect(result.errorOutput.contains("a recording may span at most a year"), "\(result.errorOutput)")
    }

    /// `sim.gps_log` of the whole corpus: the compressed pauses summed past Int64
    /// (`removed += step - maximumGapNanoseconds` in `SimulatedReplaySchedule`).
    @Test func simulatedGPSLogOfConcatenatedLogs() throws {
        let path = try Self.file("corpus-x8.nmea", try Self.concatenatedCorpus(times: 8))
        let result = try Self.puckd(["run", "--board", "sim", "--set", "sim.gps_log=" + path, "--set", "state.directory=" + Self.directory(of: path),
                                     "--set", "sim.imu=none", "--console", "stdio"])
        #expect(result.status == ExitStatus.ok, "status \(result.status): \(result.errorOutput)")
        #expect(result.errorOutput.contains("pause(s) of the recording"), "\(result.errorOutput)")
    }

    /// The schedule alone, with the worst steps a log can give: ZDA dates alternating 1980 and 2200.
    @Test func replayScheduleOfDatesSwingingAcrossCenturies() throws {
        var text = ""
        for i in 0..<50 {
            let time = "12" + (i < 10 ? "000" : "00") + String(i) + ".00"        // a new epoch each (12:00:ss)
            let body = "GPZDA," + time + (i % 2 == 0 ? ",06,01,1980,00,00" : ",31,12,2200,00,00")
            var sum: UInt8 = 0
            for byte in body.utf8 { sum ^= byte }
            text += "$" + body + "*" + String(sum >> 4, radix: 16, uppercase: true)
                + String(sum & 15, radix: 16, uppercase: true) + "\r\n"
        }
        let schedule = Array(text.utf8).withUnsafeBytes {
            SimulatedReplaySchedule(log: $0, maximumGapNanoseconds: 2_000_000_000)
        }
        #expect(schedule.epochs.count == 50)
        #expect(schedule.compressedGapCount == 25)
        #expect(schedule.removedNanoseconds == Int64.max)            // saturated, said as such
        #expect(schedule.epochs.last!.offsetNanoseconds <= 49 * 2_000_000_000)
    }

    /// `puckd replay --track followWithCourse` of concatenated logs whose dates swing back and forth:
    /// the driver summed every backward jump (`offsetNanoseconds += last - logTime` in
    /// `ReplayDriver.schedule`) and trapped once the sum passed 292 years — here isync (2016, read as
    /// 2035 by the old 2017 floor) and skytraq (2022) alternating 32 times, 13.5 years back each time.
    @Test func trackedReplayOfConcatenatedLogs() throws {
        let isync = try #require(Fixtures.bytes("nmea/gpsd/isync.nmea"))
        let skytraq = try #require(Fixtures.bytes("nmea/gpsd/skytraq-PX1172RH_DS.nmea"))
        let path = try Self.file("swinging.nmea", Array([[UInt8]](repeating: isync + skytraq, count: 32).joined()))
        let result = try Self.puckd(["replay", path, "--track", "followWithCourse"])
        #expect(result.status == ExitStatus.ok, "status \(result.status): \(result.errorOutput.suffix(400))")
        #expect(result.output.contains(" 31 backward time jumps") || result.output.contains("backward time jumps"),
                "\(result.output.suffix(400))")
        let corpus = try Self.file("corpus-x2.nmea", try Self.concatenatedCorpus(times: 2))
        #expect(try Self.puckd(["replay", corpus, "--track", "followWithCourse"]).status == ExitStatus.ok)
    }
}
