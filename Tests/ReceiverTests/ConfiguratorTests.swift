import Testing
import TestSupport
@testable import Receiver

/// The configuration state machine with scripted replies: acknowledgements, refusals, silence and
/// retries, identification, the baud switch and its fall-back, restarts, link loss.
@Suite struct ConfiguratorTests {
    static let rmc = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A"

    static func mtkSettings() -> ReceiverSettings {
        var s = ReceiverSettings()
        s.family = .mediatek
        s.measurementPeriodMilliseconds = 100
        s.sentences = .needed
        return s
    }

    /// Answers every PMTK command with `$PMTK001,CMD,flag` (flag from `flags`, default 3).
    static func answerPMTK(_ link: inout ScriptedLink, flags: [Int: Int] = [:], lastAnswered: inout Int) {
        guard link.written.count > lastAnswered else { return }
        lastAnswered = link.written.count
        let written = link.lastText
        guard let start = written.firstRange(of: "$PMTK")?.lowerBound else { return }   // a probe starts with MON-VER
        let text = written[start...]
        guard text.count >= 8, let command = Int(text.dropFirst(5).prefix(3)) else { return }
        if command == 605 {
            link.sentence("$PMTK705,AXN_2.31_3339_13101700,5632,PA6H,1.0*6B")
        } else if command != 251 {
            link.sentence("$PMTK001,\(command),\(flags[command] ?? 3)*00")
        }
    }

    @Test func sendsNothingBeforeTheReceiverSpeaks() {
        var link = ScriptedLink(Self.mtkSettings())
        link.run(for: 5_000_000_000)
        #expect(link.written.isEmpty)
        #expect(link.configurator.status.phase == .waitingForReceiver)
    }

    @Test func mediatekRateAndSentencesAcknowledged() {
        var link = ScriptedLink(Self.mtkSettings())
        var answered = 0
        link.run(for: 4_000_000_000) { l in
            if l.now % 200_000_000 == 0 { l.sentence(Self.rmc) }
            Self.answerPMTK(&l, lastAnswered: &answered)
        }
        let texts = link.written.map { String(decoding: $0, as: UTF8.self) }
        #expect(texts == ["$PMTK605*31\r\n", "$PMTK314,0,1,0,1,1,1,0,1,0,0,0,0,0,0,0,0,0,0,0*29\r\n", "$PMTK220,100*2F\r\n"])
        let status = link.configurator.status
        #expect(status.phase == .done)
        #expect(status.outcome(.rate) == .applied)
        #expect(status.outcome(.sentences) == .applied)
        #expect(status.outcome(.baud) == .notAsked)
        #expect(status.identity.model.string == "PA6H")
        #expect(status.counters.acknowledged == 2)
        #expect(link.events.contains(.outcome(.rate, .applied)))
        #expect(link.events.last == .finished)
    }

    @Test func refusalIsFinalAndSilenceIsRetried() {
        var s = Self.mtkSettings()
        s.constellations = [.gps, .glonass, .sbas, .qzss]
        var link = ScriptedLink(s)
        var answered = 0
        var silent353 = 0
        link.run(for: 20_000_000_000) { l in
            if l.now % 200_000_000 == 0 { l.sentence(Self.rmc) }
            // The receiver ignores PMTK353 twice, then says "unsupported"; it refuses 313 as invalid.
            if l.written.count > answered, l.lastText.hasPrefix("$PMTK353"), silent353 < 2 {
                silent353 += 1
                answered = l.written.count
                return
            }
            Self.answerPMTK(&l, flags: [353: 1, 313: 0], lastAnswered: &answered)
        }
        let status = link.configurator.status
        #expect(status.outcome(.constellations) == .partlyApplied)     // 352 acknowledged
        #expect(status.lastRefusalFlag == 0)
        #expect(status.counters.retries == 2)
        #expect(status.counters.timeouts == 2)
        #expect(status.counters.refused == 2)
        #expect(link.written.filter { String(decoding: $0, as: UTF8.self).hasPrefix("$PMTK353") }.count == 3)
        #expect(status.outcome(.rate) == .applied)
    }

    @Test func noAnswerAfterEveryAttempt() {
        var link = ScriptedLink(Self.mtkSettings())
        link.run(for: 20_000_000_000) { l in if l.now % 200_000_000 == 0 { l.sentence(Self.rmc) } }
        let status = link.configurator.status
        // The profile named the family: one probe, then three tries of each command.
        #expect(link.written.count == 1 + 3 + 3)
        #expect(status.outcome(.sentences) == .noAnswer)
        #expect(status.outcome(.rate) == .noAnswer)
        #expect(status.phase == .done)
        #expect(status.hasProblem)
    }

