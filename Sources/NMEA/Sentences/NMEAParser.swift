/// Decodes one framed sentence (`$TTSSS,…` without the checksum, as delivered by `SentenceFramer`)
/// for any two-letter talker. Decoded types: GGA RMC GLL VTG GSA GSV GST ZDA GNS HDT THS.
/// `$P…` proprietary sentences, `!…` encapsulated (AIS) sentences and other types are classified and
/// skipped, never an error. Pure and allocation-free.
public enum NMEAParser {
    /// Decodes `sentence` (starting at `$` or `!`).
    public static func parse(_ sentence: Span<UInt8>) -> ParsedSentence {
        sentence.withUnsafeBufferPointer { parse($0) }
    }

    /// Decodes a sentence held in `body` (starting at `$` or `!`).
    public static func parse(_ body: UnsafeBufferPointer<UInt8>) -> ParsedSentence {
        guard body.count >= 3 else {
            return ParsedSentence(talker: Talker(0x3F, 0x3F), rejected: .other, .malformedAddress)
        }
        if body[0] == 0x21 { return ParsedSentence(talker: Talker(0x21, 0x21), kind: .encapsulated, .encapsulated) }
        if body[1] == 0x50 { return ParsedSentence(talker: Talker(0x50, 0x50), kind: .proprietary, .proprietary) }
        let talker = Talker(body[1], body[2])
        // Address: two talker letters + three type letters, then ',' or the end.
        guard body.count >= 6, body.count == 6 || body[6] == 0x2C,
              isAddressCharacter(body[1]), isAddressCharacter(body[2]) else {
            return ParsedSentence(talker: talker, rejected: .other, .malformedAddress)
        }
        let a = body[3], b = body[4], c = body[5]
        guard isAddressCharacter(a), isAddressCharacter(b), isAddressCharacter(c) else {
            return ParsedSentence(talker: talker, rejected: .other, .malformedAddress)
        }
        let kind: SentenceKind
        switch (a, b, c) {
        case (0x47, 0x47, 0x41): kind = .gga     // GGA
        case (0x52, 0x4D, 0x43): kind = .rmc     // RMC
        case (0x47, 0x4C, 0x4C): kind = .gll     // GLL
        case (0x56, 0x54, 0x47): kind = .vtg     // VTG
        case (0x47, 0x53, 0x41): kind = .gsa     // GSA
        case (0x47, 0x53, 0x56): kind = .gsv     // GSV
        case (0x47, 0x53, 0x54): kind = .gst     // GST
        case (0x5A, 0x44, 0x41): kind = .zda     // ZDA
        case (0x47, 0x4E, 0x53): kind = .gns     // GNS
        case (0x48, 0x44, 0x54): kind = .hdt     // HDT
        case (0x54, 0x48, 0x53): kind = .ths     // THS
        default: return ParsedSentence(talker: talker, kind: .other, .other)
        }
        var scanner = FieldScanner(body)
        let message: NMEAMessage
        switch kind {
        case .gga: message = .gga(GGA.parse(&scanner))
        case .rmc: message = .rmc(RMC.parse(&scanner))
        case .gll: message = .gll(GLL.parse(&scanner))
        case .vtg: message = .vtg(VTG.parse(&scanner))
        case .gsa: message = .gsa(GSA.parse(&scanner))
        case .gsv: message = .gsv(GSV.parse(&scanner))
        case .gst: message = .gst(GST.parse(&scanner))
        case .zda: message = .zda(ZDA.parse(&scanner))
        case .gns: message = .gns(GNS.parse(&scanner))
        case .hdt: message = .hdt(HDT.parse(&scanner))
        case .ths: message = .ths(THS.parse(&scanner))
        case .proprietary, .encapsulated, .other: message = .other
        }
        if let failure = scanner.failure {
            return ParsedSentence(talker: talker, rejected: kind, failure)
        }
        return ParsedSentence(talker: talker, kind: kind, message)
    }

    @inline(__always)
    private static func isAddressCharacter(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39)
    }
}
