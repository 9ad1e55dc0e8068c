import NMEA

/// The `sats` view: one table per constellation from the last complete GSV set (`SkyView`): PRN
/// (gpsd numbering), elevation and azimuth (degrees), SNR (dB-Hz), NMEA 4.10 signal ID, used.
/// Allocation-free: constellations are visited in a fixed order by scanning the view.
public enum SatellitesView {
    /// Constellations in display order.
    static let order: InlineArray<9, Constellation> =
        [.gps, .sbas, .glonass, .galileo, .beidou, .qzss, .navic, .imes, .unknown]

    /// Text tables.
    public static func appendText(_ sky: borrowing SkyView, to out: inout OutputBuffer) {
        if sky.count == 0 {
            out.append("sats: no satellites reported yet (the receiver has sent no complete GSV set)\n")
            return
        }
        out.append(int: sky.distinctSatellites); out.append(" satellites in view, ")
        out.append(int: sky.usedSatellites); out.append(" used; ")
        out.append(int: sky.count); out.append(" signals")
        if sky.droppedEntries > 0 {
            out.append(" (+"); out.append(int: sky.droppedEntries); out.append(" not shown: more than ")
            out.append(int: SkyView.capacity); out.append(")")
        }
        out.append(UInt8(ascii: "\n"))
        let table = SatelliteTable(sky)
        var c = 0
        while c < order.count {
            let constellation = order[c]
            let signals = table.signals[c], used = table.used[c]
            c += 1
            if signals == 0 { continue }
            out.append(constellation.name)
            out.append(": "); out.append(int: signals); out.append(signals == 1 ? " signal, " : " signals, ")
            out.append(int: used); out.append(" used\n")
            out.append("    PRN  elev\u{00B0}  azim\u{00B0}  SNR dB-Hz  sig  used\n")
            var i = 0
            while i < table.count {
                let s = table.entries[i]
                i += 1
                if s.identity.constellation != constellation { continue }
                RenderFormat.rightAligned(Int64(s.identity.prn), width: 7, to: &out)
                RenderFormat.rightAligned(s.elevationDegrees.map { Int64($0) }, width: 7, to: &out)
                RenderFormat.rightAligned(s.azimuthDegrees.map { Int64($0) }, width: 7, to: &out)
                RenderFormat.rightAligned(s.snr.map { Int64($0) }, width: 11, to: &out)
                RenderFormat.rightAligned(s.signalID.map { Int64($0) }, width: 5, to: &out)
                out.append(s.used ? "   yes\n" : "     -\n")
            }
        }
    }

    /// `{"reply":"sats","satellitesInView":…,"satellitesUsed":…,"signals":…,"droppedSignals":…,
    /// "constellations":[{"constellation":"GPS","signals":…,"used":…,"satellites":[{"prn":…,"svid":…,
    /// "elevationDegrees":…,"azimuthDegrees":…,"snrDBHz":…,"signalID":…,"used":…}]}]}`.
    public static func appendJSON(_ sky: borrowing SkyView, to out: inout OutputBuffer) {
        var o = JSONWriter.begin(&out)
        o.string("reply", "sats", &out)
        o.integer("satellitesInView", sky.distinctSatellites, &out)
        o.integer("satellitesUsed", sky.usedSatellites, &out)
        o.integer("signals", sky.count, &out)
        o.integer("droppedSignals", sky.droppedEntries, &out)
        o.key("constellations", &out)
        out.append(UInt8(ascii: "["))
        let table = SatelliteTable(sky)
        var first = true
        var c = 0
        while c < order.count {
            let constellation = order[c]
            let signals = table.signals[c], used = table.used[c]
            c += 1
            if signals == 0 { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            var g = JSONWriter.begin(&out)
            g.string("constellation", constellation.name, &out)
            g.integer("signals", signals, &out)
            g.integer("used", used, &out)
            g.key("satellites", &out)
            out.append(UInt8(ascii: "["))
            var firstSatellite = true
            var i = 0
            while i < table.count {
                let s = table.entries[i]
                i += 1
                if s.identity.constellation != constellation { continue }
                if !firstSatellite { out.append(UInt8(ascii: ",")) }
                firstSatellite = false
                var e = JSONWriter.begin(&out)
                e.integer("prn", Int(s.identity.prn), &out)
                e.integer("svid", Int(s.identity.svid), &out)
                e.integer("elevationDegrees", s.elevationDegrees.map { Int($0) }, &out)
                e.integer("azimuthDegrees", s.azimuthDegrees.map { Int($0) }, &out)
                e.integer("snrDBHz", s.snr.map { Int($0) }, &out)
                e.integer("signalID", s.signalID.map { Int($0) }, &out)
                e.bool("used", s.used, &out)
                e.end(&out)
            }
            out.append(UInt8(ascii: "]"))
            g.end(&out)
        }
        out.append(UInt8(ascii: "]"))
        o.end(&out)
    }

}

/// The entries of a `SkyView` copied out in one pass, with signals and used signals per constellation
/// (`SatellitesView.order`). `SkyView`'s subscript copies its whole inline storage on every call, so
/// the views read each entry once through this table instead of once per constellation.
struct SatelliteTable {
    var entries = InlineArray<96, SatelliteInView>(
        repeating: SatelliteInView(identity: SatelliteIdentity(constellation: .unknown, svid: 0, prn: 0)))
    var count = 0
    /// Per `SatellitesView.order` index.
    var signals = InlineArray<9, Int>(repeating: 0)
    var used = InlineArray<9, Int>(repeating: 0)

    init(_ sky: borrowing SkyView) {
        count = min(sky.count, SkyView.capacity)
        var i = 0
        while i < count {
            let s = sky[i]
            entries[i] = s
            let k = Self.orderIndex(s.identity.constellation)
            signals[k] += 1
            if s.used { used[k] += 1 }
            i += 1
        }
    }

    /// Index of `constellation` in `SatellitesView.order`.
    static func orderIndex(_ constellation: Constellation) -> Int {
        switch constellation {
        case .gps: 0
        case .sbas: 1
        case .glonass: 2
        case .galileo: 3
        case .beidou: 4
        case .qzss: 5
        case .navic: 6
        case .imes: 7
        case .unknown: 8
        }
    }
}
