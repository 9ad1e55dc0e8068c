/// The `track` view: the track journal's segments, size, records, oldest and newest time, the last
/// record appended and the last one on disk, what waits and what was dropped, the last flush and the
/// disk's error. Allocation-free.
public enum TrackView {
    /// Text, one value per line.
    public static func appendText(_ device: borrowing ConsoleDeviceState, to out: inout OutputBuffer) {
        let t = device.track
        guard t.isEnabled else {
            out.append("track: off ([track] enabled = false)\n")
            return
        }
        out.append("track       ")
        out.append(text: t.directory)
        out.append("\nsegments    ")
        out.append(int: t.segments)
        out.append(", ")
        out.append(int: t.bytes)
        out.append(" bytes, ")
        out.append(int: t.records)
        out.append(" records\noldest      ")
        if let day = t.oldestDayUTCNanoseconds { out.append(isoTime: day, fractionDigits: 0); out.append(" (day of the oldest segment)") } else {
            out.append("-")
        }
        out.append("\nnewest      ")
        if let utc = t.newestUTCNanoseconds { out.append(isoTime: utc, fractionDigits: 1) } else { out.append("-") }
        out.append("\nsequence    last ")
        appendSequence(t.lastSequence, to: &out)
        out.append(", durable ")
        appendSequence(t.durableSequence, to: &out)
        out.append(", ")
        out.append(int: t.pendingRecords)
        out.append(" waiting for the flush\nlast flush  ")
        if let flushed = t.lastFlushNanoseconds {
            out.append(Double(device.nowNanoseconds &- flushed) / 1e9, decimals: 1)
            out.append(" s ago")
        } else {
            out.append("none yet")
        }
        out.append("\ndropped     ")
        out.append(uint: t.droppedSegments)
        out.append(" segments (")
        out.append(uint: t.droppedRecords)
        out.append(" records) for the size cap, ")
        out.append(uint: t.lostRecords)
        out.append(" fixes lost while the disk failed\nlast error  ")
        if t.lastError.isEmpty { out.append("none") } else { out.append(text: t.lastError) }
        out.append(UInt8(ascii: "\n"))
    }

    /// `{"reply":"track","enabled":…,"directory":…,"segments":…,"bytes":…,"records":…,"oldestDay":…|null,
    /// "newest":…|null,"lastSequence":…|null,"durableSequence":…|null,"pending":…,"lost":…,
    /// "droppedSegments":…,"droppedRecords":…,"lastFlushAgeSeconds":…|null,"lastError":…|null}`.
    public static func appendJSON(_ device: borrowing ConsoleDeviceState, to out: inout OutputBuffer) {
        let t = device.track
        var o = JSONWriter.begin(&out)
        o.string("reply", "track", &out)
        o.bool("enabled", t.isEnabled, &out)
        o.text("directory", t.directory, &out)
        o.integer("segments", t.segments, &out)
        o.integer("bytes", t.bytes, &out)
        o.integer("records", t.records, &out)
        o.integer("oldestDayUTCNanoseconds", t.oldestDayUTCNanoseconds, &out)
        o.integer("newestUTCNanoseconds", t.newestUTCNanoseconds, &out)
        o.integer("lastSequence", t.lastSequence.map { Int64(truncatingIfNeeded: $0) }, &out)
        o.integer("durableSequence", t.durableSequence.map { Int64(truncatingIfNeeded: $0) }, &out)
        o.integer("pending", t.pendingRecords, &out)
        o.integer("lost", Int64(truncatingIfNeeded: t.lostRecords), &out)
        o.integer("droppedSegments", Int64(truncatingIfNeeded: t.droppedSegments), &out)
        o.integer("droppedRecords", Int64(truncatingIfNeeded: t.droppedRecords), &out)
        var age: Double?
        if let flushed = t.lastFlushNanoseconds { age = Double(device.nowNanoseconds &- flushed) / 1e9 }
        o.number("lastFlushAgeSeconds", age, decimals: 1, &out)
        if t.lastError.isEmpty { o.null("lastError", &out) } else { o.text("lastError", t.lastError, &out) }
        o.end(&out)
    }

    private static func appendSequence(_ value: UInt64?, to out: inout OutputBuffer) {
        if let value { out.append(uint: value) } else { out.append("-") }
    }
}
