import Console
import GpsdProtocol
import NMEA
import Testing
import TestSupport

/// TPV, SKY and GST from puckd's fixes against gpsd 3.x's own reports for the same receiver logs
/// (gpsd's regression logs and their `.chk` output, Tests/Fixtures/nmea/gpsd, BSD-2-Clause).
@Suite struct GpsdReportGoldenTests {
    /// The reports puckd writes for a log: one TPV per fix, one SKY per new sky view, GST when sent.
    static func puckdReports(_ log: String) -> [String] {
        guard let bytes = Fixtures.bytes("nmea/gpsd/" + log + ".nmea") else { return [] }
        var pipeline = NMEAPipeline()
        var lines: [String] = []
        var device = GpsdShortText()
        for b in "/dev/ttyAMA0".utf8 { device.append(b) }
        var seenSky = 0
        // Line by line, so the sky view published with a fix's sentences is written after it.
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            end = min(end + 1, bytes.count)
            var fixes: [Fix] = []
            bytes[start..<end].withUnsafeBytes { raw in pipeline.feed(raw) { fixes.append(copy $0) } }
            start = end
            var out = OutputBufferBox()
            for fix in fixes {
                GpsdFixReports.appendTPV(fix, device: device, to: &out.buffer)
                GpsdFixReports.appendGST(fix, device: device, to: &out.buffer)
            }
            if pipeline.assembler.counters.skyViews != seenSky {
                seenSky = pipeline.assembler.counters.skyViews
                GpsdFixReports.appendSKY(pipeline.assembler.skyView, fix: fixes.last ?? Fix(timeOfDayNanoseconds: 0),
                                         device: device, to: &out.buffer)
            }
            for line in out.buffer.string.utf8.split(separator: 0x0A) {
                lines.append(String(decoding: line.filter { $0 != 0x0D }, as: UTF8.self))
            }
        }
        return lines
    }

    /// gpsd's reports of a class for a log.
    static func gpsdReports(_ log: String, _ cls: String) -> [String] {
        guard let text = runProcess(["/usr/bin/xz", "-dc", Fixtures.path("nmea/gpsd/" + log + ".log.chk.xz")])?.output
        else { return [] }
        // By bytes: the log's NMEA lines end in CR LF, which Swift's String sees as one character.
        return text.utf8.split(separator: 0x0A).map { String(decoding: $0.filter { $0 != 0x0D }, as: UTF8.self) }
            .filter { $0.hasPrefix("{\"class\":\"" + cls + "\"") }
    }

    static func value(_ line: String, _ key: String) -> Double? {
        guard let r = line.firstRange(of: "\"" + key + "\":") else { return nil }
        let rest = line[r.upperBound...]
        let end = rest.firstIndex { $0 == "," || $0 == "}" } ?? rest.endIndex
        return Double(rest[..<end])
    }

    static func string(_ line: String, _ key: String) -> String? {
        guard let r = line.firstRange(of: "\"" + key + "\":\"") else { return nil }
        let rest = line[r.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    @Test(arguments: ["ublox-neo-m9n-nmea", "nmea-rtk", "isync"])
    func tpvMatchesGpsdForTheSameLog(_ log: String) throws {
        let ours = Self.puckdReports(log).filter { $0.contains("\"class\":\"TPV\"") }
        let theirs = Self.gpsdReports(log, "TPV").filter { $0.contains("\"time\"") && $0.contains("\"lat\"") }
        try #require(!ours.isEmpty && !theirs.isEmpty)
        var byTime: [String: String] = [:]
        for line in ours { if let t = Self.string(line, "time") { byTime[t] = line } }
        // gpsd reports after every sentence; its last report of an epoch is the merged fix.
        var gpsdLast: [String: String] = [:]
        var order: [String] = []
        for g in theirs {
            guard let t = Self.string(g, "time") else { continue }
            if gpsdLast[t] == nil { order.append(t) }
            gpsdLast[t] = g
        }
        var compared = 0
        for t in order {
            let g = gpsdLast[t]!
            guard let p = byTime[t], Self.value(p, "lat") != nil else { continue }
            compared += 1
            #expect(Self.value(p, "mode") == Self.value(g, "mode"), "\(t)")
            #expect(abs(Self.value(p, "lat")! - Self.value(g, "lat")!) < 1e-8, "\(t)")
            #expect(abs(Self.value(p, "lon")! - Self.value(g, "lon")!) < 1e-8, "\(t)")
            if let a = Self.value(g, "altMSL"), let b = Self.value(p, "altMSL") { #expect(abs(a - b) < 1e-3, "\(t)") }
            if let a = Self.value(g, "track"), let b = Self.value(p, "track") { #expect(abs(a - b) < 1e-3, "\(t)") }
            if let a = Self.value(g, "speed"), let b = Self.value(p, "speed") { #expect(abs(a - b) < 2e-3, "\(t)") }
        }
        // Most of gpsd's dated position reports have a puckd report of the same epoch.
        #expect(compared * 10 >= order.count * 8, "\(compared) of \(order.count)")
    }

    @Test func skyListsTheSatellitesGpsdLists() throws {
        let ours = Self.puckdReports("ublox-neo-m9n-nmea").filter { $0.contains("\"class\":\"SKY\"") }
        let theirs = Self.gpsdReports("ublox-neo-m9n-nmea", "SKY").filter { $0.contains("satellites") }
        try #require(!ours.isEmpty && !theirs.isEmpty)
        func prns(_ line: String) -> Set<Int> {
            var s = Set<Int>()
            var rest = Substring(line)
            while let r = rest.firstRange(of: "\"PRN\":") {
                rest = rest[r.upperBound...]
                let end = rest.firstIndex { $0 == "," || $0 == "}" } ?? rest.endIndex
                if let v = Int(rest[..<end]) { s.insert(v) }
            }
            return s
        }
        let gpsdPRNs = theirs.reduce(into: Set<Int>()) { $0.formUnion(prns($1)) }
        let ourPRNs = ours.reduce(into: Set<Int>()) { $0.formUnion(prns($1)) }
        #expect(ourPRNs == gpsdPRNs)
        // uSat never exceeds nSat, and a full view reports satellites used.
        for line in ours { #expect(Self.value(line, "uSat")! <= Self.value(line, "nSat")!) }
        #expect(ours.contains { Self.value($0, "uSat")! > 0 })
    }

    @Test func gstCarriesTheReceiversStatistics() throws {
        let ours = Self.puckdReports("ublox-neo-m9n-nmea").filter { $0.contains("\"class\":\"GST\"") }
        let theirs = Self.gpsdReports("ublox-neo-m9n-nmea", "GST")
        try #require(!ours.isEmpty && !theirs.isEmpty)
        var gpsdByTime: [String: String] = [:]
        for g in theirs { if let t = Self.string(g, "time") { gpsdByTime[t] = g } }
        var compared = 0
        for p in ours {
            guard let t = Self.string(p, "time"), let g = gpsdByTime[t] else { continue }
            compared += 1
            for key in ["rms", "major", "minor", "lat", "lon", "alt"] {
                if let a = Self.value(g, key), let b = Self.value(p, key) { #expect(abs(a - b) < 1e-3, "\(t) \(key)") }
            }
        }
        #expect(compared > 0)
    }
}
