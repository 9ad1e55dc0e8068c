import Tracking

/// The `events` view: the last N tracking events from `ConsoleEventLog`, oldest first, each with its
/// time in seconds since start (text reuses `TrackingText.appendEvent`, JSON `TrackingJSON`).
/// Allocation-free.
public enum EventsView {
    /// Text: a header line, then one line per event.
    public static func appendText(_ log: borrowing ConsoleEventLog, count: Int, to out: inout OutputBuffer) {
        let shown = min(max(count, 0), log.count)
        if shown == 0 {
            out.append("events: no tracking events yet\n")
            return
        }
        out.append("last "); out.append(int: shown); out.append(" of "); out.append(uint: log.recorded)
        out.append(" events (time in seconds since start)\n")
        var i = shown - 1
        while i >= 0 {
            if let e = log.recent(i) { TrackingText.appendEvent(e, to: &out) }
            i -= 1
        }
    }

    /// `{"reply":"events","recorded":…,"events":[{"timeNanoseconds":…,"event":…,…}]}`.
    public static func appendJSON(_ log: borrowing ConsoleEventLog, count: Int, to out: inout OutputBuffer) {
        let shown = min(max(count, 0), log.count)
        var o = JSONWriter.begin(&out)
        o.string("reply", "events", &out)
        o.integer("recorded", Int64(truncatingIfNeeded: log.recorded), &out)
        o.key("events", &out)
        out.append(UInt8(ascii: "["))
        var i = shown - 1
        while i >= 0 {
            if let e = log.recent(i) {
                if i != shown - 1 { out.append(UInt8(ascii: ",")) }
                let before = out.count
                TrackingJSON.appendEventLine(e, to: &out)
                // appendEventLine ends the object with a newline; inside the array it must not.
                if !out.overflowed && out.count > before { out.removeLast(1) }
            }
            i -= 1
        }
        out.append(UInt8(ascii: "]"))
        o.end(&out)
    }
}
