import Receiver

/// A MediaTek-chipset receiver twin that speaks PMTK as MediaTek's and Quectel's command tables have
/// it (docs/receivers.md): `$PMTK220` (fix interval 100…10000 ms), `$PMTK251` (baud, switched at
/// once, no reply), `$PMTK314` (sentences), `$PMTK353` (systems), `$PMTK313` (SBAS), `$PMTK352`
/// (QZSS), `$PMTK605` (→ `$PMTK705`), and for the Quectel model `$PQVERNO,R`. Each command with a valid
/// checksum is answered `$PMTK001,CMD,FLAG`: 3 done, 0 invalid (a value out of range, a wrong field
/// count), 1 unsupported (an unknown command, a system the chip cannot receive). It starts with
/// `$PMTK011,MTKGPS` and `$PMTK010,001` after power-on and forgets everything (no backup battery).
public final class SimulatedMediaTekReceiver: SimulatedGNSSReceiver {
    /// The MediaTek chip the twin plays, which decides the systems it receives.
    public enum Model: Sendable {
        /// MTK3339 (Adafruit Ultimate GPS HAT, GlobalTop PA6H): GPS only (+ SBAS, QZSS).
        case mtk3339
        /// Quectel L76B (Waveshare L76X HAT): GPS, BeiDou, QZSS.
        case quectelL76B
    }

    public let model: Model
    private var line = InlineArray<128, UInt8>(repeating: 0)
    private var lineLength = 0
    private var inLine = false

    /// A receiver at its factory settings: 9600 baud, 1 Hz, GGA GSA GSV RMC VTG.
    public init(model: Model, startNanoseconds: Int64) {
        self.model = model
        let factory = Configuration(baudRate: 9600, periodMilliseconds: 1000,
                                    sentences: [.init(.gga), .init(.gsa), .init(.gsv), .init(.rmc), .init(.vtg)],
                                    constellations: model == .mtk3339 ? [.gps] : [.gps, .beidou, .qzss])
        super.init(factory: factory, outputOrder: [.gga, .gsa, .gsv, .rmc, .vtg, .gll, .zda, .gst, .grs],
                   startNanoseconds: startNanoseconds)
    }

    /// What the chip can receive.
    private var receivable: GNSSConstellations {
        model == .mtk3339 ? [.gps, .sbas, .qzss] : [.gps, .beidou, .qzss, .sbas]
    }

    public override var talker: StaticString { model == .mtk3339 ? "GP" : super.talker }

    public override func writeStartUpText(into out: inout SentenceBuilder) {
        out.begin(address: "PMTK011,MTKGPS"); out.end()
        out.begin(address: "PMTK010,001"); out.end()
    }

