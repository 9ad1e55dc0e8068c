import IMU
import Glibc
import Heading
import NMEA
@testable import State
import Testing
import TestSupport
import Tracking
@testable import Puckd

/// The device after a damaged or a good state file: the defaults and a sentence, or the saved mode,
/// viewport, fix, calibration and gyroscope bias (the store's own crash tests are in StateTests).
@Suite(.serialized) struct StateCrashTests {
    /// The calibration of StateTests' sample record.
    static let calibration = MagnetometerCalibration(hardIronMicrotesla: Vector3(12.5, -7.25, 3), fieldMicrotesla: 53.4,
                                                     coverageFraction: 0.8, residualFraction: 0.01, sampleCount: 300)
    static let b = DeviceStateRecord(
        trackingMode: .followWithHeading, viewport: .followPuck, showsLocation: true, authorization: .authorized,
        accuracy: .full,
        lastFix: SavedFix(latitudeDegrees: -33.8688, longitudeDegrees: 151.2093, altitudeMSLMeters: 58,
                          horizontalAccuracyMeters: 1.1, utcNanoseconds: 1_700_000_000_000_000_000, mode: .threeD),
        calibration: nil, gyroBiasRadiansPerSecond: Vector3(0.004, -0.003, 0.0025),
        followViewport: SavedFollowViewport(zoom: 15, pitchDegrees: 30, bearing: .constant(90)))

    static func encoded(_ record: DeviceStateRecord) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: DeviceStateRecord.byteCount)
        _ = bytes.withUnsafeMutableBytes { record.encode(into: $0) }
        return bytes
    }

    static func write(_ path: String, _ bytes: [UInt8]) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    @Test func theDeviceStartsFromDefaultsAfterADamagedFileAndSaysSo() throws {
        let directory = SimulatedDeviceHarness.temporaryDirectory()
        Self.write(directory + "/state", Array(Self.encoded(Self.b)[0..<100]))
        let h = try SimulatedDeviceHarness(directory: directory)
        defer { h.removeDirectory() }
        #expect(h.device.startupReport.contains("state: " + directory + "/state is damaged (it has 100 bytes, a state file "
            + "of its version has 276 (truncated or cut short by a crash)); moved it to " + directory
            + "/state.corrupt; starting from defaults"))
        #expect(h.device.core.trackingMode == .follow, "the configured mode, not the damaged file's")
        #expect(h.device.lastGoodFix == nil)
    }

    @Test func theNextStartResumesModeViewportFixCalibrationAndGyroBias() throws {
        // A tracking mode (viewport idle) with the fix, calibration and gyroscope bias.
        let directory = SimulatedDeviceHarness.temporaryDirectory()
        var record = Self.b
        record.viewport = .idle
        record.calibration = Self.calibration
        #expect(try StateStore.open(directory: directory).get().save(record) == 0)
        let h = try SimulatedDeviceHarness(directory: directory)
        defer { h.removeDirectory() }
        h.device.core.tick(atNanoseconds: h.now)   // no GPS yet: the core alone at start-up
        #expect(h.device.core.trackingMode == .followWithHeading)
        #expect(h.device.lastGoodFix == record.lastFix)
        #expect(h.device.core.puck.isStale, "acquiring at the last known location")
        #expect(abs(h.device.core.puck.coordinate.latitudeDegrees - (-33.8688)) < 1e-6)
        #expect(h.device.heading.calibration?.hardIronMicrotesla == record.calibration?.hardIronMicrotesla)
        #expect(h.device.heading.filter.gyroBias.biasRadiansPerSecond == record.gyroBiasRadiansPerSecond)
        // The follow-puck viewport with the options set on the console.
        let other = SimulatedDeviceHarness.temporaryDirectory()
        var follow = Self.b
        follow.trackingMode = .none
        #expect(try StateStore.open(directory: other).get().save(follow) == 0)
        let f = try SimulatedDeviceHarness(directory: other)
        defer { f.removeDirectory() }
        f.device.core.tick(atNanoseconds: f.now)
        #expect(f.device.core.camera.viewportStatus == .state(.followPuck))
        #expect(f.device.followViewport == follow.followViewport)
        #expect(abs(f.device.core.camera.zoom - 15) < 0.01 && abs(f.device.core.camera.pitchDegrees - 30) < 0.01)
    }
}
