/// Parses one complete gpsd-protocol request (the bytes from `?` up to, not including, its `;` or
/// newline) into a `GpsdCommand`. Pure and allocation-free: any bytes give a command or an error.
public enum GpsdCommandParser {
    /// The request in `bytes` (starting with `?`).
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> GpsdCommand {
        guard bytes.count >= 1, bytes[0] == UInt8(ascii: "?") else { return .invalid(unrecognized(bytes)) }
        let body = UnsafeRawBufferPointer(rebasing: bytes[1...])
        if matches(body, "VERSION") { return .version }
        if matches(body, "DEVICES") { return .devices }
        if matches(body, "POLL") { return .poll }
        if matches(body, "DEVICE") { return .device }
        if hasPrefix(body, "DEVICE=") { return .invalid(GpsdRequestError(.readOnly, excerpt: excerpt(bytes))) }
        if matches(body, "WATCH") { return .watch(nil) }
        if hasPrefix(body, "WATCH=") {
            let json = UnsafeRawBufferPointer(rebasing: body[6...])
            switch GpsdWatchJSON.parse(json) {
            case .success(let request): return .watch(request)
            case .failure(let detail): return .invalid(GpsdRequestError(.invalidWatch, detail: detail.text))
            }
        }
        return .invalid(unrecognized(bytes))
    }

    static func unrecognized(_ bytes: UnsafeRawBufferPointer) -> GpsdRequestError {
        GpsdRequestError(.unrecognized, excerpt: excerpt(bytes))
    }

    /// The first 20 bytes after the `?`, as gpsd quotes a bad request.
    static func excerpt(_ bytes: UnsafeRawBufferPointer) -> GpsdShortText {
        var t = GpsdShortText()
        var i = bytes.count > 0 && bytes[0] == UInt8(ascii: "?") ? 1 : 0
        var n = 0
        while i < bytes.count && n < 20 { t.append(bytes[i]); i += 1; n += 1 }
        return t
    }

    /// `body` is `word`, optionally followed by white space only.
    static func matches(_ body: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        guard hasPrefix(body, word) else { return false }
        var i = word.utf8CodeUnitCount
        while i < body.count {
            if !isSpace(body[i]) { return false }
            i += 1
        }
        return true
    }

    static func hasPrefix(_ body: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard body.count >= n else { return false }
        var i = 0
        while i < n { if body[i] != word.utf8Start[i] { return false }; i += 1 }
        return true
    }

    @inline(__always)
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }
}
