/// The JSON object of `?WATCH={…}`: a flat object of gpsd's WATCH attributes (booleans, the `raw`
/// integer, the `device` and `remote` strings, an optional `"class":"WATCH"`) and puckd's `puckd`
/// and `puckd_hz`. Unknown members are an error, as in gpsd's `json_read_object`.
enum GpsdWatchJSON {
    /// What was wrong with the object (the `ERROR` message's detail).
    struct Problem: Error {
        let text: StaticString
    }

    static func parse(_ bytes: UnsafeRawBufferPointer) -> Result<GpsdWatchRequest, Problem> {
        var s = Scanner(bytes: bytes)
        var r = GpsdWatchRequest()
        s.skipSpace()
        guard s.take(UInt8(ascii: "{")) else { return .failure(Problem(text: "expected an object")) }
        s.skipSpace()
        if s.take(UInt8(ascii: "}")) { return s.atEndAfterSpace() ? .success(r) : .failure(Problem(text: "text after the object")) }
        while true {
            s.skipSpace()
            var key = GpsdShortText()
            guard s.string(into: &key) else { return .failure(Problem(text: "expected a member name")) }
            s.skipSpace()
            guard s.take(UInt8(ascii: ":")) else { return .failure(Problem(text: "expected ':'")) }
            s.skipSpace()
            let problem = key.withBytes { name in member(name, &s, &r) }
            if let problem { return .failure(problem) }
            s.skipSpace()
            if s.take(UInt8(ascii: ",")) { continue }
            if s.take(UInt8(ascii: "}")) { break }
            return .failure(Problem(text: "expected ',' or '}'"))
        }
        return s.atEndAfterSpace() ? .success(r) : .failure(Problem(text: "text after the object"))
    }

    private static func member(_ name: UnsafeRawBufferPointer, _ s: inout Scanner, _ r: inout GpsdWatchRequest) -> Problem? {
        func bool(_ target: inout Bool?) -> Problem? {
            guard let v = s.bool() else { return Problem(text: "expected true or false") }
            target = v
            return nil
        }
        if named(name, "enable") { return bool(&r.enable) }
        if named(name, "json") { return bool(&r.json) }
        if named(name, "nmea") { return bool(&r.nmea) }
        if named(name, "scaled") { return bool(&r.scaled) }
        if named(name, "timing") { return bool(&r.timing) }
        if named(name, "split24") { return bool(&r.split24) }
        if named(name, "pps") { return bool(&r.pps) }
        if named(name, "puckd") { return bool(&r.puckd) }
        if named(name, "raw") {
            // gpsd takes an integer; a boolean is read as 0/1 (what some clients send).
            if let b = s.bool() { r.raw = b ? 1 : 0; return nil }
            guard let v = s.integer(), v >= 0, v <= 2 else { return Problem(text: "raw must be 0, 1 or 2") }
            r.raw = UInt8(v)
            return nil
        }
        if named(name, "puckd_hz") {
            guard let v = s.integer(), v >= 0, v <= 1000 else { return Problem(text: "puckd_hz must be 0...1000") }
            r.puckdHertz = UInt16(v)
            return nil
        }
        if named(name, "device") {
            var path = GpsdShortText()
            guard s.string(into: &path) else { return Problem(text: "device must be a string") }
            r.device = path
            return nil
        }
        if named(name, "remote") || named(name, "class") {
            var ignored = GpsdShortText()
            return s.string(into: &ignored) ? nil : Problem(text: "expected a string")
        }
        return Problem(text: "unknown attribute")
    }

    private static func named(_ name: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        guard name.count == word.utf8CodeUnitCount else { return false }
        var i = 0
        while i < name.count { if name[i] != word.utf8Start[i] { return false }; i += 1 }
        return true
    }

    /// A cursor over the object's bytes.
    struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, GpsdCommandParser.isSpace(bytes[index]) { index += 1 }
        }

        mutating func take(_ b: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == b else { return false }
            index += 1
            return true
        }

        mutating func atEndAfterSpace() -> Bool {
            skipSpace()
            return index == bytes.count
        }

        mutating func word(_ w: StaticString) -> Bool {
            let n = w.utf8CodeUnitCount
            guard bytes.count - index >= n else { return false }
            var i = 0
            while i < n { if bytes[index + i] != w.utf8Start[i] { return false }; i += 1 }
            index += n
            return true
        }

        mutating func bool() -> Bool? {
            if word("true") { return true }
            if word("false") { return false }
            return nil
        }

        /// A non-negative or negative decimal integer of at most 9 digits.
        mutating func integer() -> Int? {
            var negative = false
            if take(UInt8(ascii: "-")) { negative = true }
            var v = 0
            var digits = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                guard digits < 9 else { return nil }
                v = v * 10 + Int(bytes[index] - 48)
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            return negative ? -v : v
        }

        /// A JSON string (escapes `\"`, `\\`, `\/` kept as the character, others kept as written).
        mutating func string(into out: inout GpsdShortText) -> Bool {
            guard take(UInt8(ascii: "\"")) else { return false }
            while index < bytes.count {
                let b = bytes[index]
                index += 1
                if b == UInt8(ascii: "\"") { return true }
                if b < 0x20 { return false }
                if b == UInt8(ascii: "\\") {
                    guard index < bytes.count else { return false }
                    out.append(bytes[index])
                    index += 1
                } else {
                    out.append(b)
                }
            }
            return false
        }
    }
}
