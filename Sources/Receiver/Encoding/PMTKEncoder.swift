/// Builds MediaTek PMTK (and Quectel PQ) command sentences: `$`, the body, `*`, the XOR checksum of
/// the body in two upper-case hex digits, CR LF — e.g. `$PMTK220,100*2F\r\n`.
public enum PMTKEncoder {
    /// Starts a sentence: `$` and `body` (e.g. "PMTK220,"); add fields, then `finish`.
    public static func begin(_ body: StaticString, into out: inout CommandBytes) {
        out.removeAll()
        out.append(UInt8(ascii: "$"))
        out.append(body)
    }

    /// Appends `*hh\r\n` with the checksum of everything after `$`.
    public static func finish(_ out: inout CommandBytes) {
        var sum: UInt8 = 0
        for i in 1..<out.count { sum ^= out[i] }
        let hex: StaticString = "0123456789ABCDEF"
        out.append(UInt8(ascii: "*"))
        out.append(hex.utf8Start[Int(sum >> 4)])
        out.append(hex.utf8Start[Int(sum & 0x0F)])
        out.append(0x0D)
        out.append(0x0A)
    }

    /// PMTK220: one position fix every `periodMilliseconds` (100…10000).
    public static func fixInterval(periodMilliseconds: Int, into out: inout CommandBytes) {
        begin("PMTK220,", into: &out)
        out.append(decimal: periodMilliseconds)
        finish(&out)
    }

    /// PMTK251: the UART speed in bits per second (the module switches at once, without a reply).
    public static func baudRate(_ rate: Int, into out: inout CommandBytes) {
        begin("PMTK251,", into: &out)
        out.append(decimal: rate)
        finish(&out)
    }

    /// PMTK314: which sentences, every how many fixes (0 = off, 1 = every fix): GLL, RMC, VTG, GGA,
    /// GSA, GSV, GRS, GST, eight reserved fields, … ZDA (field 17), MCHN (18).
    public static func outputSentences(_ sentences: NMEASentenceSet, into out: inout CommandBytes) {
        begin("PMTK314", into: &out)
        var fields = InlineArray<19, UInt8>(repeating: 0)
        for raw in 0..<NMEASentenceType.count {
            let type = NMEASentenceType(rawValue: UInt8(raw))!
            if let index = type.pmtk314Field, sentences.contains(type) { fields[index] = 1 }
        }
        for i in 0..<19 {
            out.append(UInt8(ascii: ","))
            out.append(UInt8(ascii: "0") &+ fields[i])
        }
        finish(&out)
    }

    /// PMTK353: search GPS, GLONASS, Galileo (E1), Galileo full, BeiDou — 1 or 0 each.
    public static func searchMode(_ constellations: GNSSConstellations, into out: inout CommandBytes) {
        begin("PMTK353", into: &out)
        let systems: [5 of GNSSConstellations] = [.gps, .glonass, .galileo, [], .beidou]
        for i in 0..<5 {
            out.append(UInt8(ascii: ","))
            out.append(!systems[i].isEmpty && constellations.contains(systems[i]) ? UInt8(ascii: "1") : UInt8(ascii: "0"))
        }
        finish(&out)
    }

    /// PMTK313: SBAS satellite search on (1) or off (0).
    public static func sbasSearch(_ on: Bool, into out: inout CommandBytes) {
        begin(on ? "PMTK313,1" : "PMTK313,0", into: &out)
        finish(&out)
    }

    /// PMTK352: "stop QZSS" — 0 keeps QZSS on, 1 turns it off (the polarity is inverted).
    public static func qzss(_ on: Bool, into out: inout CommandBytes) {
        begin(on ? "PMTK352,0" : "PMTK352,1", into: &out)
        finish(&out)
    }

    /// PMTK605: ask for the firmware release (answered by `$PMTK705`).
    public static func queryRelease(into out: inout CommandBytes) {
        begin("PMTK605", into: &out)
        finish(&out)
    }

    /// PQVERNO,R: ask a Quectel module for its firmware version (answered by `$PQVERNO,R,…`).
    public static func queryQuectelVersion(into out: inout CommandBytes) {
        begin("PQVERNO,R", into: &out)
        finish(&out)
    }
}
