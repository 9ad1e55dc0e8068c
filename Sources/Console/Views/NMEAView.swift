import Receiver

/// The `nmea` view: the receiver's raw traffic from `NMEASentenceLog`, one line each — received
/// sentences as they are, received UBX frames as `UBX ACK-ACK 05 01 [06 08]`, and the commands puckd
/// wrote after `> ` — each with its time in seconds since start. `nmea [N]` prints the last N lines;
/// `watch nmea` streams the new ones as they arrive. Allocation-free.
public enum NMEAView {
    /// Text: the last `count` lines, oldest first.
    public static func appendText(_ log: borrowing NMEASentenceLog, count: Int, startNanoseconds: Int64,
                                  to out: inout OutputBuffer) {
        let shown = UInt64(min(max(count, 0), Int(log.recorded - log.oldest)))
        if shown == 0 {
            out.append("nmea: nothing received yet\n")
            return
        }
        out.append("last "); out.append(uint: shown); out.append(" of "); out.append(uint: log.recorded)
        out.append(" lines from the receiver (> = sent by puckd; time in seconds since start)\n")
        var n = log.recorded - shown
        while n < log.recorded {
            appendLine(log, n, startNanoseconds: startNanoseconds, to: &out)
            n += 1
        }
    }

    /// Streams lines `next ..< log.recorded` into `out` while they fit in `room` bytes; lines already
    /// overwritten are counted in one "… N lines not shown" line. Advances `next`.
    public static func appendNew(_ log: borrowing NMEASentenceLog, next: inout UInt64, startNanoseconds: Int64,
                                 json: Bool, room: Int, to out: inout OutputBuffer) {
        if next < log.oldest {
            let lost = log.oldest - next
            if json {
                out.append("{\"reply\":\"nmea\",\"notShown\":"); out.append(uint: lost); out.append("}\n")
            } else {
                out.append("\u{2026} "); out.append(uint: lost)
                out.append(" lines not shown (they came faster than the console takes them)\n")
            }
            next = log.oldest
        }
        while next < log.recorded && out.count + NMEASentenceLog.lineBytes * 3 + 64 <= room {
            if json { appendJSONLine(log, next, to: &out) } else { appendLine(log, next, startNanoseconds: startNanoseconds, to: &out) }
            next += 1
        }
    }

    /// `{"reply":"nmea","recorded":…,"lines":[{"timeNanoseconds":…,"kind":"sentence","text":"$GPRMC…"},…]}`.
    public static func appendJSON(_ log: borrowing NMEASentenceLog, count: Int, to out: inout OutputBuffer) {
        let shown = UInt64(min(max(count, 0), Int(log.recorded - log.oldest)))
        var o = JSONWriter.begin(&out)
        o.string("reply", "nmea", &out)
        o.integer("recorded", Int64(truncatingIfNeeded: log.recorded), &out)
        o.key("lines", &out)
        out.append(UInt8(ascii: "["))
        var n = log.recorded - shown
        while n < log.recorded {
            if n != log.recorded - shown { out.append(UInt8(ascii: ",")) }
            appendJSONObject(log, n, to: &out)
            n += 1
        }
        out.append(UInt8(ascii: "]"))
        o.end(&out)
    }

    static func appendLine(_ log: borrowing NMEASentenceLog, _ n: UInt64, startNanoseconds: Int64, to out: inout OutputBuffer) {
        _ = log.withLine(n) { kind, time, bytes in
            out.append(Double(time &- startNanoseconds) / 1e9, decimals: 3)
            out.append(kind == .command ? " > " : "   ")
            appendContent(kind, bytes, to: &out)
            out.append(UInt8(ascii: "\n"))
        }
    }

    static func appendJSONLine(_ log: borrowing NMEASentenceLog, _ n: UInt64, to out: inout OutputBuffer) {
        appendJSONObject(log, n, to: &out)
        out.append(UInt8(ascii: "\n"))
    }