    public override func receive(_ bytes: UnsafeRawBufferPointer, nowNanoseconds now: Int64) {
        guard !poweredOff else { return }
        for i in 0..<bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "$") {
                inLine = true
                lineLength = 0
            } else if b == 0x0D || b == 0x0A {
                if inLine { finishLine(now) }
                inLine = false
            } else if inLine {
                if lineLength < 128 { line[lineLength] = b; lineLength += 1 } else { inLine = false; garbageCommands += 1 }
            }
        }
    }

    private func finishLine(_ now: Int64) {
        withUnsafeBytes(of: line) { raw in
            let text = UnsafeRawBufferPointer(rebasing: raw[0..<lineLength])
            guard let star = text.firstIndex(of: UInt8(ascii: "*")), star + 3 == text.count else { garbageCommands += 1; return }
            var sum: UInt8 = 0
            for i in 0..<star { sum ^= text[i] }
            guard let high = Self.hex(text[star + 1]), let low = Self.hex(text[star + 2]), high << 4 | low == sum else {
                garbageCommands += 1
                return
            }
            command(UnsafeRawBufferPointer(rebasing: text[0..<star]), now)
        }
    }

    private func command(_ body: UnsafeRawBufferPointer, _ now: Int64) {
        commandsReceived += 1
        if starts(body, "PQVERNO,R") {
            guard model == .quectelL76B else { return }
            reply("PQVERNO,R,L76BNR02A01S,2016/09/09,10:19", first: true)
            return
        }
        guard starts(body, "PMTK"), body.count >= 7, let number = Self.number(body, from: 4, count: 3) else { return }
        var fields = InlineArray<24, Int>(repeating: -1)
        let count = Self.fields(body, into: &fields)
        switch number {
        case 220:
            guard count == 1, (100...10_000).contains(fields[0]) else { return ack(220, 0) }
            setPeriod(milliseconds: fields[0], nowNanoseconds: now)
            ack(220, 3)
        case 251:
            let rate = count == 1 ? (fields[0] == 0 ? 9600 : fields[0]) : -1
            guard [4800, 9600, 14400, 19200, 38400, 57600, 115200].contains(rate) else { return }
            switchBaudRate(to: rate, afterBytes: 0)
        case 314:
            if count == 1 && fields[0] == -2 { current.sentences = factory.sentences; return ack(314, 3) }
            guard count == 19 else { return ack(314, 0) }
            var set = NMEASentenceSet()
            for raw in 0..<NMEASentenceType.count {
                let type = NMEASentenceType(rawValue: UInt8(raw))!
                if let f = type.pmtk314Field, fields[f] > 0 { set.insert(NMEASentenceSet(type)) }
            }
            current.sentences = set
            ack(314, 3)
        case 353:
            guard count == 5 || count == 2 else { return ack(353, 0) }
            var wanted: GNSSConstellations = []
            if fields[0] == 1 { wanted.insert(.gps) }
            if fields[1] == 1 { wanted.insert(.glonass) }
            if count == 5 && fields[2] == 1 { wanted.insert(.galileo) }
            if count == 5 && fields[4] == 1 { wanted.insert(.beidou) }
            guard model != .mtk3339, wanted.isSubset(of: receivable), !wanted.isEmpty else { return ack(353, 1) }
            current.constellations = current.constellations.subtracting(GNSSConstellations.major).union(wanted)
            ack(353, 3)
        case 313:
            guard count == 1, fields[0] == 0 || fields[0] == 1 else { return ack(313, 0) }
            if fields[0] == 1 { current.constellations.insert(.sbas) } else { current.constellations.remove(.sbas) }
            ack(313, 3)
        case 352:
            guard count == 1, fields[0] == 0 || fields[0] == 1 else { return ack(352, 0) }
            if fields[0] == 0 { current.constellations.insert(.qzss) } else { current.constellations.remove(.qzss) }
            ack(352, 3)
        case 605:
            reply(model == .mtk3339 ? "PMTK705,AXN_2.31_3339_13101700,5632,PA6H,1.0"
                : "PMTK705,AXN_3.8_3333_16090900,0000,Quectel-L76B,1.0", first: true)
        default:
            ack(number, 1)
        }
    }

    private func ack(_ command: Int, _ flag: Int) {
        var out = SentenceBuilder(storage: scratch)
        out.begin(address: "PMTK001,")
        out.decimal(command)
        out.byte(UInt8(ascii: ","))
        out.decimal(flag)
        out.end()
        if flag == 3 { acknowledgements += 1 } else { refusals += 1 }
        enqueue(out.bytes, first: true)
    }

    private func reply(_ text: StaticString, first: Bool) {
        var out = SentenceBuilder(storage: scratch)
        out.begin(address: text)
        out.end()
        enqueue(out.bytes, first: first)
    }

    private func starts(_ body: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        guard body.count >= word.utf8CodeUnitCount else { return false }
        for i in 0..<word.utf8CodeUnitCount where body[i] != word.utf8Start[i] { return false }
        return true
    }

    /// The comma-separated numbers after the command number (-1 empty, -2 for "-1"); returns the count.
    public static func fields(_ body: UnsafeRawBufferPointer, into out: inout InlineArray<24, Int>) -> Int {
        var count = 0
        var i = 7
        while i < body.count && body[i] == UInt8(ascii: ",") && count < 24 {
            i += 1
            var value = -1
            var negative = false
            while i < body.count && body[i] != UInt8(ascii: ",") {
                if body[i] == UInt8(ascii: "-") { negative = true } else if let d = Self.hex(body[i]), d < 10 {
                    value = max(0, value) * 10 + Int(d)
                }
                i += 1
            }
            out[count] = negative ? -2 : value
            count += 1
        }
        return count
    }

    public static func number(_ body: UnsafeRawBufferPointer, from: Int, count: Int) -> Int? {
        var v = 0
        for i in from..<(from + count) {
            guard let d = Self.hex(body[i]), d < 10 else { return nil }
            v = v * 10 + Int(d)
        }
        return v
    }


    static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }
}
