import Hardware
import Receiver

/// The `[gps]` keys that configure the receiver (docs/receivers.md): whether puckd writes to it at all,
/// which family it is, and what to set. `keep` leaves a setting as the receiver has it.
extension ConfigurationKeys {
    static let receiverKeys: [ConfigurationKey] = [
        .choice("gps", "configure", \.gps.receiver.mode, [("auto", .auto), ("never", .never)],
                doc: "auto: tell the receiver what rate_hz, configure_baud, constellations, sentences and save ask for "
                    + "(after the port opens and again after it restarts); never: only read"),
        .choice("gps", "receiver", \.gps.receiver.family,
                [("auto", nil)] + ReceiverFamily.configurationWords.map { ($0.0, Optional($0.1)) },
                doc: "the receiver family; auto recognizes it from what it says (u-blox TXT / MON-VER, $PMTK705, $PQVERNO)"),
        ConfigurationKey(section: "gps", name: "rate_hz", allowed: "keep or 0.1…25 (hertz)",
                         doc: "fixes per second to ask the receiver for (UBX-CFG-RATE, PMTK220)", live: false,
                         read: { c in
                             c.gps.receiver.measurementPeriodMilliseconds.map {
                                 ConfigurationKey.formatNumber((1_000_000 / Double($0)).rounded() / 1000)
                             } ?? "keep"
                         },
                         write: { c, text in
                             if text == "keep" { c.gps.receiver.measurementPeriodMilliseconds = nil; return nil }
                             guard let hz = Double(text), hz.isFinite else { return .notANumber(wholeNumber: false) }
                             guard (0.1...25).contains(hz) else { return .outOfRange }
                             c.gps.receiver.measurementPeriodMilliseconds = ReceiverSettings.periodMilliseconds(hertz: hz)
                             return nil
                         }),
        ConfigurationKey(section: "gps", name: "configure_baud",
                         allowed: "keep or " + receiverBaudRates.map(String.init).joined(separator: ", "),
                         doc: "switch the receiver and then the port to this line speed, verify NMEA arrives, "
                            + "fall back if not (UBX-CFG-PRT / CFG-VALSET, PMTK251)", live: false,
                         read: { c in c.gps.receiver.baudRate.map(String.init) ?? "keep" },
                         write: { c, text in
                             if text == "keep" { c.gps.receiver.baudRate = nil; return nil }
                             guard let rate = Int(text), receiverBaudRates.contains(rate) else { return .notAllowed }
                             c.gps.receiver.baudRate = rate
                             return nil
                         }),
        ConfigurationKey(section: "gps", name: "constellations",
                         allowed: "keep or a comma-separated list of gps, glonass, galileo, beidou, qzss, sbas",
                         doc: "satellite systems the receiver tracks (UBX-CFG-GNSS / CFG-VALSET, PMTK353/313/352)",
                         live: false,
                         read: { c in
                             guard let set = c.gps.receiver.constellations else { return "keep" }
                             return GNSSConstellations.named.filter { set.contains($0.1) }.map { $0.0.description }
                                 .joined(separator: ",")
                         },
                         write: { c, text in
                             if text == "keep" { c.gps.receiver.constellations = nil; return nil }
                             var set = GNSSConstellations()
                             for part in text.split(separator: ",") {
                                 let word = part.trimmingSpaces.lowercased()
                                 guard let match = GNSSConstellations.named.first(where: { $0.0.description == word }) else {
                                     return .invalid("'\(word)' is not a satellite system, use gps, glonass, galileo, beidou, qzss, sbas")
                                 }
                                 set.insert(match.1)
                             }
                             guard !set.intersection(GNSSConstellations.major).isEmpty else {
                                 return .invalid("needs at least one of gps, glonass, galileo, beidou (qzss and sbas only augment them)")
                             }
                             c.gps.receiver.constellations = set
                             return nil
                         }),
        ConfigurationKey(section: "gps", name: "sentences",
                         allowed: "keep, needed (RMC, GGA, GSA, GSV, GST) or a comma-separated list of "
                            + sentenceNames.joined(separator: ", "),
                         doc: "NMEA sentences the receiver sends (the others off, to save the line); "
                            + "UBX-CFG-MSG / CFG-VALSET, PMTK314", live: false,
                         read: { c in
                             guard let set = c.gps.receiver.sentences else { return "keep" }
                             if set == .needed { return "needed" }
                             return sentenceNames.filter { name in set.contains(sentenceType(name)!) }.joined(separator: ",")
                         },
                         write: { c, text in
                             if text == "keep" { c.gps.receiver.sentences = nil; return nil }
                             if text == "needed" { c.gps.receiver.sentences = .needed; return nil }
                             var set = NMEASentenceSet()
                             for part in text.split(separator: ",") {
                                 let word = part.trimmingSpaces.uppercased()
                                 guard let type = sentenceType(word) else {
                                     return .invalid("'\(word)' is not a sentence puckd can switch, use "
                                         + sentenceNames.joined(separator: ", "))
                                 }
                                 set.insert(NMEASentenceSet(type))
                             }
                             guard set.contains(.rmc) || set.contains(.gga) || set.contains(.gns) else {
                                 return .invalid("needs RMC, GGA or GNS: without one puckd gets no position")
                             }
                             c.gps.receiver.sentences = set
                             return nil
                         }),
        .boolean("gps", "save", \.gps.receiver.save,
                 doc: "also store the configuration in the receiver's battery-backed RAM / flash (UBX-CFG-CFG; "
                    + "MediaTek and Quectel: not supported)"),
    ]

    /// Line speeds a receiver can be switched to.
    static let receiverBaudRates = [4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600]

    static let sentenceNames: [String] = (0..<NMEASentenceType.count).map {
        NMEASentenceType(rawValue: UInt8($0))!.name.description
    }

    static func sentenceType(_ name: String) -> NMEASentenceType? {
        sentenceNames.firstIndex(of: name).map { NMEASentenceType(rawValue: UInt8($0))! }
    }
}
