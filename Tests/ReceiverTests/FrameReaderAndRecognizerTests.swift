import Testing
@testable import Receiver

/// The UBX frame reader on split, corrupted and mixed streams, and the recognizer on what real
/// receivers print (u-blox M8 start-up text, MediaTek and Quectel version replies).
@Suite struct FrameReaderAndRecognizerTests {
    /// ACK-ACK for CFG-RATE.
    static let ackRate: [UInt8] = [0xB5, 0x62, 0x05, 0x01, 0x02, 0x00, 0x06, 0x08, 0x16, 0x3F]

    static func frames(_ bytes: [UInt8], chunk: Int = 1) -> (ids: [UBXMessageID], payloads: [[UInt8]], reader: UBXFrameReader) {
        var reader = UBXFrameReader()
        var ids: [UBXMessageID] = []
        var payloads: [[UInt8]] = []
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = min(chunk, raw.count - offset)
                reader.feed(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + n])) { id, payload in
                    ids.append(id)
                    payloads.append(Array(payload))
                }
                offset += n
            }
        }
        return (ids, payloads, reader)
    }

    @Test(arguments: [1, 3, 7, 64]) func readsFramesBetweenNMEAInAnyChunking(chunk: Int) {
        let stream = Array("$GNRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n".utf8)
            + Self.ackRate + Array("$GNGGA,1*00\r\n".utf8) + Self.ackRate
        let result = Self.frames(stream, chunk: chunk)
        #expect(result.ids == [.ackAck, .ackAck])
        #expect(result.payloads == [[0x06, 0x08], [0x06, 0x08]])
        #expect(result.reader.counters.delivered == 2)
        #expect(result.reader.counters.badChecksums == 0)
    }

    @Test func dropsABadChecksumAndKeepsTheNextFrame() {
        var corrupt = Self.ackRate
        corrupt[7] = 0x09
        let result = Self.frames(corrupt + Self.ackRate, chunk: 4)
        #expect(result.ids == [.ackAck])
        #expect(result.reader.counters.badChecksums == 1)
        #expect(result.reader.counters.frames == 2)
    }

    @Test func aFalseStartWithAHugeLengthDoesNotSwallowTheReplies() {
        // B5 62 in noise followed by a length of 0xFFFF: the reader must resynchronise at once.
        let noise: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0xFF, 0xFF, 0x00]
        let result = Self.frames(noise + Self.ackRate)
        #expect(result.ids == [.ackAck])
        #expect(result.reader.counters.oversized == 1)
    }

    @Test func nakPayloadBecomesAReply() {
        let nak: [UInt8] = [0x06, 0x3E]
        let reply = nak.withUnsafeBytes { ReceiverReply.from(ubx: .ackNak, payload: $0) }
        #expect(reply == .ubxNak(.cfgGnss))
        let pmtk = Array("$PMTK001,220,3".utf8).withUnsafeBytes { ReceiverReply.from(sentence: $0) }
        #expect(pmtk == .pmtk(command: 220, flag: 3))
        let extra = Array("$PMTK001,353,3,1,1,0,0,0".utf8).withUnsafeBytes { ReceiverReply.from(sentence: $0) }
        #expect(extra == .pmtk(command: 353, flag: 3))
        let other = Array("$PMTK705,AXN".utf8).withUnsafeBytes { ReceiverReply.from(sentence: $0) }
        #expect(other == nil)
    }

    static func observe(_ lines: [String], into identity: inout ReceiverIdentity) -> ReceiverRecognizer.Clue {
        var clue: ReceiverRecognizer.Clue = []
        for line in lines {
            let body = line.split(separator: "*", maxSplits: 1)[0]
            clue.formUnion(Array(body.utf8).withUnsafeBytes { ReceiverRecognizer.observe(sentence: $0, into: &identity) })
        }
        return clue
    }

    @Test func ubloxM8StartUpText() {
        // What a CAM-M8C prints after power-on (ROM 3.01, protocol 18).
        var identity = ReceiverIdentity()
        let clue = Self.observe([
            "$GNTXT,01,01,02,u-blox AG - www.u-blox.com*4E",
            "$GNTXT,01,01,02,HW UBX-M8030 00080000*60",
            "$GNTXT,01,01,02,ROM CORE 3.01 (107888)*2B",
            "$GNTXT,01,01,02,FWVER=SPG 3.01*46",
            "$GNTXT,01,01,02,PROTVER=18.00*11",
            "$GNTXT,01,01,02,MOD=CAM-M8C-0*6F",
        ], into: &identity)
        #expect(clue.contains(.restarted))
        #expect(identity.family == .ublox(generation: 8))
        #expect(identity.protocolVersion == 1800)
        #expect(identity.hardware.string == "00080000")
        #expect(identity.firmware.string == "SPG 3.01")
        #expect(identity.model.string == "CAM-M8C-0")
        #expect(identity.family?.commandSet == .ubxLegacy)
    }

    @Test func monVerOfAnM10() {
        var payload = [UInt8](repeating: 0, count: 40 + 3 * 30)
        func put(_ text: String, at offset: Int) { for (i, b) in text.utf8.enumerated() { payload[offset + i] = b } }
        put("ROM SPG 5.10 (7b202e)", at: 0)
        put("000A0000", at: 30)
        put("FWVER=SPG 5.10", at: 40)
        put("PROTVER=34.10", at: 70)
        put("MOD=MAX-M10S", at: 100)
        var identity = ReceiverIdentity()
        let clue = payload.withUnsafeBytes { ReceiverRecognizer.observe(ubx: .monVer, payload: $0, into: &identity) }
        #expect(clue.contains(.identity))
        #expect(identity.family == .ublox(generation: 10))
        #expect(identity.evidence == .versionReply)
        #expect(identity.protocolVersion == 3410)
        #expect(identity.model.string == "MAX-M10S")
        #expect(identity.family?.commandSet == .ubxValset)
    }

    @Test func aMediaTekAfterAUbloxKeepsNoneOfItsTexts() {
        // A u-blox known from its start-up text, then another receiver on the line whose $PMTK011 comes
        // before its $PMTK010,001: the MediaTek must not be logged with the CAM-M8C's model, firmware
        // and protocol (seen in the HIL receiver scenario when the twin was swapped).
        var identity = ReceiverIdentity()
        _ = Self.observe([
            "$GNTXT,01,01,02,u-blox AG - www.u-blox.com*4E",
            "$GNTXT,01,01,02,HW UBX-M8030 00080000*60",
            "$GNTXT,01,01,02,FWVER=SPG 3.01*46",
            "$GNTXT,01,01,02,PROTVER=18.00*11",
            "$GNTXT,01,01,02,MOD=CAM-M8C-0*6F",
        ], into: &identity)
        #expect(identity.evidence == .announcement)
        let clue = Self.observe(["$PMTK011,MTKGPS*08"], into: &identity)
        #expect(clue.contains(.identity))
        #expect(identity.family == .mediatek)
        #expect(identity.model.string == "")
        #expect(identity.firmware.string == "")
        #expect(identity.hardware.string == "")
        #expect(identity.protocolVersion == 0)
        // Quectel and MediaTek share the PMTK texts: learning one from the other keeps them.
        _ = Self.observe(["$PMTK705,AXN_2.31_3339_13101700,5632,PA6H,1.0*6B"], into: &identity)
        identity.learn(.quectel, evidence: .versionReply)
        #expect(identity.model.string == "PA6H")
    }

    @Test func mediatekAndQuectelVersionReplies() {
        var mtk = ReceiverIdentity()
        _ = Self.observe(["$PMTK705,AXN_2.31_3339_13101700,5632,PA6H,1.0*6B"], into: &mtk)
        #expect(mtk.family == .mediatek)
        #expect(mtk.model.string == "PA6H")
        #expect(mtk.firmware.string == "AXN_2.31_3339_13101700")

        var quectel = ReceiverIdentity()
        _ = Self.observe(["$PMTK705,AXN_5.1.6_3333_19010218,0007,Quectel-L76L,1.0*53"], into: &quectel)
        #expect(quectel.family == .quectel)
        #expect(quectel.family?.commandSet == .pmtk)
        // A later PMTK start-up message does not turn the Quectel back into a plain MediaTek.
        let clue = Self.observe(["$PMTK011,MTKGPS*08", "$PMTK010,001*2E"], into: &quectel)
        #expect(clue.contains(.restarted))
        #expect(quectel.family == .quectel)

        var pq = ReceiverIdentity()
        _ = Self.observe(["$PQVERNO,R,L76BNR02A01S,2016/09/09,10:19*00"], into: &pq)
        #expect(pq.family == .quectel)
        #expect(pq.firmware.string == "L76BNR02A01S")
    }

    @Test func plainNMEATellsNothing() {
        var identity = ReceiverIdentity()
        let clue = Self.observe(["$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47",
                                 "$PMTK010,002*2D"], into: &identity)
        #expect(!clue.contains(.restarted))   // 010,002 asks for EPO data: not a restart
        #expect(identity.family == .mediatek)
    }

    @Test func configurationEvidenceYieldsToAVersionReply() {
        var identity = ReceiverIdentity()
        identity.learn(.ublox(generation: 8), evidence: .configuration)
        identity.learn(.mediatek, evidence: .traffic)
        #expect(identity.family == .ublox(generation: 8))
        identity.learn(.mediatek, evidence: .versionReply)
        #expect(identity.family == .mediatek)
    }
}