    @Test func anUnrecognizedReceiverGetsNothingButTheProbes() {
        var s = Self.mtkSettings()
        s.family = nil
        var link = ScriptedLink(s)
        link.run(for: 10_000_000_000) { l in if l.now % 200_000_000 == 0 { l.sentence(Self.rmc) } }
        #expect(link.written.count == 3)
        #expect(link.written.allSatisfy { $0 == link.written[0] })
        #expect(link.configurator.status.phase == .unrecognized)
        #expect(link.configurator.status.outcome(.rate) == .notSent)
        #expect(link.events.contains(.notRecognized))
    }

    @Test func ubloxNakAndAck() {
        var s = ReceiverSettings()
        s.family = .ublox(generation: 8)
        s.measurementPeriodMilliseconds = 200
        s.constellations = [.gps, .glonass, .galileo, .beidou]
        var link = ScriptedLink(s)
        var answered = 0
        link.run(for: 6_000_000_000) { l in
            if l.now % 200_000_000 == 0 { l.sentence(Self.rmc) }
            guard l.written.count > answered, let frame = l.written.last, frame.count >= 8, frame[0] == 0xB5 else { return }
            answered = l.written.count
            let id = UBXMessageID(frame[2], frame[3])
            if id == .monVer { return }               // the module has UBX replies off for polls: silence
            l.ubx(id == .cfgGnss ? .ackNak : .ackAck, [id.messageClass, id.id])
        }
        let status = link.configurator.status
        #expect(status.outcome(.constellations) == .refused)
        #expect(status.outcome(.rate) == .applied)
        #expect(status.lastRefusalFlag == -1)
        #expect(status.identity.family == .ublox(generation: 8))
    }

    @Test func legacySentencesPartlyRefused() {
        var s = ReceiverSettings()
        s.family = .ublox(generation: 8)
        s.sentences = .needed
        var link = ScriptedLink(s)
        var answered = 0
        link.run(for: 6_000_000_000) { l in
            if l.now % 200_000_000 == 0 { l.sentence(Self.rmc) }
            guard l.written.count > answered, let f = l.written.last, f[0] == 0xB5 else { return }
            answered = l.written.count
            let id = UBXMessageID(f[2], f[3])
            guard id == .cfgMsg else { return }
            // An older firmware without VLW and GNS: NAK for those.
            l.ubx(f[7] == 0x0F || f[7] == 0x0D ? .ackNak : .ackAck, [0x06, 0x01])
        }
        let status = link.configurator.status
        #expect(status.outcome(.sentences) == .partlyApplied)
        #expect(status.refusedSentences == [NMEASentenceSet(.vlw), NMEASentenceSet(.gns)])
        #expect(link.written.filter { $0[3] == 0x01 }.count == 13)
    }

    @Test func baudSwitchVerifiedAtTheNewRate() {
        var s = Self.mtkSettings()
        s.baudRate = 115200
        var link = ScriptedLink(s)
        var answered = 0
        var receiverBaud = 9600
        link.run(for: 8_000_000_000) { l in
            if l.written.count > answered, l.lastText.hasPrefix("$PMTK251,115200") {
                receiverBaud = 115200
                answered = l.written.count
            }
            // Sentences are only readable when both ends agree.
            if l.now % 100_000_000 == 0 {
                if receiverBaud == l.configurator.status.portBaudRate { l.sentence(Self.rmc) } else { l.noise(80) }
            }
            Self.answerPMTK(&l, lastAnswered: &answered)
        }
        #expect(link.portRates == [115200])
        let status = link.configurator.status
        #expect(status.outcome(.baud) == .applied)
        #expect(status.portBaudRate == 115200)
        #expect(link.events.contains(.baudSwitched(from: 9600, to: 115200)))
        #expect(status.outcome(.rate) == .applied)
        // The line-speed command goes first, before the commands that add traffic.
        #expect(String(decoding: link.written[1], as: UTF8.self).hasPrefix("$PMTK251,115200"))
    }

    @Test func baudSwitchFallsBackWhenTheReceiverStays() {
        var s = Self.mtkSettings()
        s.baudRate = 115200
        var link = ScriptedLink(s)
        var answered = 0
        link.run(for: 12_000_000_000) { l in
            if l.now % 100_000_000 == 0 {
                if l.configurator.status.portBaudRate == 9600 { l.sentence(Self.rmc) } else { l.noise(80) }
            }
            Self.answerPMTK(&l, lastAnswered: &answered)
        }
        #expect(link.portRates == [115200, 9600])
        let status = link.configurator.status
        #expect(status.outcome(.baud) == .refused)
        #expect(status.portBaudRate == 9600)
        #expect(link.events.contains(.baudFellBack(tried: 115200, back: 9600)))
        #expect(status.outcome(.rate) == .applied)       // the rest goes on at the old speed
    }

