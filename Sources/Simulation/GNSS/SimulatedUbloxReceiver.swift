import Hardware
import Receiver

/// A u-blox receiver twin that speaks UBX as the M8, M9 and M10 interface descriptions have it
/// (docs/receivers.md): MON-VER answers a poll; the M8 takes CFG-RATE, CFG-PRT, CFG-MSG and CFG-GNSS
/// (refusing more than three major systems at once) and NAKs CFG-VALSET; the M9/M10 take CFG-VALSET
/// and NAK the legacy messages; CFG-CFG saves to battery-backed RAM. Every command with a valid
/// checksum gets UBX-ACK-ACK or ACK-NAK; a bad checksum gets nothing. A baud change takes effect
/// after the acknowledgement has left (CFG-PRT), or at once (CFG-VALSET, as u-blox 9 does).
public final class SimulatedUbloxReceiver: SimulatedGNSSReceiver {
    /// Which generation it is.
    public enum Generation: Sendable {
        /// CAM-M8C (BerryGPS-IMU), ROM 3.01, protocol 18.00.
        case m8
        /// NEO-M9N, SPG 4.04, protocol 32.01.
        case m9
        /// MAX-M10S, SPG 5.10, protocol 34.10.
        case m10
    }

    public let generation: Generation
    private var reader = UBXFrameReader()
    private var reply = CommandBytes()

    /// A receiver at its factory settings: 9600 baud (M9: 38400), 1 Hz, GGA GLL GSA GSV RMC VTG,
    /// GPS + GLONASS + SBAS + QZSS.
    public init(generation: Generation, startNanoseconds: Int64) {
        self.generation = generation
        let sentences: NMEASentenceSet = [.init(.gga), .init(.gll), .init(.gsa), .init(.gsv), .init(.rmc), .init(.vtg)]
        let factory = Configuration(baudRate: generation == .m9 ? 38400 : 9600, periodMilliseconds: 1000,
                                    sentences: sentences, constellations: [.gps, .glonass, .sbas, .qzss])
        super.init(factory: factory, outputOrder: [.rmc, .vtg, .gga, .gsa, .gsv, .gll, .gst, .zda, .gns, .grs, .gbs, .dtm, .vlw],
                   startNanoseconds: startNanoseconds)
    }

    private var legacy: Bool { generation == .m8 }

    public override func writeStartUpText(into out: inout SentenceBuilder) {
        let lines: [StaticString]
        switch generation {
        case .m8: lines = ["u-blox AG - www.u-blox.com", "HW UBX-M8030 00080000", "ROM CORE 3.01 (107888)",
                           "FWVER=SPG 3.01", "PROTVER=18.00", "MOD=CAM-M8C-0", "GPS;GLO;GAL;BDS", "SBAS;IMES;QZSS"]
        case .m9: lines = ["u-blox AG - www.u-blox.com", "HW UBX 9 00190000", "EXT CORE 4.04 (7f89f7)",
                           "FWVER=SPG 4.04", "PROTVER=32.01", "MOD=NEO-M9N-00B"]
        case .m10: lines = ["u-blox AG - www.u-blox.com", "HW UBX 10 000A0000", "ROM SPG 5.10 (7b202e)",
                            "FWVER=SPG 5.10", "PROTVER=34.10", "MOD=MAX-M10S"]
        }
        for line in lines {
            out.begin(address: "GNTXT,01,01,02,")
            out.text(line)
            out.end()
        }
    }

    public override func receive(_ bytes: UnsafeRawBufferPointer, nowNanoseconds now: Int64) {
        guard !poweredOff else { return }
        let before = reader.counters.badChecksums
        reader.feed(bytes) { id, payload in handle(id, payload, now) }
        garbageCommands += Int(reader.counters.badChecksums - before)
    }

