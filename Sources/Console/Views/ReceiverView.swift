import Receiver

/// The receiver's identity and configuration as text and JSON: the `receiver` line of `status`, its
/// JSON object, the `[receiver]` group of `stats`, and the log lines the device writes (the same
/// words in both places). Allocation-free.
public enum ReceiverView {
    /// "u-blox M8 CAM-M8C-0 (SPG 3.01, protocol 18.00)", or "not identified yet".
    public static func appendIdentity(_ identity: ReceiverIdentity, to out: inout OutputBuffer) {
        guard let family = identity.family else {
            out.append("not identified yet")
            return
        }
        out.append(family.name)
        if !identity.model.isEmpty { out.append(UInt8(ascii: " ")); appendText(identity.model, &out) }
        let firmware = !identity.firmware.isEmpty
        if firmware || identity.protocolVersion > 0 {
            out.append(" (")
            if firmware { appendText(identity.firmware, &out) }
            if identity.protocolVersion > 0 {
                if firmware { out.append(", ") }
                out.append("protocol ")
                out.append(int: identity.protocolVersion / 100); out.append(UInt8(ascii: "."))
                out.append(uint: UInt64(identity.protocolVersion % 100), minimumDigits: 2)
            }
            out.append(")")
        }
    }

    /// What a setting asked for: "10 Hz", "115200 baud", "gps,galileo", "RMC,GGA", "save".
    public static func appendRequest(_ setting: ReceiverSetting, _ s: ReceiverSettings, to out: inout OutputBuffer) {
        switch setting {
        case .rate:
            let ms = s.measurementPeriodMilliseconds ?? 1000
            out.append((1_000_000 / Double(ms)).rounded() / 1000, decimals: ms % 100 == 0 || 1000 % ms == 0 ? 0 : 2)
            out.append(" Hz")
        case .baud:
            out.append(int: s.baudRate ?? 0); out.append(" baud")
        case .constellations:
            let set = s.constellations ?? []
            var first = true
            var i = 0
            while i < GNSSConstellations.named.count {
                let (word, system) = GNSSConstellations.named[i]
                i += 1
                guard set.contains(system) else { continue }
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                out.append(word)
            }
        case .sentences:
            let set = s.sentences ?? []
            var first = true
            for raw in 0..<NMEASentenceType.count {
                let type = NMEASentenceType(rawValue: UInt8(raw))!
                guard set.contains(type) else { continue }
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                out.append(type.name)
            }
        case .save:
            out.append("save")
        }
    }

    /// "rate 10 Hz applied" / "constellations gps,glonass refused (unsupported)".
    public static func appendOutcome(_ setting: ReceiverSetting, _ status: ReceiverStatus, to out: inout OutputBuffer) {
        let outcome = status.outcome(setting)
        if setting != .save && setting != .baud {
            out.append(setting.name); out.append(UInt8(ascii: " "))
        }
        appendRequest(setting, status.settings, to: &out)
        out.append(UInt8(ascii: " ")); out.append(outcome.name)
        if outcome == .refused || outcome == .partlyApplied {
            if setting == .sentences && !status.refusedSentences.isEmpty {
                out.append(" (not: ")
                var first = true
                for raw in 0..<NMEASentenceType.count {
                    let type = NMEASentenceType(rawValue: UInt8(raw))!
                    guard status.refusedSentences.contains(type) else { continue }
                    if !first { out.append(UInt8(ascii: ",")) }
                    first = false
                    out.append(type.name)
                }
                out.append(")")
            } else if setting == .baud && outcome == .refused {
                out.append(" (no NMEA at that speed; back at "); out.append(int: status.portBaudRate); out.append(")")
            } else {
                out.append(" (")
                out.append(refusalName(status.lastRefusalFlag))
                out.append(")")
            }
        }
    }

    /// What a refusal flag means.
    public static func refusalName(_ flag: Int) -> StaticString {
        switch flag {
        case 0: "$PMTK001 flag 0: invalid command"
        case 1: "$PMTK001 flag 1: unsupported"
        case 2: "$PMTK001 flag 2: valid but failed"
        default: "UBX-ACK-NAK"
        }
    }

