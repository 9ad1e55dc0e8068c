import Hardware
import Testing
import TestSupport
@testable import Puckd

/// The fixed-allocation rule for the whole device: after start-up, wake-ups allocate nothing, with
/// every source active: GPS bytes over the pty (10 Hz epochs), IMU samples (104 Hz through the
/// register-level twin, read from its FIFO in 10 bursts a second: the sim profile's `[imu] burst_hz`), ticks (60 Hz), button presses (short and long, both buttons: mode changes,
/// viewport transitions, puck shown/hidden), LED writes, status lines, state writes and the track
/// journal (every fix and the raw NMEA appended, flushed each second, fdatasync on the flusher thread). Runs in debug
/// and release (`make test`). (Completing a magnetometer calibration — a user-started event, not a
/// wake-up path — runs `MagnetometerCalibrationRun.fit`, which allocates: see the report.)
@Suite(.serialized) struct DeviceAllocationTests {
    /// 100 000 wake-ups, one per millisecond of synthetic time (100 s: 1000 GPS epochs, 10 000 IMU polls,
    /// 6000 ticks, 50 presses).
    @Test func hundredThousandWakeUpsAllocateNothing() throws {
        let h = try SimulatedDeviceHarness(overrides: ["console.status_interval_s=1", "gpio.button2=27",
                                                       "state.save_interval_s=1", "track.flush_interval_s=1",
                                                       "track.raw_nmea=true"])
        defer { h.removeDirectory() }
        let track = try #require(h.device.trackRecorder.writer, "the track recorder is on by default")
        // Short and long presses of the mode button (next mode, overview toggle), short presses of
        // button2 (show/hide the puck).
        func press(_ k: Int) {
            _ = h.board.press(k % 4 == 2 ? .secondary : .primary, long: k % 4 == 1, longPressNanoseconds: 1_000_000_000,
                              nowNanoseconds: h.now)
        }
        // Warm-up: every path once (status line, state write, each kind of press, overview, a whole
        // magnetometer calibration: first calls fill runtime metadata caches).
        for k in 0..<8 {
            press(k)
            h.advance(by: 2_000_000_000)
        }
        _ = h.board.press(.secondary, long: true, longPressNanoseconds: 1_000_000_000, nowNanoseconds: h.now)
        h.advance(by: 50_000_000_000)
        #expect(h.device.imuLink.heading.calibration != nil)
        let counters0 = h.device.counters
        let track0 = track.counters
        var k = 10
        var wakeUps = 0
        let allocations = allocationCount {
            while wakeUps < 100_000 {
                if wakeUps % 2000 == 0 {
                    press(k)
                    k += 1
                }
                h.now += 1_000_000
                _ = h.device.step(gps: &h.source, nowNanoseconds: h.now, ready: .all)
                wakeUps += 1
            }
        }
        let c = h.device.counters
        #expect(allocations == 0)
        #expect(h.device.imuLink.device?.readsFIFO == true)
        #expect(h.device.imuLink.fifoBursts >= 990 && h.device.imuLink.fifoOverruns == 0, "10 FIFO bursts a second")
        // Everything was active during the measured run.
        #expect(c.fixes - counters0.fixes > 500)
        #expect(c.imuSamples - counters0.imuSamples > 9000)
        #expect(c.headingsPublished > counters0.headingsPublished)
        #expect(c.ticks - counters0.ticks >= 5990)
        #expect(c.shortPresses + c.longPresses - counters0.shortPresses - counters0.longPresses >= 45)
        #expect(c.ledWrites > counters0.ledWrites)
        #expect(c.stateWrites > counters0.stateWrites)
        #expect(h.device.output.writtenLines > 100)
        // The journal recorded every fix and flushed once a second (writes here, fdatasync on the flusher thread).
        #expect(track.counters.recordsAppended - track0.recordsAppended > 500)
        #expect(track.counters.flushes - track0.flushes >= 80, "about one flush a second (interval + the next fix)")
        #expect(track.counters.recordsWritten - track0.recordsWritten > 500)
        #expect(track.counters.rawBytesWritten > track0.rawBytesWritten)
        #expect(track.fault == nil)
    }