    static func appendJSONObject(_ log: borrowing NMEASentenceLog, _ n: UInt64, to out: inout OutputBuffer) {
        _ = log.withLine(n) { kind, time, bytes in
            var o = JSONWriter.begin(&out)
            o.integer("timeNanoseconds", time, &out)
            let name: StaticString = switch kind {
            case .sentence: "sentence"
            case .uncheckedSentence: "uncheckedSentence"
            case .ubxFrame: "ubx"
            case .command: "sent"
            }
            o.string("kind", name, &out)
            o.key("text", &out)
            let isUBX = kind == .ubxFrame || (kind == .command && bytes.count >= 2 && bytes[0] == 0xB5 && bytes[1] == 0x62)
            if isUBX {
                out.append(UInt8(ascii: "\""))      // the UBX rendering has no quote or backslash
                appendContent(kind, bytes, to: &out)
                out.append(UInt8(ascii: "\""))
            } else {
                var end = bytes.count
                while end > 0 && (bytes[end - 1] == 0x0D || bytes[end - 1] == 0x0A) { end -= 1 }
                JSONWriter.string(UnsafeRawBufferPointer(rebasing: bytes[0..<end]), &out)
            }
            o.end(&out)
        }
    }

    /// Renders the bytes: text as is (a command without its CR LF), UBX as its name and hex.
    static func appendContent(_ kind: NMEASentenceLog.Kind, _ bytes: UnsafeRawBufferPointer, to out: inout OutputBuffer) {
        switch kind {
        case .sentence, .uncheckedSentence:
            appendPrintable(bytes, to: &out)
        case .ubxFrame:
            guard bytes.count >= 4 else { return }
            let id = UBXMessageID(bytes[0], bytes[1])
            appendUBX(id, length: Int(bytes[2]) | Int(bytes[3]) << 8,
                      payload: UnsafeRawBufferPointer(rebasing: bytes[4..<bytes.count]), to: &out)
        case .command:
            if bytes.count >= 6 && bytes[0] == 0xB5 && bytes[1] == 0x62 {
                let end = min(bytes.count, 6 + (Int(bytes[4]) | Int(bytes[5]) << 8))
                appendUBX(UBXMessageID(bytes[2], bytes[3]), length: Int(bytes[4]) | Int(bytes[5]) << 8,
                          payload: UnsafeRawBufferPointer(rebasing: bytes[6..<max(6, end)]), to: &out)
            } else {
                appendPrintable(bytes, to: &out)
            }
        }
    }

    static func appendUBX(_ id: UBXMessageID, length: Int, payload: UnsafeRawBufferPointer, to out: inout OutputBuffer) {
        out.append("UBX "); out.append(id.name); out.append(UInt8(ascii: " "))
        hex(id.messageClass, &out); out.append(UInt8(ascii: " ")); hex(id.id, &out)
        out.append(" len "); out.append(int: length)
        if !payload.isEmpty {
            out.append(" [")
            let shown = min(payload.count, 24)
            for i in 0..<shown {
                if i > 0 { out.append(UInt8(ascii: " ")) }
                hex(payload[i], &out)
            }
            if payload.count > shown || length > payload.count { out.append(" \u{2026}") }
            out.append("]")
        }
    }

    static func appendPrintable(_ bytes: UnsafeRawBufferPointer, to out: inout OutputBuffer) {
        for i in 0..<bytes.count {
            let b = bytes[i]
            if b == 0x0D || b == 0x0A { continue }
            out.append(b >= 0x20 && b < 0x7F ? b : UInt8(ascii: "?"))
        }
    }

    static func hex(_ b: UInt8, _ out: inout OutputBuffer) {
        let digits: StaticString = "0123456789ABCDEF"
        out.append(digits.utf8Start[Int(b >> 4)])
        out.append(digits.utf8Start[Int(b & 15)])
    }
}
