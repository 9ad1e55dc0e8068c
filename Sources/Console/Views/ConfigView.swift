/// The `config` view: the running configuration (`key = value`, `(default)` marked) or one key, and
/// `version`. Allocation-free.
public enum ConfigView {
    /// Every key, or the one asked for; an unknown key gets the nearest key as a suggestion.
    public static func appendText(_ device: borrowing ConsoleDeviceState, key: ConsoleText?, to out: inout OutputBuffer) {
        let table = device.config
        if let key {
            guard let i = table.index(of: key) else { appendUnknownKey(table, key, to: &out); out.append(UInt8(ascii: "\n")); return }
            appendEntry(table[i], to: &out)
            return
        }
        if table.count == 0 {
            out.append("config: no configuration values known\n")
            return
        }
        if !device.configPath.isEmpty { out.append("# "); out.append(text: device.configPath); out.append(UInt8(ascii: "\n")) }
        var i = 0
        while i < table.count { appendEntry(table[i], to: &out); i += 1 }
        if table.overflow > 0 { out.append("# +"); out.append(int: table.overflow); out.append(" keys not shown\n") }
    }

    /// `{"reply":"config","path":…,"entries":[{"key":…,"value":…,"isDefault":…}]}`, or for a known key
    /// `{"reply":"config","key":…,"value":…,"isDefault":…}` (the session replies to an unknown key
    /// with an error built by `appendUnknownKey`).
    public static func appendJSON(_ device: borrowing ConsoleDeviceState, key: ConsoleText?, to out: inout OutputBuffer) {
        let table = device.config
        if let key, let i = table.index(of: key) {
            var o = JSONWriter.begin(&out)
            o.string("reply", "config", &out)
            entryFields(table[i], &o, &out)
            o.end(&out)
            return
        }
        var o = JSONWriter.begin(&out)
        o.string("reply", "config", &out)
        o.text("path", device.configPath, &out)
        o.key("entries", &out)
        out.append(UInt8(ascii: "["))
        var i = 0
        while i < table.count {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            var g = JSONWriter.begin(&out)
            entryFields(table[i], &g, &out)
            g.end(&out)
            i += 1
        }
        out.append(UInt8(ascii: "]"))
        o.integer("keysNotShown", table.overflow, &out)
        o.end(&out)
    }

    static func entryFields(_ e: ConsoleConfigEntry, _ o: inout JSONWriter, _ out: inout OutputBuffer) {
        o.text("key", e.key, &out)
        o.text("value", e.value, &out)
        o.bool("isDefault", e.isDefault, &out)
        if !e.origin.isEmpty { o.text("origin", e.origin, &out) }
        o.bool("needsRestart", e.needsRestart, &out)
    }

    /// `key = value` + `  (default)` or `  (ORIGIN)`, + `  (needs a restart to apply)`.
    public static func appendEntry(_ e: ConsoleConfigEntry, to out: inout OutputBuffer) {
        out.append(text: e.key)
        out.append(" = ")
        out.append(text: e.value)
        if e.isDefault {
            out.append("  (default)")
        } else if !e.origin.isEmpty {
            out.append("  (")
            out.append(text: e.origin)
            out.append(")")
        }
        if e.needsRestart { out.append("  (needs a restart to apply)") }
        out.append(UInt8(ascii: "\n"))
    }

    /// `config: unknown key 'x'; did you mean 'y'? (config lists the keys)` without newline.
    public static func appendUnknownKey(_ table: borrowing ConsoleConfigTable, _ key: ConsoleText, to out: inout OutputBuffer) {
        out.append("config: unknown key '"); out.append(text: key); out.append("'")
        if let i = nearestKey(table, key) {
            out.append("; did you mean '"); out.append(text: table[i].key); out.append("'?")
        }
        out.append(" (config lists the keys)")
    }

    /// The index of the key nearest to `key` within the suggestion threshold, or nil.
    public static func nearestKey(_ table: borrowing ConsoleConfigTable, _ key: ConsoleText) -> Int? {
        var best: Int?
        var bestDistance = SuggestNearest.threshold(forLength: key.count) + 1
        var i = 0
        while i < table.count {
            let candidate = table[i].key
            let d = key.withBytes { a in candidate.withBytes { b in SuggestNearest.distance(a, b) } }
            if d < bestDistance { best = i; bestDistance = d }
            i += 1
        }
        return best
    }
}
