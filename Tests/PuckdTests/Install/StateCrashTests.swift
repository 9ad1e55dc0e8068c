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
    /// The calibration of the sample record `SampleStateRecords.overview`.
    static let calibration = SampleStateRecords.calibration
    static let b = SampleStateRecords.followWithHeading

    static func encoded(_ record: DeviceStateRecord) -> [UInt8] { SampleStateRecords.encoded(record) }

    @Test func theDeviceStartsFromDefaultsAfterADamagedFileAndSaysSo() throws {
        let directory = SimulatedDeviceHarness.temporaryDirectory()
        Fixtures.writeFile(directory + "/state", Array(Self.encoded(Self.b)[0..<100]))
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
        #expect(try StateStore.open(directory: directory).get().save(record) == nil)
        let h = try SimulatedDeviceHarness(directory: directory)
        defer { h.removeDirectory() }
        h.device.core.tick(atNanoseconds: h.now)   // no GPS yet: the core alone at start-up
        #expect(h.device.core.trackingMode == .followWithHeading)
        #expect(h.device.lastGoodFix == record.lastFix)
        #expect(h.device.core.puck.isStale, "acquiring at the last known location")
        #expect(abs(h.device.core.puck.coordinate.latitudeDegrees - (-33.8688)) < 1e-6)
        #expect(h.device.imuLink.heading.calibration?.hardIronMicrotesla == record.calibration?.hardIronMicrotesla)
        #expect(h.device.imuLink.heading.filter.gyroBias.biasRadiansPerSecond == record.gyroBiasRadiansPerSecond)
        // The follow-puck viewport with the options set on the console.
        let other = SimulatedDeviceHarness.temporaryDirectory()
        var follow = Self.b
        follow.trackingMode = .none
        #expect(try StateStore.open(directory: other).get().save(follow) == nil)
        let f = try SimulatedDeviceHarness(directory: other)
        defer { f.removeDirectory() }
        f.device.core.tick(atNanoseconds: f.now)
        #expect(f.device.core.camera.viewportStatus == .state(.followPuck))
        #expect(f.device.followViewport == follow.followViewport)
        #expect(abs(f.device.core.camera.zoom - 15) < 0.01 && abs(f.device.core.camera.pitchDegrees - 30) < 0.01)
    }
}
