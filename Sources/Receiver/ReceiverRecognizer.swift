/// Recognizes a receiver from what it sends: u-blox `$GxTXT` start-up lines ("u-blox AG",
/// "HW UBX-M8030 00080000", "PROTVER=18.00", "MOD=CAM-M8C"), UBX frames and the UBX-MON-VER reply,
/// MediaTek `$PMTK705` (release, build, product), `$PMTK010`/`$PMTK011` start-up messages and
/// `$PMTK001` acknowledgements, Quectel `$PQVERNO` and other `$PQ…` sentences. Pure and
/// allocation-free: it reads the bytes in place and updates a `ReceiverIdentity`.
public enum ReceiverRecognizer {
    /// What a sentence or frame told.
    public struct Clue: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The identity changed (family, version, model or firmware).
        public static let identity = Clue(rawValue: 1)
        /// The receiver announced a (re)start: it has just been powered or reset and forgot what it
        /// was told (unless saved).
        public static let restarted = Clue(rawValue: 2)
    }

    /// Learns from one NMEA sentence (the framer's bytes from `$` up to, not including, `*`).
    public static func observe(sentence s: UnsafeRawBufferPointer, into identity: inout ReceiverIdentity) -> Clue {
        guard s.count >= 6, s[0] == UInt8(ascii: "$") else { return [] }
        let before = identity
        var clue: Clue = []
        if s[1] == UInt8(ascii: "P") {
            if matches(s, at: 1, "PMTK705") {
                observePMTK705(s, into: &identity)
            } else if matches(s, at: 1, "PMTK010") || matches(s, at: 1, "PMTK011") {
                // $PMTK011,MTKGPS then $PMTK010,001 (start-up) at power-on: the second marks the restart
                // (once); $PMTK010,002 = extension data (EPO) needed, not a restart.
                if matches(s, at: 1, "PMTK010") && field(s, 1, equals: "001") {
                    clue.insert(.restarted)
                    identity.forgetForRestart()
                }
                learnMediaTek(&identity, evidence: .announcement)
            } else if matches(s, at: 1, "PMTK001") {
                learnMediaTek(&identity, evidence: .traffic)
            } else if matches(s, at: 1, "PQVERNO") {
                identity.learn(.quectel, evidence: .versionReply)
                let text = fieldBytes(s, 2)
                if !text.isEmpty { identity.firmware = ReceiverText(text) }
            } else if matches(s, at: 1, "PQ") {
                identity.learn(.quectel, evidence: .traffic)
            } else if matches(s, at: 1, "PUBX") {
                identity.learn(.ublox(generation: 0), evidence: .traffic)
            }
        } else if matches(s, at: 3, "TXT") {
            clue.formUnion(observeTXT(fieldBytes(s, 4), into: &identity))
        }
        if identity != before { clue.insert(.identity) }
        return clue
    }

    /// Learns from one UBX frame with a valid checksum.
    public static func observe(ubx message: UBXMessageID, payload: UnsafeRawBufferPointer,
                               into identity: inout ReceiverIdentity) -> Clue {
        let before = identity
        identity.learn(.ublox(generation: 0), evidence: message == .monVer ? .versionReply : .traffic)
        if message == .monVer && payload.count >= 40 {
            // swVersion char[30], hwVersion char[10], then char[30] extensions: FWVER=, PROTVER=, MOD= …
            let software = ReceiverText(UnsafeRawBufferPointer(rebasing: payload[0..<30]))
            identity.hardware = ReceiverText(UnsafeRawBufferPointer(rebasing: payload[30..<40]))
            var offset = 40
            var firmwareSeen = false
            while offset + 30 <= payload.count {
                let ext = UnsafeRawBufferPointer(rebasing: payload[offset..<offset + 30])
                if let rest = after(ext, "FWVER=") {
                    identity.firmware = ReceiverText(rest)
                    firmwareSeen = true
                } else if let rest = after(ext, "PROTVER=") ?? after(ext, "PROTVER ") {
                    identity.protocolVersion = version(rest)
                } else if let rest = after(ext, "MOD=") {
                    identity.model = ReceiverText(rest)
                }
                offset += 30
            }
            if !firmwareSeen { identity.firmware = software }
            identity.resolveUbloxGeneration()
        }
        return identity != before ? .identity : []
    }

    // MARK: u-blox text

    private static func observeTXT(_ text: UnsafeRawBufferPointer, into identity: inout ReceiverIdentity) -> Clue {
        var clue: Clue = []
        if contains(text, "u-blox") {
            // The first line a u-blox prints after power-on or reset: what follows describes it anew.
            identity.forgetForRestart()
            identity.learn(.ublox(generation: 0), evidence: .announcement)
            clue.insert(.restarted)
        } else if let rest = after(text, "HW ") {
            identity.learn(.ublox(generation: 0), evidence: .announcement)
            // "HW UBX-M8030 00080000": the hardware version is the last word.
            var start = rest.count
            while start > 0 && rest[start - 1] != 0x20 { start -= 1 }
            identity.hardware = ReceiverText(UnsafeRawBufferPointer(rebasing: rest[start..<rest.count]))
        } else if let rest = after(text, "PROTVER=") ?? after(text, "PROTVER ") {
            identity.learn(.ublox(generation: 0), evidence: .announcement)
            identity.protocolVersion = version(rest)
        } else if let rest = after(text, "MOD=") {
            identity.model = ReceiverText(rest)
        } else if let rest = after(text, "FWVER=") {
            identity.firmware = ReceiverText(rest)
        } else {
            return clue
        }
        identity.resolveUbloxGeneration()
        return clue
    }

    // MARK: MediaTek and Quectel

    private static func observePMTK705(_ s: UnsafeRawBufferPointer, into identity: inout ReceiverIdentity) {
        // $PMTK705,AXN_2.31_3339_13101700,5632,PA6H,1.0 — release, build id, product, SDK version.
        let release = fieldBytes(s, 1)
        let product = fieldBytes(s, 3)
        let quectel = contains(product, "Quectel") || contains(product, "QUECTEL") || startsWithQuectelModel(product)
        identity.learn(quectel ? .quectel : .mediatek, evidence: .versionReply)
        identity.firmware = ReceiverText(release)
        identity.model = ReceiverText(product)
    }

    /// "L76B", "L80", "L86", "L96", "LC86L": Quectel's MediaTek-based module names.
    private static func startsWithQuectelModel(_ p: UnsafeRawBufferPointer) -> Bool {
        guard p.count >= 3, p[0] == UInt8(ascii: "L") else { return false }
        return (p[1] >= UInt8(ascii: "0") && p[1] <= UInt8(ascii: "9")) || p[1] == UInt8(ascii: "C")
    }

    private static func learnMediaTek(_ identity: inout ReceiverIdentity, evidence: ReceiverIdentity.Evidence) {
        // A Quectel module speaks PMTK too: keep "Quectel" once known.
        if identity.family == .quectel {
            if evidence > identity.evidence { identity.evidence = evidence }
            return
        }
        identity.learn(.mediatek, evidence: evidence)
    }

    // MARK: bytes

    /// True when `s` holds `word` at `offset`.
    static func matches(_ s: UnsafeRawBufferPointer, at offset: Int, _ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard offset + n <= s.count else { return false }
        for i in 0..<n where s[offset + i] != word.utf8Start[i] { return false }
        return true
    }

    /// Field `index` of a sentence (0 = the address), without the comma; empty when absent.
    static func fieldBytes(_ s: UnsafeRawBufferPointer, _ index: Int) -> UnsafeRawBufferPointer {
        var field = 0
        var start = 0
        var i = 0
        while i <= s.count {
            if i == s.count || s[i] == UInt8(ascii: ",") || s[i] == UInt8(ascii: "*") {
                if field == index { return UnsafeRawBufferPointer(rebasing: s[start..<i]) }
                field += 1
                start = i + 1
                if i < s.count && s[i] == UInt8(ascii: "*") { break }
            }
            i += 1
        }
        return UnsafeRawBufferPointer(rebasing: s[0..<0])
    }

    static func field(_ s: UnsafeRawBufferPointer, _ index: Int, equals word: StaticString) -> Bool {
        let f = fieldBytes(s, index)
        return f.count == word.utf8CodeUnitCount && matches(f, at: 0, word)
    }

    /// The rest of `text` after the prefix `word`, nil when it does not start with it.
    static func after(_ text: UnsafeRawBufferPointer, _ word: StaticString) -> UnsafeRawBufferPointer? {
        guard matches(text, at: 0, word) else { return nil }
        return UnsafeRawBufferPointer(rebasing: text[word.utf8CodeUnitCount..<text.count])
    }

    static func contains(_ text: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard n <= text.count else { return false }
        for start in 0...(text.count - n) where matches(text, at: start, word) { return true }
        return false
    }

    /// "18.00" → 1800, "34.1" → 3410; 0 when no digits.
    static func version(_ text: UnsafeRawBufferPointer) -> Int {
        var major = 0, minor = 0, minorDigits = 0, seenDot = false, any = false
        var i = 0
        while i < text.count {
            let byte = text[i]
            i += 1
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                any = true
                if seenDot {
                    if minorDigits < 2 { minor = minor * 10 + Int(byte - UInt8(ascii: "0")); minorDigits += 1 }
                } else if major < 1000 {
                    major = major * 10 + Int(byte - UInt8(ascii: "0"))
                }
            } else if byte == UInt8(ascii: ".") && !seenDot {
                seenDot = true
            } else if any {
                break
            }
        }
        if minorDigits == 1 { minor *= 10 }
        return any ? major * 100 + minor : 0
    }
}
