@testable import Simulation
import Testing
import Hardware
import Receiver
import TestSupport
@testable import Puckd

/// The device configures the receivers of the supported boards over a pty (the real serial source,
/// termios, a twin that speaks the protocol): recognition, every command acknowledged, the baud switch
/// verified, NMEA at the new rate; again after an unplug and after a power loss; never with
/// `configure = never`; the log says each outcome once; `status`/`stats`/`nmea` show it; and the
/// wake-ups allocate nothing while all this happens.
@Suite(.serialized) struct ReceiverConfigurationTests {
    static let berryGPS = ["gps.rate_hz=10", "gps.configure_baud=115200", "gps.sentences=needed",
                           "gps.constellations=gps,galileo,glonass,sbas,qzss"]

    @Test func berryGPSReceiverIsConfiguredAndFixesArriveAtTenHertz() throws {
        let twin = SimulatedUbloxReceiver(generation: .m8, startNanoseconds: 1_000_000_000_000)
        let h = try ReceiverTwinDevice(twin: twin, overrides: Self.berryGPS)
        defer { h.removeDirectory() }
        h.run(for: 15_000_000_000)
        let status = h.status
        #expect(status.phase == .done)
        #expect(status.identity.family == .ublox(generation: 8))
        for setting in [ReceiverSetting.baud, .sentences, .constellations, .rate] {
            #expect(status.outcome(setting) == .applied, "\(setting)")
        }
        #expect(twin.baudRate == 115200 && twin.current.periodMilliseconds == 100)
        #expect(h.source.baudRate == 115200)
        #expect(twin.current.sentences == .needed)
        // Fixes now come ten a second.
        let before = h.device.counters.fixes
        h.run(for: 5_000_000_000)
        let perSecond = Double(h.device.counters.fixes - before) / 5
        #expect(perSecond > 9.5 && perSecond < 10.5, "\(perSecond) fixes a second")
        // UBX replies were read with their checksums and counted.
        #expect(h.device.gpsLink.receiverLink.ubx.counters.delivered >= 10)
        #expect(h.device.gpsLink.receiverLink.ubx.counters.badChecksums == 0)
        let log = h.output
        #expect(log.contains("gps: receiver: u-blox M8 CAM-M8C-0 (SPG 3.01, protocol 18.00), recognized from its version reply"))
        #expect(log.contains("gps: receiver and port switched from 9600 to 115200 baud, NMEA verified at the new speed"))
        #expect(log.contains("gps: receiver: rate 10 Hz applied"))
        #expect(log.contains("gps: receiver: constellations gps,glonass,galileo,qzss,sbas applied"))
        #expect(!log.contains("auto-baud"))
    }

    @Test func adafruitAndWaveshareReceivers() throws {
        let mtk = SimulatedMediaTekReceiver(model: .mtk3339, startNanoseconds: 1_000_000_000_000)
        let a = try ReceiverTwinDevice(twin: mtk, overrides: ["gps.receiver=mediatek", "gps.rate_hz=10",
                                                             "gps.configure_baud=115200", "gps.sentences=needed"])
        defer { a.removeDirectory() }
        a.run(for: 15_000_000_000)
        #expect(a.status.identity.model.string == "PA6H")
        #expect(a.status.outcome(.rate) == .applied && a.status.outcome(.baud) == .applied)
        #expect(mtk.baudRate == 115200 && mtk.current.periodMilliseconds == 100)
        #expect(a.port!.receivedText.contains("$PMTK220,100*2F\r\n"))
        #expect(a.port!.receivedText.contains("$PMTK251,115200*1F\r\n"))

        let quectel = SimulatedMediaTekReceiver(model: .quectelL76B, startNanoseconds: 1_000_000_000_000)
        let w = try ReceiverTwinDevice(twin: quectel, overrides: ["gps.rate_hz=5", "gps.constellations=gps,glonass",
                                                                 "gps.save=true"])
        defer { w.removeDirectory() }
        w.run(for: 20_000_000_000)
        #expect(w.status.identity.family == .quectel)
        #expect(w.status.outcome(.rate) == .applied)
        // The L76B has no GLONASS: PMTK353 is refused, said once in the log, and shown in status.
        #expect(w.status.outcome(.constellations) == .partlyApplied)
        #expect(w.status.outcome(.save) == .unsupported)
        let log = w.output
        #expect(log.ranges(of: "gps: receiver: constellations").count + 1 == 2)
        #expect(log.contains("constellations gps,glonass partly applied ($PMTK001 flag 1: unsupported); puckd goes on with what the receiver sends"))
        #expect(log.contains("gps: receiver: save not supported"))
        #expect(quectel.current.periodMilliseconds == 200)
    }

