/// The `uplink` view: per fleet uplink (MQTT, OsmAnd) its URL (no password), state, cursor, backlog,
/// messages in flight, the last acknowledgement's age, the fault now and the last error said, and its
/// counters. Allocation-free.
public enum UplinkView {
    /// Text, one block per uplink, one value per line.
    public static func appendText(_ device: borrowing ConsoleDeviceState, to out: inout OutputBuffer) {
        let u = device.uplink
        guard u.mqtt.isEnabled || u.osmand.isEnabled else {
            out.append("uplink: off ([uplink] mqtt_url and osmand_url are empty, or unusable: see the start-up report)\n")
            return
        }
        block("mqtt", u.mqtt, now: device.nowNanoseconds, &out)
        block("osmand", u.osmand, now: device.nowNanoseconds, &out)
    }

    private static func block(_ name: StaticString, _ u: ConsoleUplinkState, now: Int64, _ out: inout OutputBuffer) {
        out.append(name)
        guard u.isEnabled else { out.append(": off\n"); return }
        out.append(name.utf8CodeUnitCount < 6 ? "    " : "  ")
        out.append(text: u.url)
        out.append("\n  state     ")
        out.append(u.state)
        if !u.fault.isEmpty { out.append(" (fault)") }
        out.append("\n  cursor    ")
        out.append(uint: u.cursor)
        out.append(", backlog ")
        out.append(uint: u.backlog)
        out.append(", in flight ")
        out.append(int: u.inFlight)
        out.append("\n  last ack  ")
        if let ack = u.lastAcknowledgedNanoseconds {
            out.append(Double(now &- ack) / 1e9, decimals: 1)
            out.append(" s ago")
        } else {
            out.append("none yet")
        }
        out.append("\n  last err  ")
        if u.lastError.isEmpty { out.append("none") } else { out.append(text: u.lastError) }
        if !u.lastError.isEmpty && u.fault.isEmpty { out.append(" (cleared)") }
        out.append("\n  counters  ")
        out.append(uint: u.connections)
        out.append(" connections, ")
        out.append(uint: u.attempts)
        out.append(" attempts, ")
        out.append(uint: u.sent)
        out.append(" sent, ")
        out.append(uint: u.acknowledged)
        out.append(" acknowledged, ")
        out.append(uint: u.resent)
        out.append(" re-sent, ")
        out.append(uint: u.filtered)
        out.append(" filtered, ")
        out.append(uint: u.droppedByLimit)
        out.append(" given up, ")
        out.append(uint: u.faults)
        out.append(" faults\n")
    }

    /// `{"reply":"uplink","mqtt":{…}|null,"osmand":{…}|null}`, each `{"url":…,"state":…,"healthy":…,
    /// "cursor":…,"backlog":…,"inFlight":…,"lastAckAgeSeconds":…|null,"fault":…|null,"lastError":…|null,
    /// "connections":…,"attempts":…,"sent":…,"acknowledged":…,"resent":…,"filtered":…,"droppedByLimit":…,"faults":…}`.
    public static func appendJSON(_ device: borrowing ConsoleDeviceState, to out: inout OutputBuffer) {
        let u = device.uplink
        var o = JSONWriter.begin(&out)
        o.string("reply", "uplink", &out)
        member("mqtt", u.mqtt, now: device.nowNanoseconds, &o, &out)
        member("osmand", u.osmand, now: device.nowNanoseconds, &o, &out)
        o.end(&out)
    }

    private static func member(_ name: StaticString, _ u: ConsoleUplinkState, now: Int64, _ o: inout JSONWriter, _ out: inout OutputBuffer) {
        guard u.isEnabled else { o.null(name, &out); return }
        o.key(name, &out)
        var m = JSONWriter.begin(&out)
        m.text("url", u.url, &out)
        m.string("state", u.state, &out)
        m.bool("healthy", u.isHealthy, &out)
        m.integer("cursor", Int64(truncatingIfNeeded: u.cursor), &out)
        m.integer("backlog", Int64(truncatingIfNeeded: u.backlog), &out)
        m.integer("inFlight", u.inFlight, &out)
        m.number("lastAckAgeSeconds", u.lastAcknowledgedNanoseconds.map { Double(now &- $0) / 1e9 }, decimals: 1, &out)
        if u.fault.isEmpty { m.null("fault", &out) } else { m.text("fault", u.fault, &out) }
        if u.lastError.isEmpty { m.null("lastError", &out) } else { m.text("lastError", u.lastError, &out) }
        m.integer("connections", Int64(truncatingIfNeeded: u.connections), &out)
        m.integer("attempts", Int64(truncatingIfNeeded: u.attempts), &out)
        m.integer("sent", Int64(truncatingIfNeeded: u.sent), &out)
        m.integer("acknowledged", Int64(truncatingIfNeeded: u.acknowledged), &out)
        m.integer("resent", Int64(truncatingIfNeeded: u.resent), &out)
        m.integer("filtered", Int64(truncatingIfNeeded: u.filtered), &out)
        m.integer("droppedByLimit", Int64(truncatingIfNeeded: u.droppedByLimit), &out)
        m.integer("faults", Int64(truncatingIfNeeded: u.faults), &out)
        m.end(&out)
    }
}
