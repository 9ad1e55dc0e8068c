@testable import Simulation
import Testing
import Hardware
import Receiver

/// The receiver twins speak the protocols (they answer, NAK bad commands, change their output rate
/// and baud when told, forget on power loss), and puckd's configurator configures each of them.
@Suite struct ReceiverTwinTests {
    static func settings(_ family: ReceiverFamily?, hertz: Double = 10, baud: Int? = 115200,
                         constellations: GNSSConstellations? = nil, save: Bool = false) -> ReceiverSettings {
        var s = ReceiverSettings()
        s.family = family
        s.measurementPeriodMilliseconds = ReceiverSettings.periodMilliseconds(hertz: hertz)
        s.baudRate = baud
        s.sentences = .needed
        s.constellations = constellations
        s.save = save
        return s
    }

    @Test func ubloxM8IsRecognizedAndConfigured() {
        let twin = SimulatedUbloxReceiver(generation: .m8, startNanoseconds: 0)
        var link = TwinLink(twin: twin, settings: Self.settings(nil, constellations: [.gps, .galileo, .glonass, .sbas, .qzss]))
        link.run(for: 15_000_000_000)
        let status = link.configurator.status
        #expect(status.phase == .done)
        #expect(status.identity.family == .ublox(generation: 8))
        #expect(status.identity.model.string == "CAM-M8C-0")
        #expect(status.identity.protocolVersion == 1800)
        for setting in [ReceiverSetting.baud, .sentences, .constellations, .rate] {
            #expect(status.outcome(setting) == .applied, "\(setting)")
        }
        #expect(status.outcome(.save) == .notAsked)
        #expect(twin.baudRate == 115200)
        #expect(link.portBaudRate == 115200)
        #expect(twin.current.periodMilliseconds == 100)
        #expect(twin.current.constellations == [.gps, .galileo, .glonass, .sbas, .qzss])
        // What arrives now: 10 Hz, the needed sentences only (GST is sent by this twin when asked).
        link.clearSeen()
        link.run(for: 3_000_000_000)
        #expect(abs(link.medianRMCIntervalMilliseconds - 100) < 1)
        #expect(link.seenTypes == ["RMC", "GGA", "GSA", "GSV", "GST"])
        #expect(status.counters.timeouts == 0)
    }

    @Test func ubloxM8RefusesFourMajorSystems() {
        let twin = SimulatedUbloxReceiver(generation: .m8, startNanoseconds: 0)
        var link = TwinLink(twin: twin, settings: Self.settings(.ublox(generation: 8), hertz: 5, baud: nil,
                                                                constellations: [.gps, .glonass, .galileo, .beidou]))
        link.run(for: 10_000_000_000)
        let status = link.configurator.status
        #expect(status.outcome(.constellations) == .refused)
        #expect(status.outcome(.rate) == .applied)
        #expect(twin.current.constellations == [.gps, .glonass, .sbas, .qzss])   // unchanged
        #expect(twin.refusals == 1)
        #expect(link.events.contains(.outcome(.constellations, .refused)))
    }

    @Test(arguments: [SimulatedUbloxReceiver.Generation.m9, .m10])
    func ubloxValsetGenerations(generation: SimulatedUbloxReceiver.Generation) {
        let twin = SimulatedUbloxReceiver(generation: generation, startNanoseconds: 0)
        let port = generation == .m9 ? 38400 : 9600
        var link = TwinLink(twin: twin, settings: Self.settings(nil, constellations: [.gps, .galileo, .beidou]), portBaudRate: port)
        link.run(for: 15_000_000_000)
        let status = link.configurator.status
        #expect(status.identity.family == .ublox(generation: generation == .m9 ? 9 : 10))
        #expect(status.identity.family?.commandSet == .ubxValset)
        for setting in [ReceiverSetting.baud, .sentences, .constellations, .rate] {
            #expect(status.outcome(setting) == .applied, "\(setting)")
        }
        #expect(twin.baudRate == 115200)
        #expect(twin.current.periodMilliseconds == 100)
        #expect(twin.current.constellations == [.gps, .galileo, .beidou])
    }

    @Test func legacyCommandsAreRefusedByAnM10() {
        // A profile that says "u-blox M8" in front of an M10: MON-VER corrects it before anything is sent.
        let twin = SimulatedUbloxReceiver(generation: .m10, startNanoseconds: 0)
        var link = TwinLink(twin: twin, settings: Self.settings(.ublox(generation: 8), baud: nil))
        link.run(for: 10_000_000_000)
        #expect(link.configurator.status.identity.family == .ublox(generation: 10))
        #expect(link.configurator.status.outcome(.rate) == .applied)
        // And the twin does refuse legacy CFG-RATE.
        var cmd = CommandBytes()
        UBXEncoder.cfgRate(measurementMilliseconds: 200, into: &cmd)
        let refusals = twin.refusals
        cmd.withBytes { twin.receive($0, nowNanoseconds: link.now) }
        #expect(twin.refusals == refusals + 1)
    }