    @Test func unplugAndPowerLossConfigureAgain() throws {
        let first = SimulatedUbloxReceiver(generation: .m8, startNanoseconds: 1_000_000_000_000)
        let h = try ReceiverTwinDevice(twin: first, overrides: Self.berryGPS)
        defer { h.removeDirectory() }
        h.run(for: 15_000_000_000)
        #expect(first.baudRate == 115200)
        // Unplugged and plugged back: a receiver that starts from its factory settings at 9600. The
        // port reopens at 115200 (its last speed), finds noise, goes back to 9600, configures again.
        let second = SimulatedUbloxReceiver(generation: .m8, startNanoseconds: h.now)
        try h.replug(second, gapNanoseconds: 2_000_000_000)
        second.powerOn(nowNanoseconds: h.now)
        h.run(for: 30_000_000_000)
        #expect(second.baudRate == 115200 && second.current.periodMilliseconds == 100)
        #expect(h.source.baudRate == 115200)
        #expect(h.status.counters.completedRuns >= 2)
        // Power loss without an unplug: the same port, the receiver forgets.
        second.powerCycle(nowNanoseconds: h.now)
        #expect(second.baudRate == 9600)
        h.run(for: 30_000_000_000)
        #expect(second.baudRate == 115200 && second.current.periodMilliseconds == 100)
        let log = h.output
        #expect(log.contains("gps: no valid NMEA at 115200 baud, only noise (did the receiver lose power?): trying 9600"))
        #expect(log.contains("gps: receiver configured again:"))
        // "rate applied" is said once, not at each run.
        #expect(log.ranges(of: "gps: receiver: rate 10 Hz applied").count + 1 == 2)
    }

    @Test func autoBaudFindsTheReceiverAgainAfterAPowerLoss() throws {
        // [gps] baud = auto: auto-baud locks at 9600, the configurator switches both ends to 115200
        // (auto-baud adopts it); after a power loss auto-baud hunts the factory speed again and the
        // receiver is configured once more.
        let twin = SimulatedUbloxReceiver(generation: .m8, startNanoseconds: 1_000_000_000_000)
        let h = try ReceiverTwinDevice(twin: twin, overrides: Self.berryGPS + ["gps.baud=auto"])
        defer { h.removeDirectory() }
        h.run(for: 15_000_000_000)
        #expect(twin.baudRate == 115200 && h.source.baudRate == 115200)
        #expect(h.device.gpsLink.baudSearch?.currentBaud == 115200)
        #expect(h.device.gpsLink.baudSearch?.state == .locked)
        twin.powerCycle(nowNanoseconds: h.now)
        h.run(for: 60_000_000_000)
        #expect(twin.baudRate == 115200 && twin.current.periodMilliseconds == 100)
        #expect(h.source.baudRate == 115200)
        #expect(h.status.counters.completedRuns == 2)
        let log = h.output
        #expect(log.contains("gps: auto-baud: no NMEA at the previous rate, trying"))
        #expect(log.contains("gps: receiver configured again:"))
    }

    @Test func neverMeansNothingIsWritten() throws {
        let twin = SimulatedUbloxReceiver(generation: .m8, startNanoseconds: 1_000_000_000_000)
        let h = try ReceiverTwinDevice(twin: twin, overrides: Self.berryGPS + ["gps.configure=never"])
        defer { h.removeDirectory() }
        h.run(for: 10_000_000_000)
        #expect(h.port!.received.isEmpty)
        #expect(twin.current.periodMilliseconds == 1000)
        #expect(h.status.phase == .off)
        #expect(h.device.counters.fixes > 5)
    }

