/// GSA — DOPs and the satellites used in the solution (one GSA per constellation on NMEA 4.1 receivers).
public struct GSA: Sendable, Equatable {
    /// Fix type: 1 = no fix, 2 = 2D, 3 = 3D; nil when empty or not a digit 1...3 (e.g. Antaris `E`).
    public var fixType: UInt8?
    /// Satellite numbers as sent (NMEA numbering; see `SatelliteNumbering`), `usedCount` of them.
    public var used: InlineArray<32, UInt16> = .init(repeating: 0)
    public var usedCount: Int = 0
    public var pdop: Double?
    public var hdop: Double?
    public var vdop: Double?
    /// NMEA 4.10 GNSS system ID (1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou, 5 QZSS, 6 NavIC), if sent.
    public var systemID: Int?

    public init() {}

    static func parse(_ s: inout FieldScanner) -> GSA {
        let fields = s.remainingFields
        guard fields >= 17 else { s.fail(.tooFewFields); return GSA() }
        var g = GSA()
        _ = s.character()                              // selection mode A/M
        let type = s.rawField()
        if type.count == 1, type[0] >= 0x31, type[0] <= 0x33 { g.fixType = type[0] - 0x30 }
        else if type.count > 1 { s.fail(.malformedField) }
        // 12 satellite fields as standard; a 4.10 system ID makes 18 fields; the Navior CH-4701 sends 24.
        let hasSystemID = fields == 18
        let satelliteFields = hasSystemID ? 12 : fields - 5
        guard satelliteFields <= 32 else { s.fail(.outOfRange); return g }
        for _ in 0..<satelliteFields {
            guard let n = s.integer(maxDigits: 3) else { continue }
            guard n > 0 else { continue }
            g.used[g.usedCount] = UInt16(n)
            g.usedCount += 1
        }
        g.pdop = s.decimal(in: 0...100)
        g.hdop = s.decimal(in: 0...100)
        g.vdop = s.decimal(in: 0...100)
        if hasSystemID {
            // Some BeiDou receivers put a fourth DOP here ("1.2"): only a small integer is a system ID.
            let field = s.rawField()
            if field.count == 1 || field.count == 2, field.allSatisfy({ $0 &- 0x30 < 10 }) {
                g.systemID = field.count == 1 ? Int(field[0] &- 0x30) : Int(field[0] &- 0x30) * 10 + Int(field[1] &- 0x30)
            }
        }
        return g
    }
}

/// One satellite of a GSV sentence. Units: degrees, dB-Hz. nil = field empty.
public struct GSVSatellite: Sendable, Equatable {
    /// Satellite number as sent (NMEA numbering).
    public var number: UInt16 = 0
    public var elevationDegrees: Int8?
    public var azimuthDegrees: UInt16?
    /// Carrier-to-noise density, dB-Hz (0...99); nil when not tracked.
    public var snr: UInt8?

    public init() {}
}

/// GSV — satellites in view, up to four per sentence, in a numbered sequence per talker (and signal).
public struct GSV: Sendable, Equatable {
    /// Number of sentences in this talker's sequence.
    public var totalSentences: Int = 0
    /// This sentence's number in the sequence, 1...totalSentences.
    public var sentenceNumber: Int = 0
    /// Satellites in view for this talker (and signal), as announced.
    public var satellitesInView: Int?
    public var satellites: InlineArray<4, GSVSatellite> = .init(repeating: GSVSatellite())
    public var count: Int = 0
    /// Satellite slots in the sentence, including empty ones (0...4).
    var slots = 0
    /// NMEA 4.10 signal ID (1 = GPS L1C/A, GLONASS L1OF, Galileo E5a …), if sent.
    public var signalID: UInt8?

    public init() {}

    static func parse(_ s: inout FieldScanner) -> GSV {
        var g = GSV()
        let total = s.integer(maxDigits: 2), number = s.integer(maxDigits: 2)
        g.satellitesInView = s.integer(maxDigits: 3)
        s.requireFieldsPresent()
        guard let total, let number else { s.fail(.malformedField); return g }
        guard total >= 1, total <= 20, number >= 1, number <= total else { s.fail(.outOfRange); return g }
        g.totalSentences = total
        g.sentenceNumber = number
        // Groups of four fields (number, elevation, azimuth, SNR); a single field after the last
        // group is the NMEA 4.10 signal ID.
        while s.hasMoreFields {
            let first = s.rawField()
            if !s.hasMoreFields {
                if let id = s.integer(first, maxDigits: 2) {
                    g.signalID = UInt8(id)
                }
                break
            }
            guard g.slots < 4 else { s.fail(.outOfRange); return g }
            g.slots += 1
            let elevation = s.wholeDegrees(in: -90...90)
            let azimuth = s.integer(maxDigits: 3)
            let snr = s.integer(maxDigits: 2)
            s.requireFieldsPresent()
            guard let n = s.integer(first, maxDigits: 3), n > 0 else {
                continue                                    // empty slot at the end of a sequence
            }
            var sat = GSVSatellite()
            sat.number = UInt16(n)
            if let elevation { sat.elevationDegrees = Int8(elevation) }
            if let azimuth { if azimuth <= 360 { sat.azimuthDegrees = UInt16(azimuth % 360) } else { s.fail(.outOfRange) } }
            sat.snr = snr.map { UInt8($0) }
            g.satellites[g.count] = sat
            g.count += 1
        }
        return g
    }
}

extension GSA {
    public static func == (a: GSA, b: GSA) -> Bool {
        guard a.fixType == b.fixType, a.usedCount == b.usedCount, a.pdop == b.pdop, a.hdop == b.hdop,
              a.vdop == b.vdop, a.systemID == b.systemID else { return false }
        for i in 0..<a.usedCount where a.used[i] != b.used[i] { return false }
        return true
    }
}

extension GSV {
    public static func == (a: GSV, b: GSV) -> Bool {
        guard a.totalSentences == b.totalSentences, a.sentenceNumber == b.sentenceNumber,
              a.satellitesInView == b.satellitesInView, a.count == b.count, a.signalID == b.signalID else {
            return false
        }
        for i in 0..<a.count where a.satellites[i] != b.satellites[i] { return false }
        return true
    }
}
