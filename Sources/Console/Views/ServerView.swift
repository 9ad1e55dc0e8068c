/// The `server` view: the gpsd-compatible server's listening addresses, its clients (slot, peer,
/// watch flags, queued bytes, drops) and its totals (docs/gpsd-protocol.md §4). Allocation-free.
public enum ServerView {
    /// Text: a header block, one line per client, the totals.
    public static func appendText(_ device: borrowing ConsoleDeviceState, to out: inout OutputBuffer) {
        let s = device.server
        guard s.isEnabled else {
            out.append("server: off ([server] enabled = false, or it could not listen: see the start-up report)\n")
            return
        }
        out.append("listening   ")
        if s.listening.isEmpty { out.append("nowhere") } else { out.append(text: s.listening) }
        out.append("\nclients     ")
        out.append(int: s.clientCount)
        out.append(" of ")
        out.append(int: s.maxClients)
        out.append(" slots\n")
        if s.clientCount > 0 {
            out.append("slot peer                     connected  queued    drops  watch\n")
        }
        var i = 0
        while i < s.rowCount {
            let c = s.clients[i]
            pad(&out, int: c.slot, width: 4)
            out.append(" ")
            let before = out.count
            out.append(text: c.peer)
            out.append(repeating: UInt8(ascii: " "), count: max(1, 25 - (out.count - before)))
            let secondsStart = out.count
            out.append(Double(c.connectedNanoseconds) / 1e9, decimals: 0)
            out.append(" s")
            out.append(repeating: UInt8(ascii: " "), count: max(1, 11 - (out.count - secondsStart)))
            pad(&out, int: c.queuedBytes, width: 6)
            out.append(" ")
            pad(&out, int: Int(truncatingIfNeeded: c.counters.reportsDropped), width: 8)
            out.append("  ")
            if c.watch.isEmpty { out.append("(not watching)") } else { out.append(text: c.watch) }
            if c.puckdHertz > 0 { out.append(" @"); out.append(int: c.puckdHertz); out.append(" Hz") }
            out.append(UInt8(ascii: "\n"))
            i += 1
        }
        if s.clientCount > s.rowCount {
            out.append("… and ")
            out.append(int: s.clientCount - s.rowCount)
            out.append(" more\n")
        }
        out.append("totals      ")
        out.append(uint: s.totals.accepted)
        out.append(" accepted, ")
        out.append(uint: s.totals.refused)
        out.append(" refused (slots full), ")
        out.append(uint: s.totals.requests)
        out.append(" requests, ")
        out.append(uint: s.totals.errors)
        out.append(" errors\nreports     ")
        out.append(uint: s.totals.reportsQueued)
        out.append(" queued, ")
        out.append(uint: s.totals.reportsDropped)
        out.append(" dropped for slow clients, ")
        out.append(uint: s.totals.bytesSent)
        out.append(" bytes sent, ")
        out.append(uint: s.totals.sentencesForwarded)
        out.append(" sentences forwarded, ")
        out.append(uint: s.totals.socketErrors)
        out.append(" socket errors\n")
    }

    /// `{"reply":"server","enabled":…,"listening":…,"maxClients":…,"clientCount":…,"clients":[{"slot":…,
    /// "peer":…,"watch":…,"puckdHz":…,"connectedSeconds":…,"queuedBytes":…,"reportsQueued":…,
    /// "reportsDropped":…,"requests":…}…],"accepted":…,"refused":…,"requests":…,"errors":…,
    /// "reportsQueued":…,"reportsDropped":…,"bytesSent":…,"sentencesForwarded":…,"socketErrors":…}`.
    public static func appendJSON(_ device: borrowing ConsoleDeviceState, to out: inout OutputBuffer) {
        let s = device.server
        var o = JSONWriter.begin(&out)
        o.string("reply", "server", &out)
        o.bool("enabled", s.isEnabled, &out)
        o.text("listening", s.listening, &out)
        o.integer("maxClients", s.maxClients, &out)
        o.integer("clientCount", s.clientCount, &out)
        o.key("clients", &out)
        out.append(UInt8(ascii: "["))
        var i = 0
        while i < s.rowCount {
            let c = s.clients[i]
            if i > 0 { out.append(UInt8(ascii: ",")) }
            var r = JSONWriter.begin(&out)
            r.integer("slot", c.slot, &out)
            r.text("peer", c.peer, &out)
            r.text("watch", c.watch, &out)
            r.integer("puckdHz", c.puckdHertz, &out)
            r.number("connectedSeconds", Double(c.connectedNanoseconds) / 1e9, decimals: 1, &out)
            r.integer("queuedBytes", c.queuedBytes, &out)
            r.integer("reportsQueued", Int64(truncatingIfNeeded: c.counters.reportsQueued), &out)
            r.integer("reportsDropped", Int64(truncatingIfNeeded: c.counters.reportsDropped), &out)
            r.integer("requests", Int64(truncatingIfNeeded: c.counters.requests), &out)
            r.end(&out)
            i += 1
        }
        out.append(UInt8(ascii: "]"))
        o.integer("accepted", Int64(truncatingIfNeeded: s.totals.accepted), &out)
        o.integer("refused", Int64(truncatingIfNeeded: s.totals.refused), &out)
        o.integer("requests", Int64(truncatingIfNeeded: s.totals.requests), &out)
        o.integer("errors", Int64(truncatingIfNeeded: s.totals.errors), &out)
        o.integer("reportsQueued", Int64(truncatingIfNeeded: s.totals.reportsQueued), &out)
        o.integer("reportsDropped", Int64(truncatingIfNeeded: s.totals.reportsDropped), &out)
        o.integer("bytesSent", Int64(truncatingIfNeeded: s.totals.bytesSent), &out)
        o.integer("sentencesForwarded", Int64(truncatingIfNeeded: s.totals.sentencesForwarded), &out)
        o.integer("socketErrors", Int64(truncatingIfNeeded: s.totals.socketErrors), &out)
        o.end(&out)
    }

    private static func pad(_ out: inout OutputBuffer, int value: Int, width: Int) {
        var digits = 1
        var v = abs(value)
        while v >= 10 { v /= 10; digits += 1 }
        if value < 0 { digits += 1 }
        if digits < width { out.append(repeating: UInt8(ascii: " "), count: width - digits) }
        out.append(int: value)
    }
}