    private func handle(_ id: UBXMessageID, _ payload: UnsafeRawBufferPointer, _ now: Int64) {
        commandsReceived += 1
        if id == .monVer && payload.isEmpty {
            sendMonVer()
            return
        }
        guard id.messageClass == 0x06 else { return }      // polls of other classes: not simulated
        switch id {
        case .cfgRate where legacy && payload.count == 6:
            let measurement = Int(payload[0]) | Int(payload[1]) << 8
            let navigation = Int(payload[2]) | Int(payload[3]) << 8
            guard measurement >= 25, navigation >= 1 else { return answer(id, ok: false) }
            setPeriod(milliseconds: measurement, nowNanoseconds: now)
            answer(id, ok: true)
        case .cfgPrt where legacy && payload.count == 20:
            let rate = Int(payload[8]) | Int(payload[9]) << 8 | Int(payload[10]) << 16 | Int(payload[11]) << 24
            guard SerialBaudRate.isStandard(rate), payload[0] <= 4 else { return answer(id, ok: false) }
            answer(id, ok: true)
            if payload[0] == 1 { switchBaudRate(to: rate, afterBytes: 10) }
        case .cfgMsg where legacy && (payload.count == 3 || payload.count == 8):
            guard payload[0] == 0xF0, let type = Self.sentence(ubxID: payload[1]) else { return answer(id, ok: false) }
            let rate = payload.count == 3 ? payload[2] : payload[3]     // long form: index 1 = UART1
            if rate > 0 { current.sentences.insert(NMEASentenceSet(type)) } else { current.sentences.remove(NMEASentenceSet(type)) }
            answer(id, ok: true)
        case .cfgGnss where legacy && payload.count >= 4:
            let blocks = Int(payload[3])
            guard payload[0] == 0, payload.count == 4 + 8 * blocks else { return answer(id, ok: false) }
            var systems = current.constellations
            for b in 0..<blocks {
                let base = 4 + 8 * b
                guard let system = Self.system(gnssID: payload[base]) else { continue }
                if payload[base + 4] & 1 == 1 { systems.insert(system) } else { systems.remove(system) }
            }
            // The M8 tracks at most three major systems at once, and needs GPS or GLONASS or BeiDou.
            let major = systems.intersection(GNSSConstellations.major).rawValue.nonzeroBitCount
            guard major <= 3, !systems.intersection([.gps, .glonass, .beidou]).isEmpty else { return answer(id, ok: false) }
            current.constellations = systems
            answer(id, ok: true)
        case .cfgCfg where payload.count == 12 || payload.count == 13:
            let clear = UInt32(payload[0]) | UInt32(payload[1]) << 8
            let save = UInt32(payload[4]) | UInt32(payload[5]) << 8
            let load = UInt32(payload[8]) | UInt32(payload[9]) << 8
            if clear != 0 { saved = nil }
            if save != 0 { saved = current }
            if load != 0 { current = saved ?? factory }
            answer(id, ok: true)
        case .cfgValset where !legacy:
            valset(payload, now)
        default:
            answer(id, ok: false)
        }
    }