    @Test func mediatekAndQuectel() {
        let mtk = SimulatedMediaTekReceiver(model: .mtk3339, startNanoseconds: 0)
        var a = TwinLink(twin: mtk, settings: Self.settings(nil, constellations: [.gps, .sbas, .qzss]))
        a.run(for: 20_000_000_000)
        let s = a.configurator.status
        #expect(s.identity.family == .mediatek)
        #expect(s.identity.model.string == "PA6H")
        #expect(s.outcome(.baud) == .applied)
        #expect(s.outcome(.rate) == .applied)
        #expect(s.outcome(.sentences) == .applied)
        // MTK3339: PMTK353 unsupported (flag 1); SBAS and QZSS acknowledged.
        #expect(s.outcome(.constellations) == .partlyApplied)
        #expect(s.lastRefusalFlag == 1)
        #expect(mtk.baudRate == 115200 && mtk.current.periodMilliseconds == 100)
        a.clearSeen()
        a.run(for: 2_000_000_000)
        #expect(abs(a.medianRMCIntervalMilliseconds - 100) < 1)
        #expect(a.seenTypes == ["RMC", "GGA", "GSA", "GSV", "GST"])

        let quectel = SimulatedMediaTekReceiver(model: .quectelL76B, startNanoseconds: 0)
        var b = TwinLink(twin: quectel, settings: Self.settings(nil, hertz: 5, constellations: [.gps, .beidou, .qzss], save: true))
        b.run(for: 20_000_000_000)
        let q = b.configurator.status
        #expect(q.identity.family == .quectel)
        #expect(q.outcome(.constellations) == .applied)
        #expect(q.outcome(.save) == .unsupported)
        #expect(quectel.current.constellations == [.gps, .beidou, .qzss])
        #expect(quectel.current.periodMilliseconds == 200)
    }

    @Test func badCommandsGetNAKsOrNothing() {
        let mtk = SimulatedMediaTekReceiver(model: .mtk3339, startNanoseconds: 0)
        let out = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { out.deallocate() }
        func send(_ text: String) -> String {
            Array(text.utf8).withUnsafeBytes { mtk.receive($0, nowNanoseconds: 0) }
            let n = mtk.transmit(nowNanoseconds: 10_000_000_000, into: out)
            return String(decoding: out[0..<n], as: UTF8.self)
        }
        _ = send("")
        #expect(send("$PMTK220,50*1B\r\n").hasPrefix("$PMTK001,220,0*"))          // 50 ms: too fast
        #expect(send("$PMTK220,200*2D\r\n").isEmpty)                               // bad checksum: silence
        #expect(send("$PMTK999*3B\r\n").contains("$PMTK001,999,1*"))                // unknown: unsupported
        #expect(mtk.garbageCommands == 1)

        let ublox = SimulatedUbloxReceiver(generation: .m8, startNanoseconds: 0)
        var cmd = CommandBytes()
        UBXEncoder.cfgRate(measurementMilliseconds: 10, into: &cmd)          // 100 Hz: NAK
        cmd.withBytes { ublox.receive($0, nowNanoseconds: 0) }
        UBXEncoder.cfgRate(measurementMilliseconds: 200, into: &cmd)
        cmd[8] ^= 0xFF                                                        // corrupt the checksum: nothing
        cmd.withBytes { ublox.receive($0, nowNanoseconds: 0) }
        #expect(ublox.refusals == 1 && ublox.acknowledgements == 0)
        #expect(ublox.garbageCommands == 1)
    }

    @Test func powerLossForgetsUnlessSaved() {
        let twin = SimulatedUbloxReceiver(generation: .m8, startNanoseconds: 0)
        var link = TwinLink(twin: twin, settings: Self.settings(.ublox(generation: 8), hertz: 5))
        link.run(for: 15_000_000_000)
        #expect(twin.baudRate == 115200 && twin.current.periodMilliseconds == 200)
        twin.powerCycle(nowNanoseconds: link.now)
        #expect(twin.baudRate == 9600 && twin.current.periodMilliseconds == 1000)
        // puckd notices (noise at 115200, then NMEA at 9600) and configures it again.
        link.run(for: 30_000_000_000)
        #expect(link.events.contains(.linkLost(from: 115200, to: 9600)))
        #expect(twin.baudRate == 115200 && twin.current.periodMilliseconds == 200)
        #expect(link.configurator.status.counters.completedRuns == 2)

        // With save = true the receiver keeps it through the next power cycle.
        let saving = SimulatedUbloxReceiver(generation: .m8, startNanoseconds: 0)
        var kept = TwinLink(twin: saving, settings: Self.settings(.ublox(generation: 8), hertz: 5, save: true))
        kept.run(for: 15_000_000_000)
        #expect(kept.configurator.status.outcome(.save) == .applied)
        saving.powerCycle(nowNanoseconds: kept.now)
        #expect(saving.baudRate == 115200 && saving.current.periodMilliseconds == 200)
    }