    @Test func restartAnnouncementConfiguresAgain() {
        var link = ScriptedLink(Self.mtkSettings())
        var answered = 0
        link.run(for: 4_000_000_000) { l in
            if l.now % 200_000_000 == 0 { l.sentence(Self.rmc) }
            Self.answerPMTK(&l, lastAnswered: &answered)
        }
        #expect(link.configurator.status.counters.completedRuns == 1)
        let before = link.written.count
        link.sentence("$PMTK011,MTKGPS*08")
        link.sentence("$PMTK010,001*2E")
        link.run(for: 4_000_000_000) { l in
            if l.now % 200_000_000 == 0 { l.sentence(Self.rmc) }
            Self.answerPMTK(&l, lastAnswered: &answered)
        }
        #expect(link.configurator.status.counters.completedRuns == 2)
        #expect(link.configurator.status.counters.receiverRestarts == 1)
        // A restart may be another receiver: it is asked who it is again, then the two commands.
        #expect(link.written.count == before + 3)
        #expect(String(decoding: link.written[before], as: UTF8.self) == "$PMTK605*31\r\n")
        #expect(link.events.contains(.configuring(.receiverRestarted)))
    }

    @Test func anotherReceiverAfterARestartGetsItsOwnCommands() {
        var s = Self.mtkSettings()
        s.family = nil
        var link = ScriptedLink(s)
        var answered = 0
        link.run(for: 6_000_000_000) { l in
            if l.now % 200_000_000 == 0 { l.sentence(Self.rmc) }
            Self.answerPMTK(&l, lastAnswered: &answered)
        }
        #expect(link.configurator.status.identity.family == .mediatek)
        // A u-blox M8 is plugged in instead: its start-up text.
        for line in ["$GNTXT,01,01,02,u-blox AG - www.u-blox.com*4E", "$GNTXT,01,01,02,HW UBX-M8030 00080000*60",
                     "$GNTXT,01,01,02,PROTVER=18.00*11"] { link.sentence(line) }
        let before = link.written.count
        answered = before
        link.run(for: 6_000_000_000) { l in
            if l.now % 200_000_000 == 0 { l.sentence(Self.rmc) }
            guard l.written.count > answered, let f = l.written.last, f[0] == 0xB5 else { return }
            answered = l.written.count
            if f[2] == 0x06 { l.ubx(.ackAck, [f[2], f[3]]) }
        }
        #expect(link.configurator.status.identity.family == .ublox(generation: 8))
        #expect(link.written[before...].allSatisfy { $0[0] == 0xB5 })
        #expect(link.configurator.status.outcome(.rate) == .applied)
        #expect(link.configurator.status.counters.completedRuns == 2)
    }

    @Test func nmeaAfterASilenceConfiguresAgain() {
        var link = ScriptedLink(Self.mtkSettings())
        var answered = 0
        link.run(for: 4_000_000_000) { l in
            if l.now % 200_000_000 == 0 { l.sentence(Self.rmc) }
            Self.answerPMTK(&l, lastAnswered: &answered)
        }
        link.run(for: 4_000_000_000)                          // power off: not a byte
        link.run(for: 4_000_000_000) { l in
            if l.now % 200_000_000 == 0 { l.sentence(Self.rmc) }
            Self.answerPMTK(&l, lastAnswered: &answered)
        }
        #expect(link.events.contains(.configuring(.linkRestored)))
        #expect(link.configurator.status.counters.completedRuns == 2)
    }

    @Test func lostLineSpeedIsHuntedBetweenTheTwoRates() {
        var s = Self.mtkSettings()
        s.baudRate = 115200
        var link = ScriptedLink(s)
        var answered = 0
        var receiverBaud = 9600
        let step: (inout ScriptedLink) -> Void = { l in
            if l.written.count > answered, l.lastText.hasPrefix("$PMTK251,115200") { receiverBaud = 115200 }
            if l.now % 100_000_000 == 0 {
                if receiverBaud == l.configurator.status.portBaudRate { l.sentence(Self.rmc) } else { l.noise(80) }
            }
            Self.answerPMTK(&l, lastAnswered: &answered)
        }
        link.run(for: 8_000_000_000, each: step)
        #expect(link.configurator.status.portBaudRate == 115200)
        receiverBaud = 9600                                   // power loss: back to the factory speed
        link.run(for: 16_000_000_000, each: step)
        #expect(link.events.contains(.linkLost(from: 115200, to: 9600)))
        #expect(link.events.contains(.configuring(.linkRestored)))
        #expect(link.configurator.status.portBaudRate == 115200)
        #expect(receiverBaud == 115200)
        #expect(link.configurator.status.outcome(.baud) == .applied)
        #expect(link.configurator.status.counters.completedRuns == 2)
    }

