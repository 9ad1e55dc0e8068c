import Testing
import Glibc
import TestSupport
import IMU
import Heading

/// `puckd heading replay`, run as a process on the fixtures.
@Suite struct HeadingCommandTests {
    /// The puckd executable built next to this test binary.
    static let puckd: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return String(exe[..<(exe.lastIndex(of: "/") ?? exe.endIndex)]) + "/puckd"
    }()

    static func fixtureFile(_ xz: String, name: String, lines: Int? = nil) throws -> String {
        var bytes = try #require(Fixtures.xzBytes(xz), "fixture \(xz) unreadable (is xz installed?)")
        if let lines {
            var seen = 0
            if let end = bytes.firstIndex(where: { b in
                if b == UInt8(ascii: "\n") { seen += 1 }
                return seen == lines
            }) { bytes = Array(bytes[...end]) }
        }
        return try #require(Fixtures.temporaryFile(named: name, contents: bytes))
    }

    static func replay(_ arguments: [String]) throws -> ProcessResult {
        #expect(access(puckd, X_OK) == 0, "build puckd first (swift build --build-tests builds it): \(puckd)")
        return try #require(runProcess([puckd, "heading", "replay"] + arguments))
    }

    @Test func replaysFusionExampleOneRowPerSample() throws {
        let file = try Self.fixtureFile("imu/fusion-example/sensor_data.csv.xz", name: "sensor_data.csv")
        let r = try Self.replay([file])
        #expect(r.status == 0, "\(r.errorOutput)")
        let lines = r.output.split(separator: "\n")
        #expect(lines.count == 13_515)
        #expect(lines.first == "time_s,qw,qx,qy,qz,heading_mag_deg,heading_accuracy_deg")
        #expect(r.errorOutput.contains("13514 samples (Fusion format), 0 bad lines"))
        // Same filter as in-process: the last row equals the estimator's state after the whole file.
        var estimator = HeadingEstimator(calibration: .identity)
        let bytes = try #require(Fixtures.xzBytes("imu/fusion-example/sensor_data.csv.xz"))
        let records = try bytes.withUnsafeBytes { raw throws(IMUCSVError) in try IMUCSVParser.parseAll(raw).1 }
        for record in records { estimator.update(record.sample) }
        let last = lines.last!.split(separator: ",").map { Double($0)! }
        let q = estimator.filter.orientation.canonical
        #expect(abs(last[0] - 135.327) < 0.001)
        #expect(abs(last[1] - q.w) < 1e-9 && abs(last[4] - q.z) < 1e-9)
        #expect(abs(last[5] - q.headingDegrees) < 1e-4)
        #expect(abs(last[6] - (estimator.headingAccuracyDegrees ?? -1)) < 1e-3)
        // Start-up rows are invalid (accuracy −1), later ones valid.
        #expect(lines[1].hasSuffix(",-1.000"))
        #expect(!lines[10_000].hasSuffix(",-1.000"))
    }

    @Test func replaysBROADWithSettings() throws {
        let file = try Self.fixtureFile("imu/broad/07_undisturbed_fast_rotation_B.csv.xz", name: "broad07.csv", lines: 3001)
        let plain = try Self.replay([file])
        #expect(plain.status == 0)
        #expect(plain.output.split(separator: "\n").count == 3001)
        #expect(plain.errorOutput.contains("3000 samples (BROAD format)"))
        let tuned = try Self.replay([file, "--config", "mag_noise=0.5", "--config=heading_filter_deg=2"])
        #expect(tuned.status == 0)
        #expect(tuned.output != plain.output)
    }

    @Test func unknownSettingIsAConfigurationError() throws {
        let file = try Self.fixtureFile("imu/fusion-example/sensor_data.csv.xz", name: "s.csv", lines: 10)
        let r = try Self.replay([file, "--config", "mag_gian=0.1"])
        #expect(r.status == 78)
        #expect(r.errorOutput.contains("unknown heading setting 'mag_gian'") && r.errorOutput.contains("mag_noise"))
        let bad = try Self.replay([file, "--config", "mag_noise=fast"])
        #expect(bad.status == 78 && bad.errorOutput.contains("needs a finite non-negative number"))
    }

    @Test func missingFileAndBadHeader() throws {
        let missing = try Self.replay(["/nonexistent/imu.csv"])
        #expect(missing.status == 66 && missing.errorOutput.contains("cannot open '/nonexistent/imu.csv'"))
        let file = try #require(Fixtures.temporaryFile(named: "bad.csv", contents: Array("a,b,c\n1,2,3\n".utf8)))
        let r = try Self.replay([file])
        #expect(r.status == 65 && r.errorOutput.contains("neither the BROAD format"))
        let usage = try #require(runProcess([Self.puckd, "heading"]))
        #expect(usage.status == 64)
    }

    /// A damaged line is reported and skipped; every other row is still replayed.
    @Test func badLineIsSkippedAndCounted() throws {
        let text = """
            Time (s),Gyroscope X (deg/s),Gyroscope Y (deg/s),Gyroscope Z (deg/s),Accelerometer X (g),Accelerometer Y (g),Accelerometer Z (g),Magnetometer X (uT),Magnetometer Y (uT),Magnetometer Z (uT)
            0,0,0,0,0,0,1,15,0,-41
            0.01,0,0,0,0,0,1,15,0,-41
            0.02,0,zero,0,0,0,1,15,0,-41
            0.03,0,0,0,0,0,1,15,0,-41

            """
        let file = try #require(Fixtures.temporaryFile(named: "damaged.csv", contents: Array(text.utf8)))
        let r = try Self.replay([file])
        #expect(r.status == 65)
        #expect(r.output.split(separator: "\n").count == 4)
        #expect(r.errorOutput.contains("line 4, column 3 is not a number"))
        #expect(r.errorOutput.contains("3 samples (Fusion format), 1 bad lines skipped"))
    }
}