    @Test func restartTextTriggersReconfigurationAtTheSameSpeed() {
        let mtk = SimulatedMediaTekReceiver(model: .mtk3339, startNanoseconds: 0)
        var link = TwinLink(twin: mtk, settings: Self.settings(.mediatek, baud: nil))
        link.run(for: 10_000_000_000)
        #expect(mtk.current.periodMilliseconds == 100)
        mtk.powerCycle(nowNanoseconds: link.now)
        link.run(for: 10_000_000_000)
        #expect(link.events.contains(.configuring(.receiverRestarted)))
        #expect(mtk.current.periodMilliseconds == 100)
        #expect(link.configurator.status.counters.receiverRestarts == 1)
    }

    @Test func tooMuchForTheLineIsDropped() {
        // 10 Hz with every sentence at 9600 baud does not fit: the receiver drops what its buffer
        // cannot hold, which is why puckd switches the baud rate first.
        let twin = SimulatedUbloxReceiver(generation: .m8, startNanoseconds: 0)
        var link = TwinLink(twin: twin, settings: Self.settings(.ublox(generation: 8), baud: nil))
        link.run(for: 30_000_000_000)
        #expect(twin.current.periodMilliseconds == 100)
        #expect(twin.sentencesDropped > 0)
    }

    @Test func lineModelGarblesAWrongSpeed() {
        let text = Array("$GPRMC,123519,A,4807.038,N*00\r\n".utf8)
        let out = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 1)
        defer { out.deallocate() }
        let same = text.withUnsafeBytes { SerialLineModel.received($0, transmitBaud: 9600, receiveBaud: 9600, into: out) }
        #expect(Array(out[0..<same]) == text)
        let fast = text.withUnsafeBytes { SerialLineModel.received($0, transmitBaud: 9600, receiveBaud: 115200, into: out) }
        #expect(fast > 0 && !Array(out[0..<fast]).contains(UInt8(ascii: "$")))
        let slow = text.withUnsafeBytes { SerialLineModel.received($0, transmitBaud: 115200, receiveBaud: 9600, into: out) }
        #expect(slow < text.count / 4)
    }
}

/// The figures of the report: for each twin, the synthetic time from the port opening to the last
/// acknowledgement (a receiver at 1 Hz, 9600 baud; the full BerryGPS-style request: 10 Hz, 115200 baud,
/// the needed sentences, constellations), the commands and bytes it took. Deterministic (synthetic
/// clock), so the bounds are checked.
@Suite struct ReceiverConfigurationFigures {
    enum Twin: String, CaseIterable { case m8, m9, m10, mtk3339, l76b }

    @Test(arguments: Twin.allCases) func configurationTime(twin kind: Twin) {
        let twin: SimulatedGNSSReceiver
        var constellations: GNSSConstellations = [.gps, .galileo, .glonass, .sbas, .qzss]
        var port = 9600
        switch kind {
        case .m8: twin = SimulatedUbloxReceiver(generation: .m8, startNanoseconds: 0)
        case .m9: twin = SimulatedUbloxReceiver(generation: .m9, startNanoseconds: 0); port = 38400
        case .m10: twin = SimulatedUbloxReceiver(generation: .m10, startNanoseconds: 0)
        case .mtk3339: twin = SimulatedMediaTekReceiver(model: .mtk3339, startNanoseconds: 0); constellations = [.gps, .sbas, .qzss]
        case .l76b: twin = SimulatedMediaTekReceiver(model: .quectelL76B, startNanoseconds: 0); constellations = [.gps, .beidou, .qzss]
        }
        var link = TwinLink(twin: twin, settings: ReceiverTwinTests.settings(nil, constellations: constellations), portBaudRate: port)
        link.run(for: 30_000_000_000)
        let s = link.configurator.status
        #expect(s.phase == .done)
        let seconds = Double(s.lastRunNanoseconds) / 1e9
        print("figure: \(kind.rawValue): configured in \(seconds) s (synthetic), \(s.counters.commandsSent) commands, "
            + "\(s.counters.bytesWritten) bytes, \(s.counters.acknowledged) acknowledged, \(s.counters.refused) refused, "
            + "\(s.counters.timeouts) timeouts")
        #expect(seconds < 12)
        #expect(s.counters.timeouts <= 3)    // only the probe's unanswered part (MON-VER to a MediaTek, …)
    }
}