    @Test func consoleShowsTheReceiverAndItsTraffic() throws {
        let twin = SimulatedMediaTekReceiver(model: .mtk3339, startNanoseconds: 1_000_000_000_000)
        let h = try ReceiverTwinDevice(twin: twin, overrides: ["gps.rate_hz=5", "gps.constellations=gps,glonass"], console: true)
        defer { h.removeDirectory() }
        // The traffic of the configuration is still in the log right after it ends (64 lines kept).
        var waited = 0
        while h.status.phase != .done && waited < 1000 {
            h.run(for: 10_000_000)
            waited += 1
        }
        let nmea = h.command("nmea 64")
        #expect(nmea.contains(" > $PMTK220,200*2C"), "\(nmea)")
        #expect(nmea.contains("   $PMTK001,220,3*"))
        #expect(nmea.contains("   $GPRMC,"))
        h.run(for: 3_000_000_000)
        let status = h.command("status")
        #expect(status.contains("receiver      MediaTek PA6H (AXN_2.31_3339_13101700): configured in "), "\(status)")
        #expect(status.contains(" s \u{2014} constellations gps,glonass partly applied ($PMTK001 flag 1: unsupported), rate 5 Hz applied"), "\(status)")
        let stats = h.command("stats")
        #expect(stats.contains("[receiver]"))
        #expect(stats.contains(try Regex(#"acknowledged +3\n"#)), "\(stats)")
        // watch nmea streams the new lines; the next command ends it.
        #expect(h.command("watch nmea").hasPrefix("the receiver's traffic as it arrives"))
        h.run(for: 1_000_000_000)
        let streamed = h.command("version")
        // (5 Hz of every default sentence does not fit 9600 baud: the twin sends what the line carries.)
        #expect(streamed.ranges(of: "$GPRMC,").count + 1 >= 3, "\(streamed)")
        let json = h.command("json on") + h.command("status")
        #expect(json.contains("\"receiver\":{\"family\":\"MediaTek\",\"model\":\"PA6H\""), "\(json)")
    }

    @Test func configuringAllocatesNothing() throws {
        // Warm up with one receiver, then measure a whole configuration (recognition, the baud switch,
        // every command and reply, the log lines) of a second one.
        let warm = SimulatedUbloxReceiver(generation: .m8, startNanoseconds: 1_000_000_000_000)
        let h = try ReceiverTwinDevice(twin: warm, overrides: Self.berryGPS)
        defer { h.removeDirectory() }
        h.run(for: 15_000_000_000)
        warm.powerCycle(nowNanoseconds: h.now)
        h.run(for: 30_000_000_000)
        let runs = h.status.counters.completedRuns
        warm.powerCycle(nowNanoseconds: h.now)
        var allocations: UInt64 = 0
        let end = h.now + 30_000_000_000
        while h.now < end {
            h.now += 2_000_000
            h.port?.service(nowNanoseconds: h.now)
            allocations += allocationCount { h.wakeUp() }
        }
        #expect(h.status.counters.completedRuns == runs + 1)
        #expect(warm.baudRate == 115200)
        #expect(allocations == 0)
    }

    @Test func watchNMEAWhileConfiguringAllocatesNothing() throws {
        // The console streams the traffic (`watch nmea`: sentences, UBX replies, puckd's commands) while
        // the receiver is configured after a power loss.
        let twin = SimulatedUbloxReceiver(generation: .m8, startNanoseconds: 1_000_000_000_000)
        let h = try ReceiverTwinDevice(twin: twin, overrides: Self.berryGPS, console: true)
        defer { h.removeDirectory() }
        #expect(h.command("watch nmea").hasPrefix("the receiver's traffic"))
        h.run(for: 15_000_000_000)
        twin.powerCycle(nowNanoseconds: h.now)
        h.run(for: 30_000_000_000)
        _ = h.consoleOutputText()                           // what the console wrote so far
        let runs = h.status.counters.completedRuns
        twin.powerCycle(nowNanoseconds: h.now)
        let lines = h.device.console!.state.nmea.recorded
        let frames = h.device.console!.session.counters.watchFrames
        var allocations: UInt64 = 0
        let end = h.now + 30_000_000_000
        while h.now < end {
            h.now += 2_000_000
            h.port?.service(nowNanoseconds: h.now)
            allocations += allocationCount { h.wakeUp() }
            if h.now % 1_000_000_000 == 0 { _ = h.consoleOutputText() }  // the reader keeps up (outside the count)
        }
        #expect(h.status.counters.completedRuns == runs + 1)
        #expect(h.device.console!.state.nmea.recorded > lines + 500)
        // New lines go out 20 times a second while any arrive (none during the silence and the
        // noise at the lost speed): 234 frames in these 30 s.
        #expect(h.device.console!.session.counters.watchFrames - frames > 150)
        #expect(allocations == 0)
    }
}