    @Test func neverAndUnwritableStayOff() {
        var s = Self.mtkSettings()
        s.mode = .never
        var never = ScriptedLink(s)
        never.run(for: 3_000_000_000) { l in if l.now % 200_000_000 == 0 { l.sentence(Self.rmc) } }
        #expect(never.written.isEmpty)
        #expect(never.configurator.status.phase == .off)
        #expect(never.configurator.status.offReason == .configuredNever)
        var file = ScriptedLink(Self.mtkSettings(), writable: false)
        file.run(for: 3_000_000_000) { l in if l.now % 200_000_000 == 0 { l.sentence(Self.rmc) } }
        #expect(file.written.isEmpty)
        #expect(file.configurator.status.offReason == .sourceNotWritable)
    }

    @Test func nothingAskedOnlyListensAndRecognizes() {
        var link = ScriptedLink(ReceiverSettings())
        link.run(for: 3_000_000_000) { l in
            if l.now == 1_500_000_000 { l.sentence("$GPTXT,01,01,02,u-blox ag - www.u-blox.com*50") }
            if l.now % 200_000_000 == 0 { l.sentence(Self.rmc) }
        }
        #expect(link.written.isEmpty)
        #expect(link.configurator.status.phase == .listening)
        #expect(link.configurator.status.identity.family == .ublox(generation: 0))
    }

    @Test func wrongFamilyInTheProfileIsCorrected() {
        var s = Self.mtkSettings()
        s.family = .ublox(generation: 8)
        var link = ScriptedLink(s)
        var answered = 0
        link.run(for: 12_000_000_000) { l in
            if l.now % 200_000_000 == 0 { l.sentence(Self.rmc) }
            // The probe of a "u-blox" profile is MON-VER only: the MediaTek behind it ignores it but
            // says who it is once (as its start-up text would).
            if l.written.count > answered, let f = l.written.last, f[0] == 0xB5 {
                answered = l.written.count
                l.sentence("$PMTK705,AXN_2.31_3339_13101700,5632,PA6H,1.0*6B")
                return
            }
            Self.answerPMTK(&l, lastAnswered: &answered)
        }
        #expect(link.configurator.status.identity.family == .mediatek)
        #expect(link.configurator.status.outcome(.rate) == .applied)
        #expect(link.written.contains { String(decoding: $0, as: UTF8.self) == "$PMTK220,100*2F\r\n" })
    }

    @Test func aRunAllocatesNothing() {
        var s = Self.mtkSettings()
        s.baudRate = 115200
        s.constellations = [.gps, .glonass]
        func oneRun() -> ScriptedLink.Counts {
            var link = ScriptedLink.Counts(settings: s)
            link.run()
            return link
        }
        _ = oneRun()
        var result = ScriptedLink.Counts(settings: s)
        let allocations = allocationCount { result.run() }
        #expect(allocations == 0)
        #expect(result.writes >= 5)
    }
}

extension ScriptedLink {
    /// A whole MediaTek run with no arrays (for the allocation proof): answers each command at once.
    struct Counts {
        var configurator: ReceiverConfigurator
        var writes = 0
        var now: Int64 = 0

        init(settings: ReceiverSettings) {
            configurator = ReceiverConfigurator(settings: settings, portBaudRate: 9600)
            configurator.portOpened(portBaudRate: 9600, nowNanoseconds: 0)
        }

        mutating func run() {
            let rmc: StaticString = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"
            var reply = CommandBytes()
            while now < 20_000_000_000 {
                now += 10_000_000
                if now % 100_000_000 == 0 {
                    configurator.observe(sentence: UnsafeRawBufferPointer(start: rmc.utf8Start, count: rmc.utf8CodeUnitCount),
                                         verified: true, nowNanoseconds: now)
                }
                switch configurator.poll(nowNanoseconds: now) {
                case .write:
                    writes += 1
                    configurator.commandWritten(configurator.command.count, nowNanoseconds: now)
                    // "$PMTKnnn…" → "$PMTK001,nnn,3"
                    let c = configurator.command
                    let probe = c[5] == UInt8(ascii: "6")
                    let baud = c[5] == UInt8(ascii: "2") && c[6] == UInt8(ascii: "5")
                    if c[0] == UInt8(ascii: "$") && !probe && !baud {
                        PMTKEncoder.begin("PMTK001,", into: &reply)
                        reply.append(c[5]); reply.append(c[6]); reply.append(c[7])
                        reply.append(",3")
                        reply.withBytes { configurator.observe(sentence: $0, verified: true, nowNanoseconds: now) }
                    }
                case .setPortBaudRate, .none:
                    break
                }
                while configurator.popEvent() != nil {}
            }
        }
    }
}
