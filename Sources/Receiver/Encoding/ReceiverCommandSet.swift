/// The commands of each family for each setting: how many parts a setting takes, and the bytes and the
/// expected reply of each part. Byte layouts: docs/receivers.md.
extension ReceiverFamily.CommandSet {
    /// The sentence types a u-blox is told about one by one (CFG-MSG), in this order.
    static let ubxManagedSentences: [13 of NMEASentenceType] = [
        .gga, .gll, .gsa, .gsv, .rmc, .vtg, .grs, .gst, .zda, .gbs, .gns, .dtm, .vlw,
    ]

    /// Commands `setting` takes (0: the family cannot do it).
    public func partCount(_ setting: ReceiverSetting) -> Int {
        switch (self, setting) {
        case (.ubxLegacy, .sentences): 13
        case (.pmtk, .constellations): 3
        case (.pmtk, .save): 0
        default: 1
        }
    }

    /// Encodes part `part` of `setting` with the values of `settings` into `out`; returns its reply.
    public func encode(_ setting: ReceiverSetting, part: Int, settings: ReceiverSettings,
                       into out: inout CommandBytes) -> ExpectedReply {
        switch self {
        case .ubxLegacy: return encodeLegacy(setting, part: part, settings, &out)
        case .ubxValset: return encodeValset(setting, settings, &out)
        case .pmtk: return encodePMTK(setting, part: part, settings, &out)
        }
    }

    private func encodeLegacy(_ setting: ReceiverSetting, part: Int, _ s: ReceiverSettings,
                              _ out: inout CommandBytes) -> ExpectedReply {
        switch setting {
        case .baud:
            UBXEncoder.cfgPrtUART1(baudRate: s.baudRate ?? 9600, into: &out)
            return .ubx(.cfgPrt)
        case .sentences:
            let type = Self.ubxManagedSentences[min(max(part, 0), 12)]
            UBXEncoder.cfgMsg(type, rate: (s.sentences ?? []).contains(type) ? 1 : 0, into: &out)
            return .ubx(.cfgMsg)
        case .constellations:
            UBXEncoder.cfgGnss(s.constellations ?? .gps, into: &out)
            return .ubx(.cfgGnss)
        case .rate:
            UBXEncoder.cfgRate(measurementMilliseconds: s.measurementPeriodMilliseconds ?? 1000, into: &out)
            return .ubx(.cfgRate)
        case .save:
            UBXEncoder.cfgSaveAll(into: &out)
            return .ubx(.cfgCfg)
        }
    }

    private func encodeValset(_ setting: ReceiverSetting, _ s: ReceiverSettings, _ out: inout CommandBytes) -> ExpectedReply {
        typealias Key = UBXConfigurationKey
        if setting == .save {
            UBXEncoder.cfgSaveAll(into: &out)
            return .ubx(.cfgCfg)
        }
        UBXEncoder.beginValset(layers: .ram, into: &out)
        switch setting {
        case .baud:
            UBXEncoder.valsetItem(key: Key.uart1BaudRate, value: UInt32(clamping: s.baudRate ?? 9600), into: &out)
        case .sentences:
            let wanted = s.sentences ?? []
            for i in 0..<13 {
                let type = Self.ubxManagedSentences[i]
                UBXEncoder.valsetItem(key: Key.nmeaOutputUART1(type), value: wanted.contains(type) ? 1 : 0, into: &out)
            }
        case .constellations:
            let c = s.constellations ?? .gps
            let keys: [6 of (UInt32, UInt32, GNSSConstellations)] = [
                (Key.signalGPS, Key.signalGPSL1CA, .gps), (Key.signalSBAS, Key.signalSBASL1CA, .sbas),
                (Key.signalGalileo, Key.signalGalileoE1, .galileo), (Key.signalBeiDou, Key.signalBeiDouB1I, .beidou),
                (Key.signalQZSS, Key.signalQZSSL1CA, .qzss), (Key.signalGLONASS, Key.signalGLONASSL1, .glonass),
            ]
            for i in 0..<6 {
                let (system, signal, flag) = keys[i]
                let on: UInt32 = c.contains(flag) ? 1 : 0
                UBXEncoder.valsetItem(key: system, value: on, into: &out)
                UBXEncoder.valsetItem(key: signal, value: on, into: &out)
            }
        case .rate:
            UBXEncoder.valsetItem(key: Key.rateMeasurement, value: UInt32(clamping: s.measurementPeriodMilliseconds ?? 1000),
                                  into: &out)
            UBXEncoder.valsetItem(key: Key.rateNavigation, value: 1, into: &out)
        case .save:
            break
        }
        UBXEncoder.finish(&out)
        return .ubx(.cfgValset)
    }

    private func encodePMTK(_ setting: ReceiverSetting, part: Int, _ s: ReceiverSettings,
                            _ out: inout CommandBytes) -> ExpectedReply {
        switch setting {
        case .baud:
            PMTKEncoder.baudRate(s.baudRate ?? 9600, into: &out)
            return .nothing
        case .sentences:
            PMTKEncoder.outputSentences(s.sentences ?? [], into: &out)
            return .pmtk(314)
        case .constellations:
            let c = s.constellations ?? .gps
            switch part {
            case 0:
                PMTKEncoder.searchMode(c, into: &out)
                return .pmtk(353)
            case 1:
                PMTKEncoder.sbasSearch(c.contains(.sbas), into: &out)
                return .pmtk(313)
            default:
                PMTKEncoder.qzss(c.contains(.qzss), into: &out)
                return .pmtk(352)
            }
        case .rate:
            PMTKEncoder.fixInterval(periodMilliseconds: s.measurementPeriodMilliseconds ?? 1000, into: &out)
            return .pmtk(220)
        case .save:
            out.removeAll()
            return .nothing
        }
    }

    /// The identification probe: UBX-MON-VER poll and `$PMTK605` (and for a Quectel, `$PQVERNO,R`),
    /// harmless to receivers that do not know them.
    public static func encodeProbe(for family: ReceiverFamily?, into out: inout CommandBytes) {
        var second = CommandBytes()
        switch family {
        case .ublox?:
            UBXEncoder.poll(.monVer, into: &out)
            return
        case .mediatek?:
            PMTKEncoder.queryRelease(into: &out)
            return
        case .quectel?:
            PMTKEncoder.queryRelease(into: &out)
            PMTKEncoder.queryQuectelVersion(into: &second)
        case nil:
            UBXEncoder.poll(.monVer, into: &out)
            PMTKEncoder.queryRelease(into: &second)
        }
        for i in 0..<second.count { out.append(second[i]) }
    }
}