    /// The `status` line: identity, then what happened to each setting asked for.
    public static func appendSummary(_ status: ReceiverStatus, to out: inout OutputBuffer) {
        appendIdentity(status.identity, to: &out)
        out.append(": ")
        switch status.phase {
        case .off:
            out.append("not configured ("); out.append(status.offReason.name); out.append(")")
            return
        case .listening:
            out.append("nothing to configure (the [gps] keys say keep)")
            return
        case .unrecognized:
            out.append("not configured: no answer identified it (set [gps] receiver)")
            return
        default:
            out.append(status.phase.name)
            if status.phase == .done && status.lastRunNanoseconds > 0 {
                out.append(" in "); out.append(Double(status.lastRunNanoseconds) / 1e9, decimals: 1); out.append(" s")
            }
        }
        var first = true
        for raw in 0..<ReceiverSetting.count {
            let setting = ReceiverSetting(rawValue: UInt8(raw))!
            guard status.outcome(setting) != .notAsked else { continue }
            out.append(first ? " \u{2014} " : ", ")
            first = false
            appendOutcome(setting, status, to: &out)
        }
    }

    /// `{"family":"u-blox M8","model":…,"firmware":…,"protocolVersion":18.0,"phase":"configured",
    /// "portBaudRate":115200,"settings":{"rate":"applied",…}}`.
    public static func appendJSON(_ status: ReceiverStatus, to out: inout OutputBuffer) {
        var o = JSONWriter.begin(&out)
        o.string("family", status.identity.family?.name, &out)
        o.key("model", &out); status.identity.model.withBytes { JSONWriter.string($0, &out) }
        o.key("firmware", &out); status.identity.firmware.withBytes { JSONWriter.string($0, &out) }
        o.number("protocolVersion", status.identity.protocolVersion > 0 ? Double(status.identity.protocolVersion) / 100 : nil,
                 decimals: 2, &out)
        o.string("identifiedBy", status.identity.evidence.name, &out)
        o.string("phase", status.phase.name, &out)
        o.integer("portBaudRate", status.portBaudRate, &out)
        o.number("lastRunSeconds", status.lastRunNanoseconds > 0 ? Double(status.lastRunNanoseconds) / 1e9 : nil,
                 decimals: 3, &out)
        o.key("settings", &out)
        var g = JSONWriter.begin(&out)
        for raw in 0..<ReceiverSetting.count {
            let setting = ReceiverSetting(rawValue: UInt8(raw))!
            g.string(setting.key, status.outcome(setting).name, &out)
        }
        g.end(&out)
        o.end(&out)
    }

    /// The `[receiver]` counters of `stats`.
    public static func forEachCounter(_ status: ReceiverStatus, _ ubx: UBXFrameCounters, _ body: (StaticString, Int64) -> Void) {
        let c = status.counters
        body("ubxFrames", Int64(ubx.frames)); body("ubxDelivered", Int64(ubx.delivered))
        body("ubxBadChecksums", Int64(ubx.badChecksums)); body("ubxOversized", Int64(ubx.oversized))
        body("configurationRuns", Int64(c.runs)); body("completedRuns", Int64(c.completedRuns))
        body("commandsSent", Int64(c.commandsSent)); body("bytesWritten", Int64(c.bytesWritten))
        body("writeFailures", Int64(c.writeFailures)); body("acknowledged", Int64(c.acknowledged))
        body("refused", Int64(c.refused)); body("timeouts", Int64(c.timeouts)); body("retries", Int64(c.retries))
        body("unexpectedReplies", Int64(c.unexpectedReplies)); body("baudChanges", Int64(c.baudChanges))
        body("receiverRestarts", Int64(c.receiverRestarts))
    }

    static func appendText(_ text: ReceiverText, _ out: inout OutputBuffer) {
        text.withBytes { out.append($0) }
    }
}
