@testable import Configuration
import Glibc
import Hardware
import Heading
import IMU
@testable import Puckd
@testable import Simulation
import TestSupport
import Testing

/// `[sim] imu_log`: a recorded IMU (here the x-io Fusion example) replayed by the simulated chips, in
/// process with a synthetic clock: units, pace, looping, the chips' registers, the device's heading
/// against the heading filter run directly on the recording, and the start-up errors.
@Suite struct SimulatedIMURecordingTests {
    /// A small recording in `directory`: header + `rows`.
    static func writeCSV(_ h: SimulatedDeviceHarness, _ name: String, _ rows: [String],
                         header: String = "Time (s),Gyroscope X (deg/s),Gyroscope Y (deg/s),Gyroscope Z (deg/s),"
                            + "Accelerometer X (g),Accelerometer Y (g),Accelerometer Z (g),"
                            + "Magnetometer X (uT),Magnetometer Y (uT),Magnetometer Z (uT)") -> String {
        h.writeFile(name, ([header] + rows).joined(separator: "\n") + "\n")
    }

    static func loadError(_ path: String) -> String? {
        do throws(SimulatedIMURecordingError) {
            _ = try SimulatedIMURecording.load(path: path, startNanoseconds: 0, loop: true)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func fusionRowsBecomeSISamplesAsInHeadingReplay() throws {
        let file = try RecordedIMUFixture()
        let r = try SimulatedIMURecording.load(path: file.path, startNanoseconds: 5_000_000_000, loop: true)
        #expect(r.format == .fusion)
        #expect(r.sampleCount == 13_514)
        #expect(r.durationNanoseconds == 135_326_642_000)
        #expect(r.lapNanoseconds == r.durationNanoseconds + r.durationNanoseconds / 13_513)
        // Row 1: 0,0.01644619,-0.1517251,0.1080897,0.001015204,-0.02045836,0.9970807,15.3017,0.4328527,-41.06483
        let first = r.sample(0)
        #expect(first.timestampNanoseconds == 0)
        #expect(abs(first.gyroRadiansPerSecond.x - 0.01644619 * Double.pi / 180) < 1e-15)
        #expect(abs(first.accelerationMetersPerSecondSquared.z - 0.9970807 * 9.80665) < 1e-12)
        #expect(first.magneticFieldMicrotesla == Vector3(15.3017, 0.4328527, -41.06483))
        // Every row as `puckd heading replay` reads it (same parser, same units).
        let bytes = try #require(Fixtures.readFile(file.path))
        let records = try bytes.withUnsafeBytes { raw throws(IMUCSVError) in try IMUCSVParser.parseAll(raw).1 }
        #expect(records.count == r.sampleCount)
        for i in stride(from: 0, to: records.count, by: 97) {
            var expected = records[i].sample
            expected.timestampNanoseconds = r.sample(i).timestampNanoseconds
            #expect(r.sample(i) == expected)
            #expect(abs(Double(r.sample(i).timestampNanoseconds) / 1e9 - records[i].timeSeconds) < 1e-9)
        }
        #expect(r.summary.hasPrefix(file.path + ": 13514 samples over 135.3 s (99.9 Hz mean), x-io Fusion CSV"))
    }

    @Test func rowsArePresentedAtRecordedPaceAndLoopOrStop() throws {
        let h = try SimulatedDeviceHarness()
        defer { h.removeDirectory() }
        let path = Self.writeCSV(h, "three.csv", ["10.00,1,0,0,0,0,1,20,0,-40", "10.01,2,0,0,0,0,1,20,0,-40",
                                                   "10.02,3,0,0,0,0,1,20,0,-40"])
        let start: Int64 = 1_000_000_000
        let imu = SimulatedIMU(board: .berryIMUv3)
        let looping = try SimulatedIMURecording.load(path: path, startNanoseconds: start, loop: true)
        #expect(looping.durationNanoseconds == 20_000_000 && looping.lapNanoseconds == 30_000_000)
        looping.present(upToNanoseconds: start - 1, to: imu)
        #expect(looping.presentedCount == 0)
        looping.present(upToNanoseconds: start, to: imu)
        #expect(looping.presentedCount == 1)
        looping.present(upToNanoseconds: start + 29_999_999, to: imu)
        #expect(looping.presentedCount == 3 && looping.lapCount == 0)
        looping.present(upToNanoseconds: start + 30_000_000, to: imu)
        #expect(looping.presentedCount == 4 && looping.lapCount == 1)
        #expect(looping.recordingSeconds(atNanoseconds: start + 41_000_000) == 0.011)
        // After a long stall whole laps are skipped, not presented one by one.
        looping.present(upToNanoseconds: start + 60_000_000_000, to: imu)
        #expect(looping.presentedCount == 8 && looping.lapCount == 2000)

        let once = try SimulatedIMURecording.load(path: path, startNanoseconds: start, loop: false)
        once.present(upToNanoseconds: start + 60_000_000_000, to: imu)
        #expect(once.presentedCount == 3 && once.lapCount == 0)
        #expect(once.recordingSeconds(atNanoseconds: start + 20_000_000) == 0.02)
        #expect(once.recordingSeconds(atNanoseconds: start + 20_000_001) == nil)
    }

    /// The device on the simulated board with the Fusion recording: the chips carry every row, the
    /// registers hold the last row quantised to the chip's scale, and the device's heading, roll and
    /// pitch are the heading filter's on the recording at the same recording time, still after a lap.
    @Test func deviceHeadingIsTheRecordingsThroughTheChips() throws {
        let file = try RecordedIMUFixture()
        let h = try SimulatedDeviceHarness(overrides: ["sim.imu_log=" + file.path])
        defer { h.removeDirectory() }
        let recording = try #require(h.board.imuRecording)
        let imu = try #require(h.board.imu)
        let start = recording.startNanoseconds

        // The reference: the heading filter run directly on the rows (what `puckd heading replay` prints).
        let bytes = try #require(Fixtures.readFile(file.path))
        let records = try bytes.withUnsafeBytes { raw throws(IMUCSVError) in try IMUCSVParser.parseAll(raw).1 }
        var estimator = HeadingEstimator(calibration: .identity)
        var reference: [RecordedIMUFixture.Reference] = []
        for record in records {
            estimator.update(record.sample)
            let q = estimator.filter.orientation
            reference.append(.init(timeSeconds: record.timeSeconds, magneticHeadingDegrees: q.headingDegrees,
                                   rollDegrees: q.rollDegrees, pitchDegrees: q.pitchDegrees))
        }

        func check(atRecordingSeconds seconds: Double, lap: Int) throws {
            h.advance(by: start + recording.lapNanoseconds * Int64(lap) + Int64(seconds * 1e9) - h.now)
            let e = h.device.imuLink.heading.current
            let t = Double(e.timestampNanoseconds - start - recording.lapNanoseconds * Int64(lap)) / 1e9
            let near = RecordedIMUFixture.window(reference, from: t - 0.03, to: t)
            let heading = near.map { RecordedIMUFixture.angleDifference($0.magneticHeadingDegrees, e.magneticHeadingDegrees) }.min() ?? 999
            let roll = near.map { abs($0.rollDegrees - e.rollDegrees) }.min() ?? 999
            let pitch = near.map { abs($0.pitchDegrees - e.pitchDegrees) }.min() ?? 999
            #expect(heading < 1.5 && roll < 1.5 && pitch < 8,
                    "lap \(lap) at \(t) s: device \(e.magneticHeadingDegrees)° roll \(e.rollDegrees)° pitch \(e.pitchDegrees)°, off by \(heading)°, \(roll)°, \(pitch)°")
        }
        try check(atRecordingSeconds: 10, lap: 0)
        // Every row so far reached the chips; the last one sits in the LSM6DSL's registers, quantised
        // to its ±2000 dps (70 mdps/LSB) and ±4 g (0.122 mg/LSB) scales.
        let n = recording.presentedCount
        try #require(n > 0, "no recorded row reached the chips")
        #expect(records[n - 1].timeSeconds <= 10 && records[n].timeSeconds > 9.98)
        // (Row 0, due at start-up, came before the driver had configured the chip: not converting yet.)
        #expect(imu.primary.samplesPresented >= recording.presentedCount - 1)
        let last = records[recording.presentedCount - 1].sample
        func raw(_ register: UInt8) -> Double {
            Double(Int16(bitPattern: UInt16(imu.primary.peek(register)) | UInt16(imu.primary.peek(register + 1)) << 8))
        }
        #expect(abs(raw(0x22) * 0.070 - last.gyroRadiansPerSecond.x * 180 / Double.pi) <= 0.035)
        #expect(abs(raw(0x2C) * 0.000122 * 9.80665 - last.accelerationMetersPerSecondSquared.z) <= 0.000061 * 9.80665)

        try check(atRecordingSeconds: 17.5, lap: 0)       // rolled right side down ≈ 62°
        try check(atRecordingSeconds: 22.5, lap: 0)       // rolled the other way ≈ −52°
        try check(atRecordingSeconds: 17.5, lap: 1)       // the same, one lap (135.3 s) later
        #expect(recording.lapCount == 1)
        #expect(abs(h.device.imuLink.heading.current.rollDegrees - 62) < 3)
    }

    @Test func badRecordingsAreStartUpErrorsNamingFileAndLine() throws {
        let h = try SimulatedDeviceHarness()
        defer { h.removeDirectory() }
        let good = "0.00,0,0,0,0,0,1,20,0,-40"
        let badNumber = Self.writeCSV(h, "bad.csv", [good, "0.01,0,0,0,0,0,1,20,0,-40", "0.02,zero,0,0,0,0,1,20,0,-40"])
        #expect(Self.loadError(badNumber) == badNumber + ":4: CSV line 4, column 2 is not a number: fix the value "
            + "(NaN is accepted only for reference and magnetometer columns)")
        let short = Self.writeCSV(h, "short.csv", [good, "0.01,0,0"])
        #expect(Self.loadError(short)?.hasPrefix(short + ":3: CSV line 3 has 3 fields, the header has 10") == true)
        let header = Self.writeCSV(h, "header.csv", [good], header: "t,gx,gy,gz")
        #expect(Self.loadError(header)?.hasPrefix(header + ":1: CSV header is neither the BROAD format") == true)
        let backwards = Self.writeCSV(h, "backwards.csv", [good, "0.02,0,0,0,0,0,1,20,0,-40", "0.01,0,0,0,0,0,1,20,0,-40"])
        #expect(Self.loadError(backwards) == backwards + ":4: the time 0.01 s is not after the previous row's 0.02 s: "
            + "sort the rows by time and remove repeated rows")
        let empty = h.writeFile("empty.csv", "")
        #expect(Self.loadError(empty) == empty + " is empty: give a BROAD or x-io Fusion IMU CSV file")
        let headerOnly = Self.writeCSV(h, "header-only.csv", [])
        #expect(Self.loadError(headerOnly)?.hasSuffix("has a header but no sample rows: give a recording with at least one row") == true)
        let compressed = Fixtures.path(RecordedIMUFixture.fixture)
        #expect(Self.loadError(compressed) == "the IMU log " + compressed + " is xz-compressed: decompress it first (xz -dk "
            + compressed + ") and give the .csv file")
        #expect(Self.loadError(h.directory + "/missing.csv")?.hasPrefix("cannot open the IMU log " + h.directory
            + "/missing.csv (No such file or directory): check [sim] imu_log") == true)
        #expect(Self.loadError(h.directory)?.hasSuffix("is not a regular file: give the path of a CSV file") == true)
        for name in ["bad.csv", "short.csv", "header.csv", "backwards.csv", "empty.csv", "header-only.csv"] {
            unlink(h.directory + "/" + name)
        }

        // The board refuses a log it cannot play (no IMU) and passes the recording's error on.
        let noIMU = try ConfigurationSources(board: "sim", overrides: ["sim.imu=none", "sim.imu_log=" + badNumber]).load()
        #expect(throws: SimulatedBoardError.self) { try SimulatedBoard(configuration: noIMU.configuration, startNanoseconds: 0) }
        let missing = try ConfigurationSources(board: "sim", overrides: ["sim.imu_log=/nonexistent/imu.csv"]).load()
        do throws(SimulatedBoardError) {
            _ = try SimulatedBoard(configuration: missing.configuration, startNanoseconds: 0)
            Issue.record("a missing IMU log started the board")
        } catch {
            #expect(error.message.hasPrefix("cannot open the IMU log /nonexistent/imu.csv"))
        }
    }
}
