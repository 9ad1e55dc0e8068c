import Console
import Heading
import Testing
@testable import Puckd

/// The IMU link is a loop component that owns its estimator and calibration runs: its `service`
/// returns the heading samples it fused (for the router to give the tracking core) and says when a
/// finished calibration changed the state; its `stats` rows and snapshot are its own (DEVELOPERS.md,
/// "The loop's parts").
@Suite struct IMULinkComponentTests {
    @Test func serviceReturnsTheHeadingsItFusedInOrder() throws {
        let h = try SimulatedDeviceHarness()
        defer { h.removeDirectory() }
        h.advance(by: 2_000_000_000)                              // the estimator publishes by now
        var link = h.device.imuLink
        let published0 = link.headingsPublished
        var headings = 0, services = 0
        for _ in 0..<200 {                                        // 2 s at the sim's IMU rate or slower
            h.now += 10_000_000
            h.device.board.imuWillBeRead(atNanoseconds: h.now)
            let events = link.service(nowNanoseconds: h.now, ready: .none)
            services += 1
            if events.headings > 0 {
                let newest = link.headingSamples[events.headings - 1]
                #expect(newest.timeNanoseconds == link.heading.current.timestampNanoseconds)
                #expect(newest.trueHeadingDegrees == link.heading.current.trueHeadingDegrees)
                #expect(newest.source == .imu)
                var i = 1
                while i < events.headings {
                    #expect(link.headingSamples[i - 1].timeNanoseconds <= link.headingSamples[i].timeNanoseconds)
                    i += 1
                }
            }
            #expect(!events.stateChanged, "no calibration runs")
            headings += events.headings
        }
        #expect(headings >= services / 2, "\(headings) heading samples in \(services) services")
        #expect(link.headingsPublished > published0)
        var table = ConsoleCounterTable()
        link.appendStats(to: &table)
        #expect(table.value("heading.published") == Int64(link.headingsPublished))
        #expect(table.value("imu.samples") == Int64(link.samples))
    }

    @Test func aMeasuredGyroscopeBiasIsAStateChangeAndTheLinksOwnResult() throws {
        let h = try SimulatedDeviceHarness()
        defer { h.removeDirectory() }
        h.advance(by: 2_000_000_000)
        var link = h.device.imuLink
        link.startGyroscopeCalibration(nowNanoseconds: h.now, timeoutSeconds: 30)
        _ = h.device.board.calibrationStarted(.holdStill, nowNanoseconds: h.now, durationNanoseconds: 8_000_000_000)
        var changed = 0
        for _ in 0..<800 {
            h.now += 10_000_000
            h.device.board.imuWillBeRead(atNanoseconds: h.now)
            if link.service(nowNanoseconds: h.now, ready: .none).stateChanged { changed += 1 }
        }
        #expect(changed == 1, "one measurement, one state change")
        #expect(link.savedGyroBias != nil && !link.gyroCalibration.isRunning)
        #expect(link.lastCalibrationResult.string.hasPrefix("gyroscope bias "))
        var snapshot = ConsoleDeviceState()
        link.fillSnapshot(&snapshot, nowNanoseconds: h.now)
        #expect(snapshot.lastCalibrationResult == link.lastCalibrationResult)
        #expect(h.device.imuLink.savedGyroBias == nil, "the device's own link was not touched")
    }
}