    private func valset(_ p: UnsafeRawBufferPointer, _ now: Int64) {
        guard p.count >= 4, p[0] == 0 else { return answer(.cfgValset, ok: false) }
        let layers = p[1]
        var next = current
        var newBaud: Int?
        var i = 4
        while i + 4 <= p.count {
            let key = UInt32(p[i]) | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2]) << 16 | UInt32(p[i + 3]) << 24
            let size: Int
            switch (key >> 28) & 7 {
            case 1, 2: size = 1
            case 3: size = 2
            case 4: size = 4
            default: return answer(.cfgValset, ok: false)
            }
            guard i + 4 + size <= p.count else { return answer(.cfgValset, ok: false) }
            var value = 0
            for b in 0..<size { value |= Int(p[i + 4 + b]) << (8 * b) }
            i += 4 + size
            guard apply(key: key, value: value, to: &next, baud: &newBaud) else { return answer(.cfgValset, ok: false) }
        }
        guard i == p.count else { return answer(.cfgValset, ok: false) }
        if layers & 0x06 != 0 { saved = next }
        answer(.cfgValset, ok: true)
        if layers & 0x01 != 0 {
            let period = next.periodMilliseconds
            next.baudRate = current.baudRate
            current = next
            setPeriod(milliseconds: period, nowNanoseconds: now)
            if let newBaud { switchBaudRate(to: newBaud, afterBytes: 0) }
        }
    }

    /// One key of CFG-VALSET; false for a key this twin does not know (the receiver NAKs the message).
    private func apply(key: UInt32, value: Int, to c: inout Configuration, baud: inout Int?) -> Bool {
        typealias K = UBXConfigurationKey
        switch key {
        case K.rateMeasurement:
            guard value >= 25 else { return false }
            c.periodMilliseconds = value
        case K.rateNavigation:
            guard value >= 1 else { return false }
        case K.uart1BaudRate:
            guard SerialBaudRate.isStandard(value) else { return false }
            baud = value
            c.baudRate = value
        case K.signalGPS: set(.gps, value, &c)
        case K.signalSBAS: set(.sbas, value, &c)
        case K.signalGalileo: set(.galileo, value, &c)
        case K.signalBeiDou: set(.beidou, value, &c)
        case K.signalQZSS: set(.qzss, value, &c)
        case K.signalGLONASS: set(.glonass, value, &c)
        case K.signalGPSL1CA, K.signalSBASL1CA, K.signalGalileoE1, K.signalBeiDouB1I, K.signalQZSSL1CA, K.signalGLONASSL1:
            break
        default:
            for raw in 0..<NMEASentenceType.count {
                let type = NMEASentenceType(rawValue: UInt8(raw))!
                if key == K.nmeaOutputUART1(type) {
                    if value > 0 { c.sentences.insert(NMEASentenceSet(type)) } else { c.sentences.remove(NMEASentenceSet(type)) }
                    return true
                }
            }
            return false
        }
        return true
    }

    private func set(_ system: GNSSConstellations, _ value: Int, _ c: inout Configuration) {
        if value != 0 { c.constellations.insert(system) } else { c.constellations.remove(system) }
    }

    private func answer(_ id: UBXMessageID, ok: Bool) {
        UBXEncoder.begin(ok ? .ackAck : .ackNak, into: &reply)
        reply.append(id.messageClass)
        reply.append(id.id)
        UBXEncoder.finish(&reply)
        if ok { acknowledgements += 1 } else { refusals += 1 }
        reply.withBytes { enqueue($0, first: true) }
    }

    private func sendMonVer() {
        var out = SentenceBuilder(storage: scratch)
        let (software, hardware, extensions): (StaticString, StaticString, [StaticString])
        switch generation {
        case .m8: (software, hardware, extensions) = ("ROM CORE 3.01 (107888)", "00080000",
                                                      ["FWVER=SPG 3.01", "PROTVER=18.00", "MOD=CAM-M8C-0", "GPS;GLO;GAL;BDS"])
        case .m9: (software, hardware, extensions) = ("EXT CORE 4.04 (7f89f7)", "00190000",
                                                      ["ROM BASE 0x118B2060", "FWVER=SPG 4.04", "PROTVER=32.01", "MOD=NEO-M9N-00B"])
        case .m10: (software, hardware, extensions) = ("ROM SPG 5.10 (7b202e)", "000A0000",
                                                       ["FWVER=SPG 5.10", "PROTVER=34.10", "MOD=MAX-M10S"])
        }
        let length = 40 + 30 * extensions.count
        for b: UInt8 in [0xB5, 0x62, 0x0A, 0x04, UInt8(length & 0xFF), UInt8(length >> 8)] { out.byte(b) }
        func field(_ text: StaticString, _ width: Int) {
            for i in 0..<width { out.byte(i < text.utf8CodeUnitCount ? text.utf8Start[i] : 0) }
        }
        field(software, 30)
        field(hardware, 10)
        for e in extensions { field(e, 30) }
        var sum = UBXChecksum()
        let bytes = out.bytes
        for i in 2..<bytes.count { sum.add(bytes[i]) }
        out.byte(sum.a)
        out.byte(sum.b)
        enqueue(out.bytes, first: true)
    }

    public static func sentence(ubxID: UInt8) -> NMEASentenceType? {
        for raw in 0..<NMEASentenceType.count {
            let type = NMEASentenceType(rawValue: UInt8(raw))!
            if type.ubxMessageID == ubxID { return type }
        }
        return nil
    }

    public static func system(gnssID: UInt8) -> GNSSConstellations? {
        switch gnssID {
        case 0: .gps
        case 1: .sbas
        case 2: .galileo
        case 3: .beidou
        case 5: .qzss
        case 6: .glonass
        default: nil
        }
    }
}
