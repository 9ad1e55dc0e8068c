import Testing
@testable import Receiver

/// The encoders against byte sequences published for these receivers (u-blox's own examples as
/// u-center prints them, MediaTek's and Quectel's command tables): docs/receivers.md cites them.
@Suite struct EncoderTests {
    static func hex(_ text: String) -> [UInt8] {
        text.split(separator: " ").map { UInt8($0, radix: 16)! }
    }

    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func monVerPoll() {
        var out = CommandBytes()
        UBXEncoder.poll(.monVer, into: &out)
        #expect(out.array == Self.hex("B5 62 0A 04 00 00 0E 34"))
    }

    @Test func cfgRate10And5Hertz() {
        var out = CommandBytes()
        UBXEncoder.cfgRate(measurementMilliseconds: 100, into: &out)
        #expect(out.array == Self.hex("B5 62 06 08 06 00 64 00 01 00 01 00 7A 12"))
        UBXEncoder.cfgRate(measurementMilliseconds: 200, into: &out)
        #expect(out.array == Self.hex("B5 62 06 08 06 00 C8 00 01 00 01 00 DE 6A"))
    }

    @Test func cfgMsgTurnsSentencesOff() {
        var out = CommandBytes()
        UBXEncoder.cfgMsg(.gll, rate: 0, into: &out)
        #expect(out.array == Self.hex("B5 62 06 01 03 00 F0 01 00 FB 11"))
        UBXEncoder.cfgMsg(.gsv, rate: 0, into: &out)
        #expect(out.array == Self.hex("B5 62 06 01 03 00 F0 03 00 FD 15"))
    }

    @Test func cfgPrt115200() {
        var out = CommandBytes()
        UBXEncoder.cfgPrtUART1(baudRate: 115200, into: &out)
        #expect(out.array == Self.hex("B5 62 06 00 14 00 01 00 00 00 D0 08 00 00 00 C2 01 00 07 00 03 00 00 00 00 00 C0 7E"))
    }

    @Test func cfgCfgSavesEverything() {
        var out = CommandBytes()
        UBXEncoder.cfgSaveAll(into: &out)
        #expect(out.array == Self.hex("B5 62 06 09 0D 00 00 00 00 00 FF FF 00 00 00 00 00 00 17 31 BF"))
    }

    @Test func cfgGnssBlocks() {
        var out = CommandBytes()
        UBXEncoder.cfgGnss([.gps, .galileo, .glonass, .sbas, .qzss], into: &out)
        let bytes = out.array
        #expect(bytes.count == 8 + 4 + 6 * 8)
        #expect(Array(bytes[6..<10]) == [0, 0, 0xFF, 6])
        // gnssId and enable bit of each block: GPS on, SBAS on, Galileo on, BeiDou off, QZSS on, GLONASS on.
        let ids = (0..<6).map { bytes[10 + 8 * $0] }
        let enabled = (0..<6).map { bytes[10 + 8 * $0 + 4] & 1 }
        #expect(ids == [0, 1, 2, 3, 5, 6])
        #expect(enabled == [1, 1, 1, 0, 1, 1])
        #expect(bytes[10 + 8 * 3 + 6] == 0x01)     // BeiDou B1I signal bit kept in sigCfgMask
        #expect(Self.checksumValid(bytes))
    }

