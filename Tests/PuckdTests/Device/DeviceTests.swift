import CBundledData
import Glibc
import Hardware
import IMU
import Heading
import NMEA
@testable import State
import Testing
import TestSupport
import Tracking
@testable import Puckd

/// The device loop on the simulated board, in-process with a synthetic clock: buttons → modes,
/// LED patterns, state, degraded modes, auto-baud, reload, calibration.
@Suite(.serialized) struct DeviceTests {
    /// On-pulses (start, length) of an LED from its level changes.
    static func pulses(_ changes: [(Int64, Bool)]) -> [(start: Int64, length: Int64)] {
        var result: [(Int64, Int64)] = []
        var onAt: Int64?
        for (t, on) in changes {
            if on && onAt == nil { onAt = t }
            if !on, let start = onAt {
                result.append((start, t - start))
                onAt = nil
            }
        }
        return result
    }

    @Test func shortPressesStepTheModeCycleAndTheModeLEDBlinksItsPosition() throws {
        let h = try SimulatedDeviceHarness()
        defer { h.removeDirectory() }
        h.advance(by: 3_000_000_000)
        #expect(h.device.core.trackingMode == .follow)
        #expect(h.device.fixIndicator(nowNanoseconds: h.now) == .fix3D)
        let expected: [(TrackingMode, Int)] = [(.followWithCourse, 2), (.followWithHeading, 3), (.none, 0), (.follow, 1)]
        for (mode, blinks) in expected {
            let pressedAt = h.now
            #expect(h.board.press(.primary, long: false, longPressNanoseconds: 1_000_000_000, nowNanoseconds: h.now))
            h.advance(by: 4_300_000_000)
            #expect(h.device.core.trackingMode == mode)
            let changedAt = h.device.controls.modeChangedAtNanoseconds
            #expect(changedAt > pressedAt && changedAt < pressedAt + 400_000_000, "released after 150 ms, decided 30 ms later")
            // Two full blink groups (2 s each, from the change): n pulses of 120 ms each, 250 ms apart.
            for group in 0..<2 {
                let start = changedAt + Int64(group) * 2_000_000_000
                // (The old pattern's lit blink, if any, ends at the first tick after the change: not a pulse.)
                let inGroup = Self.pulses(h.ledChanges(23, from: start))
                    .filter { $0.start < start + 2_000_000_000 && !($0.start == start && $0.length < 30_000_000) }
                #expect(inGroup.count == blinks,
                        "\(mode): group \(group) from \(start): LED 23 changes \(h.ledChanges(23, from: start - 300_000_000))")
                for (k, pulse) in inGroup.enumerated() {
                    #expect(abs(pulse.start - start - Int64(k) * 250_000_000) <= 17_000_000)
                    #expect(abs(pulse.length - 120_000_000) <= 17_000_000)
                }
            }
        }
        // The fix LED stayed on the whole time (3D fix), the fault LED off.
        let fix = h.ledChanges(22, from: h.device.startNanoseconds)
        #expect(fix.map(\.1) == [false, true], "off at the start, on at the first 3D fix, never off again")
        #expect(h.ledChanges(24, from: h.device.startNanoseconds).allSatisfy { !$0.1 })
        #expect(h.output.contains("puckd: button: short press → next-mode\npuckd: mode: followWithCourse (LED: 2 blinks)"))
    }

    @Test func longPressTogglesBetweenOverviewAndFollowPuck() throws {
        let h = try SimulatedDeviceHarness()
        defer { h.removeDirectory() }
        h.advance(by: 3_000_000_000)
        _ = h.board.press(.primary, long: true, longPressNanoseconds: 1_000_000_000, nowNanoseconds: h.now)
        h.advance(by: 6_000_000_000)
        #expect(h.device.core.camera.viewportStatus == .state(.overview))
        #expect(h.device.core.trackingMode == .none, "a viewport state ends MapLibre tracking")
        _ = h.board.press(.primary, long: true, longPressNanoseconds: 1_000_000_000, nowNanoseconds: h.now)
        h.advance(by: 6_000_000_000)
        #expect(h.device.core.camera.viewportStatus == .state(.followPuck))
        #expect(h.device.counters.longPresses == 2 && h.device.counters.shortPresses == 0)
        #expect(h.output.contains("puckd: button: long press → toggle-overview"))
        #expect(h.output.contains("puckd: viewport: overview"))
        #expect(h.output.contains("puckd: viewport: follow\n"))
    }

    @Test func secondButtonHidesAndShowsThePuck() throws {
        let h = try SimulatedDeviceHarness(overrides: ["gpio.button2=27"])
        defer { h.removeDirectory() }
        h.advance(by: 2_000_000_000)
        #expect(h.device.core.isShowingUserLocation)
        _ = h.board.press(.secondary, long: false, longPressNanoseconds: 1_000_000_000, nowNanoseconds: h.now)
        h.advance(by: 1_000_000_000)
        #expect(!h.device.core.isShowingUserLocation)
        _ = h.board.press(.secondary, long: false, longPressNanoseconds: 1_000_000_000, nowNanoseconds: h.now)
        h.advance(by: 1_000_000_000)
        #expect(h.device.core.isShowingUserLocation)
        #expect(h.output.contains("puckd: location: hidden\n") && h.output.contains("puckd: location: shown\n"))
    }

    @Test func stateIsSavedAndTheNextStartResumesStaleAtTheLastLocation() throws {
        let h = try SimulatedDeviceHarness()
        defer { h.removeDirectory() }
        h.advance(by: 3_000_000_000)
        _ = h.board.press(.primary, long: false, longPressNanoseconds: 1_000_000_000, nowNanoseconds: h.now)
        h.advance(by: 3_000_000_000)
        #expect(h.device.core.trackingMode == .followWithCourse)
        guard case .loaded(let record) = try StateStore.open(directory: h.directory).get().load() else {
            Issue.record("no state written within the save interval")
            return
        }
        #expect(record.trackingMode == .followWithCourse)
        let fix = try #require(record.lastFix)
        #expect(abs(fix.latitudeDegrees - 41.57497) < 0.0001 && abs(fix.longitudeDegrees + 93.75056) < 0.0001)

        // Without the quiet-line close, the first cycle after the restart closes only when the next one
        // begins (docs/nmea-epochs.md §1): until then, after the first tick, the puck is the saved one, stale.
        let again = try SimulatedDeviceHarness(overrides: ["gps.quiet_close_fraction=0"], directory: h.directory)
        #expect(again.device.core.trackingMode == .followWithCourse)
        again.advance(by: 20_000_000)
        #expect(again.device.core.puck.hasLocation && again.device.core.puck.isStale)
        #expect(abs(again.device.core.puck.coordinate.latitudeDegrees - fix.latitudeDegrees) < 1e-9)
        again.advance(by: 1_000_000_000)
        #expect(!again.device.core.puck.isStale, "the first fresh fix ends the stale state")
    }

    @Test func withoutAnIMUTheBearingFallsBackAndTheFaultLEDIsOn() throws {
        let h = try SimulatedDeviceHarness(prepare: { board in
            board.imu!.bus.detach(address: 0x6A)
            board.imu!.bus.detach(address: 0x1C)
        })
        defer { h.removeDirectory() }
        h.advance(by: 4_000_000_000)
        #expect(h.device.faults == .imu)
        #expect(h.device.core.currentBearingSelection?.source == .gpsCourse)
        #expect(h.board.gpio.isPhysicallyHigh(24), "fault LED on")
        let output = h.output
        #expect(output.contains("puckd: faults: imu (new: imu)\n"))
        #expect(output.ranges(of: "faults: imu").count == 1, "said once, not per wake-up")
        #expect(output.ranges(of: "puckd: imu: no IMU answered on this I2C bus; the bearing falls back to the GPS "
            + "course while puckd retries\n").count == 1)
        // The chips come back (hot-plugged): the device finds them on a later probe and the fault clears.
        h.board.imu!.bus.attach(h.board.imu!.primary)
        h.board.imu!.bus.attach(h.board.imu!.magnetometer!)
        h.advance(by: 12_000_000_000)
        #expect(h.device.faults == [])
        #expect(h.device.core.currentBearingSelection?.source == .imuHeading)
        #expect(!h.board.gpio.isPhysicallyHigh(24))
        #expect(h.output.contains("puckd: faults: none (cleared: imu)"))
    }

    @Test func whenTheGPSFallsSilentThePuckGoesStaleAndTheFaultShows() throws {
        let h0 = try SimulatedDeviceHarness()
        let log = h0.board.receiver.schedule.epochs.prefix(30).map { e in
            String(decoding: UnsafeRawBufferPointer(start: bundledDrive.baseAddress! + e.start, count: e.end - e.start), as: UTF8.self)
        }.joined()
        let path = h0.writeFile("short.nmea", log)
        let h = try SimulatedDeviceHarness(overrides: ["sim.gps_log=" + path, "sim.loop=false", "tracking.stale_s=5"],
                                           directory: h0.directory)
        defer { h.removeDirectory() }
        h.advance(by: 2_500_000_000)
        #expect(h.device.fixIndicator(nowNanoseconds: h.now) == .fix3D && h.device.faults == [])
        h.advance(by: 5_000_000_000)                   // over 3 s after the last fix: stale
        #expect(h.device.fixIndicator(nowNanoseconds: h.now) == .stale)
        #expect(h.device.faults == .gpsSilent)
        #expect(h.board.gpio.isPhysicallyHigh(24))
        let window = h.now - 1_000_000_000
        let fix = Self.pulses(h.ledChanges(22, from: window)).filter { $0.start > window }
        #expect(fix.count >= 3 && fix.allSatisfy { abs($0.length - 125_000_000) <= 17_000_000 }, "fix LED blinks at 4 Hz")
        h.advance(by: 3_000_000_000)
        #expect(h.device.core.puck.isStale)
    }

    @Test func aMissingGPSIsAFaultSaidOnceWhileTheSourceRetries() throws {
        let h = try SimulatedDeviceHarness()
        defer { h.removeDirectory() }
        var missing = SerialSource(path: "/dev/puckd-no-such-gps", baudRate: 9600)
        let end = h.now + 20_000_000_000
        while h.now < end {
            h.now += 1_000_000
            _ = h.device.step(gps: &missing, nowNanoseconds: h.now, ready: .all)
        }
        #expect(missing.counters.errors(.notFound) >= 5, "the source kept retrying with backoff")
        #expect(h.device.faults.contains(.gpsDown))
        #expect(h.device.fixIndicator(nowNanoseconds: h.now) == .noFix)
        let gpsLines = h.output.split(separator: "\n").filter { $0.hasPrefix("puckd: gps: ") }
        #expect(gpsLines.count == 1, "\(gpsLines)")
        #expect(gpsLines.first?.hasSuffix("(retrying with backoff)") == true)
        #expect(gpsLines.first?.contains("/dev/puckd-no-such-gps") == true)
    }

    @Test func autoBaudFindsTheReceiversRate() throws {
        let h = try SimulatedDeviceHarness(overrides: ["gps.baud=auto"])
        defer { h.removeDirectory() }
        // A receiver at 38400 baud sending the drive back to back; our UART starts where the search does.
        var port = SimulatedSerialPort(bytes: Array(bundledDrive), receiverBaudRate: 38400, baudRate: 9600,
                                       startNanoseconds: h.now)
        let first = h.device.startBaudSearch(nowNanoseconds: h.now)
        #expect(first == 9600)
        var switches: [Int] = []
        let end = h.now + 12_000_000_000
        while h.now < end {
            h.now += 1_000_000
            if let rate = h.device.step(gps: &port, nowNanoseconds: h.now, ready: .all) {
                switches.append(rate)
                try port.setBaudRate(rate, nowNanoseconds: h.now)
            }
        }
        #expect(switches == [4800, 38400])
        #expect(port.baudRate == 38400)
        #expect(h.device.counters.fixes > 20)
        #expect(h.output.contains("puckd: gps: auto-baud: NMEA at 38400 baud"))
    }

    @Test func reloadAppliesAGoodFileAndRejectsABadOne() throws {
        let directory = SimulatedDeviceHarness.temporaryDirectory()
        let config = directory + "/puckd.conf"
        let h0 = try SimulatedDeviceHarness(directory: directory)
        _ = h0.writeFile("puckd.conf", "[heading]\nmag_noise = 0.5\n[gpio]\nshort_press = next-mode\n")
        let h = try SimulatedDeviceHarness(directory: directory, configFile: config)
        defer { h.removeDirectory() }
        h.advance(by: 1_000_000_000)
        _ = h.writeFile("puckd.conf", "[gpio]\nbutton = 99\n")
        h.device.reload(nowNanoseconds: h.now)
        #expect(h.output.contains("puckd: config: reload rejected, the running configuration stays: " + config
            + ":2: [gpio] button = 99: out of range, allowed 0…53 (BCM line offset) or none\n"))
        #expect(h.device.configuration.gpio.button == 17)
        _ = h.writeFile("puckd.conf", "[heading]\nmag_noise = 0.25\n[gpio]\nshort_press = toggle-location\n[imu]\nrate_hz = 50\n")
        h.device.reload(nowNanoseconds: h.now)
        #expect(h.output.contains("puckd: config: reloaded board/sim.conf (built in) + " + config + " + --set state.directory="
            + directory + " --set console.status_interval_s=0: applied heading.mag_noise 0.5 → 0.25, gpio.short_press "
            + "next-mode → toggle-location; needs a restart (the running value stays until then): imu.rate_hz 100 → 50\n"))
        #expect(h.device.imuLink.heading.configuration.value(of: "mag_noise") == 0.25)
        #expect(h.device.configuration.imu.rateHertz == 100)
        _ = h.board.press(.primary, long: false, longPressNanoseconds: 1_000_000_000, nowNanoseconds: h.now)
        h.advance(by: 1_000_000_000)
        #expect(!h.device.core.isShowingUserLocation, "the reloaded action runs")
    }

    /// `[heading] heading_filter_deg` is the core's heading filter (tracking.md 4.2), at start-up and
    /// on a reload (a live setting); the estimator keeps publishing every update.
    @Test func headingFilterKeyIsTheCoresFilterAtStartAndOnReload() throws {
        let directory = SimulatedDeviceHarness.temporaryDirectory()
        let config = directory + "/puckd.conf"
        let h0 = try SimulatedDeviceHarness(directory: directory)
        _ = h0.writeFile("puckd.conf", "[heading]\nheading_filter_deg = 5\n")
        let h = try SimulatedDeviceHarness(directory: directory, configFile: config)
        defer { h.removeDirectory() }
        #expect(h.device.core.configuration.headingFilterDegrees == 5)
        h.advance(by: 6_000_000_000)
        #expect(h.device.imuLink.heading.publishedCount > 100, "every fused update is published")
        _ = h.writeFile("puckd.conf", "[heading]\nheading_filter_deg = 0.5\n")
        h.device.reload(nowNanoseconds: h.now)
        #expect(h.device.core.configuration.headingFilterDegrees == 0.5)
        _ = h.writeFile("puckd.conf", "[heading]\nheading_filter_deg = 400\n")
        h.device.reload(nowNanoseconds: h.now)
        #expect(h.device.core.configuration.headingFilterDegrees == 180, "clamped to the core's range")
    }

    @Test func magnetometerCalibrationOnTheSimulatedBoardFitsAppliesAndSaves() throws {
        let h = try SimulatedDeviceHarness(overrides: ["gpio.button2=27"])
        defer { h.removeDirectory() }
        h.advance(by: 3_000_000_000)
        #expect(h.device.imuLink.heading.calibration == nil)
        _ = h.board.press(.secondary, long: true, longPressNanoseconds: 1_000_000_000, nowNanoseconds: h.now)
        h.advance(by: 40_000_000_000)
        let calibration = try #require(h.device.imuLink.heading.calibration)
        #expect(calibration.hardIronMicrotesla.length < 2, "the twin has no hard iron")
        #expect(abs(calibration.fieldMicrotesla - h.board.motion.fieldEastNorthUpMicrotesla.length) < 2)
        #expect(h.output.contains("puckd: calibration: magnetometer calibrated ("))
        guard case .loaded(let record) = try StateStore.open(directory: h.directory).get().load() else {
            Issue.record("no state")
            return
        }
        #expect(record.calibration == calibration)
    }

    @Test func degradedPartsAreReportedOnceWithTheReason() throws {
        let h = try SimulatedDeviceHarness(overrides: ["state.directory=/proc/puckd-no-state"], setupChanges: { setup in
            setup.gpio = nil
            setup.gpioProblem = GPIOError.permissionDenied(path: "/dev/gpiochip0").description
        })
        defer { h.removeDirectory() }
        h.device.printReport()
        h.advance(by: 3_000_000_000)
        let output = h.output
        let gpioLine = "puckd: degraded: no buttons and LEDs: permission denied opening /dev/gpiochip0: add the user to "
            + "group gpio (sudo usermod -aG gpio USER, then log in again); the rules in udev/ give that group access to "
            + "/dev/gpiochip*\n"
        let stateLine = "puckd: degraded: state not saved: cannot create /proc/puckd-no-state (No such file or directory): "
            + "the state (mode, calibration, last fix) will not be saved; make the directory writable for this user or "
            + "set [state] directory\n"
        #expect(output.contains(gpioLine) && output.contains(stateLine))
        #expect(output.ranges(of: "permission denied opening").count == 1)
        // The track journal lives in the state directory too: its fault says so once, tracking goes on.
        #expect(h.device.faults == [.state, .track])
        #expect(output.ranges(of: "puckd: track: cannot create the track directory /proc/puckd-no-state/track").count == 1)
        #expect(h.device.counters.fixes > 10, "the device runs on without them")
    }

    var bundledDrive: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: bundled_drive_bytes(), count: bundled_drive_count()) }
}
