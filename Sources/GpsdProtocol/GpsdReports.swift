import Console

/// The session reports of gpsd_json(5): `VERSION`, `DEVICES`/`DEVICE`, `WATCH` and `ERROR`, each one
/// JSON object and a CR LF (as gpsd ends its lines), appended to a caller-owned `OutputBuffer`.
/// Allocation-free (docs/gpsd-protocol.md §2).
public enum GpsdReports {
    /// The protocol version puckd speaks: gpsd 3.22's (proto 3.14).
    public static let protocolMajor = 3
    public static let protocolMinor = 14

    /// `{"class":"VERSION","release":…,"rev":…,"proto_major":3,"proto_minor":14}`.
    public static func appendVersion(release: StaticString, to out: inout OutputBuffer) {
        out.append("{\"class\":\"VERSION\",\"release\":")
        JSONWriter.string(release, &out)
        out.append(",\"rev\":")
        JSONWriter.string(release, &out)
        out.append(",\"proto_major\":"); out.append(int: protocolMajor)
        out.append(",\"proto_minor\":"); out.append(int: protocolMinor)
        out.append("}\r\n")
    }

    /// `{"class":"DEVICES","devices":[{DEVICE}]}`.
    public static func appendDevices(_ device: GpsdDeviceInfo, to out: inout OutputBuffer) {
        out.append("{\"class\":\"DEVICES\",\"devices\":[")
        appendDeviceObject(device, &out)
        out.append("]}\r\n")
    }

    /// One `DEVICE` object on its own line.
    public static func appendDevice(_ device: GpsdDeviceInfo, to out: inout OutputBuffer) {
        appendDeviceObject(device, &out)
        out.append("\r\n")
    }

    static func appendDeviceObject(_ d: GpsdDeviceInfo, _ out: inout OutputBuffer) {
        out.append("{\"class\":\"DEVICE\",\"path\":")
        d.path.withBytes { JSONWriter.string($0, &out) }
        out.append(",\"driver\":\"NMEA0183\"")
        if let utc = d.activatedUTCNanoseconds {
            out.append(",\"activated\":\""); out.append(isoTime: utc, fractionDigits: 3); out.append(UInt8(ascii: "\""))
        }
        out.append(",\"flags\":"); out.append(int: d.seenPackets ? 1 : 0)
        out.append(",\"native\":0")
        if let bps = d.bitsPerSecond {
            out.append(",\"bps\":"); out.append(int: bps)
            out.append(",\"parity\":\"N\",\"stopbits\":1")
        }
        out.append(",\"cycle\":"); out.append(jsonNumber: d.cycleSeconds, decimals: 2)
        out.append("}")
    }

    /// `{"class":"WATCH",…}` with the client's flags (puckd's own members last).
    public static func appendWatch(_ w: GpsdWatchFlags, to out: inout OutputBuffer) {
        out.append("{\"class\":\"WATCH\",\"enable\":"); bool(w.enable, &out)
        out.append(",\"json\":"); bool(w.json, &out)
        out.append(",\"nmea\":"); bool(w.nmea, &out)
        out.append(",\"raw\":"); out.append(int: Int(w.raw))
        out.append(",\"scaled\":"); bool(w.scaled, &out)
        out.append(",\"timing\":"); bool(w.timing, &out)
        out.append(",\"split24\":"); bool(w.split24, &out)
        out.append(",\"pps\":"); bool(w.pps, &out)
        if w.device.count > 0 {
            out.append(",\"device\":")
            w.device.withBytes { JSONWriter.string($0, &out) }
        }
        out.append(",\"puckd\":"); bool(w.puckd, &out)
        out.append(",\"puckd_hz\":"); out.append(int: Int(w.puckdHertz))
        out.append("}\r\n")
    }

    /// `{"class":"ERROR","message":…}` in gpsd's wording.
    public static func appendError(_ e: GpsdRequestError, to out: inout OutputBuffer) {
        out.append("{\"class\":\"ERROR\",\"message\":\"")
        switch e.kind {
        case .unrecognized:
            out.append("Unrecognized request '"); escaped(e.excerpt, &out); out.append("'")
        case .invalidWatch:
            out.append("Invalid WATCH: "); out.append(e.detail)
        case .readOnly:
            out.append("Read-only: puckd does not change the device from this socket")
        case .tooLong:
            out.append("Request too long: '"); escaped(e.excerpt, &out); out.append("...'")
        }
        out.append("\"}\r\n")
    }

    /// The bytes of `text` as the inside of a JSON string: printable ASCII as is, `"` and `\\`
    /// escaped, every other byte as `\u00XX` (valid JSON whatever a client sent).
    static func escaped(_ text: GpsdShortText, _ out: inout OutputBuffer) {
        text.withBytes { bytes in
            let digits: StaticString = "0123456789abcdef"
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                i += 1
                if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                    out.append(UInt8(ascii: "\\")); out.append(b)
                } else if b >= 0x20 && b < 0x7F {
                    out.append(b)
                } else {
                    out.append("\\u00")
                    out.append(digits.utf8Start[Int(b >> 4)])
                    out.append(digits.utf8Start[Int(b & 0x0F)])
                }
            }
        }
    }

    static func bool(_ v: Bool, _ out: inout OutputBuffer) { out.append(v ? "true" : "false") }
}