    @Test func valsetRateAndBaud() {
        var settings = ReceiverSettings()
        settings.measurementPeriodMilliseconds = 100
        settings.baudRate = 115200
        var out = CommandBytes()
        #expect(ReceiverFamily.CommandSet.ubxValset.encode(.rate, part: 0, settings: settings, into: &out) == .ubx(.cfgValset))
        // version 0, layer RAM, reserved; CFG-RATE-MEAS (0x30210001) = 100; CFG-RATE-NAV (0x30210002) = 1
        #expect(out.array == Self.hex("B5 62 06 8A 10 00 00 01 00 00 01 00 21 30 64 00 02 00 21 30 01 00")
            + Self.fletcher(Self.hex("06 8A 10 00 00 01 00 00 01 00 21 30 64 00 02 00 21 30 01 00")))
        _ = ReceiverFamily.CommandSet.ubxValset.encode(.baud, part: 0, settings: settings, into: &out)
        #expect(Array(out.array[6..<18]) == Self.hex("00 01 00 00 01 00 52 40 00 C2 01 00"))
    }

    @Test func valsetSentencesHasEveryManagedKey() {
        var settings = ReceiverSettings()
        settings.sentences = .needed
        var out = CommandBytes()
        _ = ReceiverFamily.CommandSet.ubxValset.encode(.sentences, part: 0, settings: settings, into: &out)
        let bytes = out.array
        #expect(bytes.count == 8 + 4 + 13 * 5)
        #expect(Self.checksumValid(bytes))
        // GGA (0x209100bb) is on, GLL (0x209100ca) off.
        #expect(Array(bytes[10..<15]) == Self.hex("BB 00 91 20 01"))
        #expect(Array(bytes[15..<20]) == Self.hex("CA 00 91 20 00"))
    }

    @Test func pmtkSentences() {
        var out = CommandBytes()
        PMTKEncoder.fixInterval(periodMilliseconds: 100, into: &out)
        #expect(out.array == Self.ascii("$PMTK220,100*2F\r\n"))
        PMTKEncoder.fixInterval(periodMilliseconds: 1000, into: &out)
        #expect(out.array == Self.ascii("$PMTK220,1000*1F\r\n"))
        PMTKEncoder.baudRate(115200, into: &out)
        #expect(out.array == Self.ascii("$PMTK251,115200*1F\r\n"))
        PMTKEncoder.baudRate(38400, into: &out)
        #expect(out.array == Self.ascii("$PMTK251,38400*27\r\n"))
        PMTKEncoder.queryRelease(into: &out)
        #expect(out.array == Self.ascii("$PMTK605*31\r\n"))
        PMTKEncoder.searchMode([.gps, .glonass], into: &out)
        #expect(out.array == Self.ascii("$PMTK353,1,1,0,0,0*2B\r\n"))
        PMTKEncoder.searchMode([.gps, .glonass, .galileo], into: &out)
        #expect(out.array == Self.ascii("$PMTK353,1,1,1,0,0*2A\r\n"))
        PMTKEncoder.qzss(true, into: &out)
        #expect(out.array == Self.ascii("$PMTK352,0*2A\r\n"))
        PMTKEncoder.qzss(false, into: &out)
        #expect(out.array == Self.ascii("$PMTK352,1*2B\r\n"))
        PMTKEncoder.outputSentences(NMEASentenceSet(.rmc), into: &out)
        #expect(out.array == Self.ascii("$PMTK314,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0*29\r\n"))
        PMTKEncoder.queryQuectelVersion(into: &out)
        #expect(out.array == Self.ascii("$PQVERNO,R*3F\r\n"))
    }

    @Test func pmtkSentenceFieldsFollowTheTable() {
        var out = CommandBytes()
        PMTKEncoder.outputSentences([.init(.gga), .init(.rmc), .init(.gsa), .init(.gsv), .init(.zda)], into: &out)
        let text = String(decoding: out.array, as: UTF8.self)
        #expect(text.hasPrefix("$PMTK314,0,1,0,1,1,1,0,0,0,0,0,0,0,0,0,0,0,1,0*"))
    }

    @Test func probeCarriesBothQueries() {
        var out = CommandBytes()
        ReceiverFamily.CommandSet.encodeProbe(for: nil, into: &out)
        #expect(out.array == Self.hex("B5 62 0A 04 00 00 0E 34") + Self.ascii("$PMTK605*31\r\n"))
        ReceiverFamily.CommandSet.encodeProbe(for: .quectel, into: &out)
        #expect(out.array == Self.ascii("$PMTK605*31\r\n$PQVERNO,R*3F\r\n"))
    }

    @Test func commandBytesKeepsTheCapacity() {
        var out = CommandBytes()
        for _ in 0..<(CommandBytes.capacity + 5) { out.append(0x41) }
        #expect(out.count == CommandBytes.capacity)
        #expect(out.overflowed)
    }

    static func fletcher(_ body: [UInt8]) -> [UInt8] {
        var a: UInt8 = 0, b: UInt8 = 0
        for x in body { a = a &+ x; b = b &+ a }
        return [a, b]
    }

    static func checksumValid(_ frame: [UInt8]) -> Bool {
        fletcher(Array(frame[2..<(frame.count - 2)])) == Array(frame.suffix(2))
    }
}