    /// The same with the IMU twin replaying a recording (`[sim] imu_log`, the x-io Fusion example,
    /// 135.3 s a lap): 100 000 wake-ups from 60 s into the recording, across its loop back to the start.
    @Test func hundredThousandWakeUpsWithARecordedIMUAllocateNothing() throws {
        let file = try RecordedIMUFixture()
        let h = try SimulatedDeviceHarness(overrides: ["console.status_interval_s=1", "state.save_interval_s=1",
                                                       "sim.imu_log=" + file.path])
        defer { h.removeDirectory() }
        let recording = try #require(h.board.imuRecording)
        // Warm-up: 60 s of the recording with short and long presses.
        for k in 0..<30 {
            _ = h.board.press(.primary, long: k % 3 == 1, longPressNanoseconds: 1_000_000_000, nowNanoseconds: h.now)
            h.advance(by: 2_000_000_000)
        }
        let counters0 = h.device.counters
        let presented0 = recording.presentedCount
        var wakeUps = 0
        let allocations = allocationCount {
            while wakeUps < 100_000 {
                if wakeUps % 2000 == 0 {
                    _ = h.board.press(.primary, long: wakeUps % 6000 == 2000, longPressNanoseconds: 1_000_000_000,
                                      nowNanoseconds: h.now)
                }
                h.now += 1_000_000
                _ = h.device.step(gps: &h.source, nowNanoseconds: h.now, ready: .all)
                wakeUps += 1
            }
        }
        let c = h.device.counters
        #expect(allocations == 0)
        #expect(h.device.imuLink.fifoBursts >= 990, "the recording came out of the FIFO in bursts")
        #expect(recording.lapCount == 1, "the measured run crossed the end of the recording")
        #expect(recording.presentedCount - presented0 > 9900, "≈ 100 Hz of recorded rows reached the chips")
        #expect(c.imuSamples - counters0.imuSamples > 9000)
        #expect(c.headingsPublished > counters0.headingsPublished)
        #expect(c.fixes - counters0.fixes > 500)
        #expect(c.ticks - counters0.ticks >= 5990)
        #expect(c.stateWrites > counters0.stateWrites)
    }
}

/// The production loop itself (poll over the real descriptors, one clock read per wake-up, timerfds at
/// 60 Hz and 100 Hz, the pty, the GPIO twin's eventfds) allocates nothing either, in real time.
@Suite(.serialized) struct DeviceLoopAllocationTests {
    @Test func realTimeLoopAllocatesNothing() throws {
        // Warm-up: 40 s of the drive (two and a half laps) stepped with a synthetic clock that ends at
        // the real clock, then 200 real wake-ups.
        let h = try SimulatedDeviceHarness(overrides: ["console.status_interval_s=0.5"], pastNanoseconds: 40_000_000_000)
        defer { h.removeDirectory() }
        for k in 0..<8 {
            _ = h.board.press(.primary, long: k % 2 == 1, longPressNanoseconds: 1_000_000_000, nowNanoseconds: h.now)
            h.advance(by: 2_000_000_000)
        }
        h.catchUpWithRealTime()
        var now = h.now
        now = h.device.loop(gps: &h.source, nowNanoseconds: now, maximumWakeUps: 200, describe: { _ in nil },
                            setBaud: { _, _, _ throws(SourceError) in })
        _ = h.board.press(.primary, long: false, longPressNanoseconds: 1_000_000_000, nowNanoseconds: now)
        let before = h.device.counters
        var allocations: UInt64 = 0
        allocations = allocationCount {
            now = h.device.loop(gps: &h.source, nowNanoseconds: now, maximumWakeUps: 600, describe: { _ in nil },
                                setBaud: { _, _, _ throws(SourceError) in })
        }
        let after = h.device.counters
        #expect(allocations == 0)
        #expect(after.ticks - before.ticks > 100)
        #expect(after.imuSamples - before.imuSamples > 150)
        #expect(after.fixes - before.fixes > 10)
        #expect(after.shortPresses == before.shortPresses + 1)
    }
}
