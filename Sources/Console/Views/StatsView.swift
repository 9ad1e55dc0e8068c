import NMEA

/// The `stats` view: every counter — NMEA framing (bytes, sentences, drops by reason), epoch assembly,
/// the tracking core, the device's own table (I2C errors, GPIO events, ticks, allocations, loop
/// latency …) and the console session. Counts are plain numbers; names carry units where needed.
/// Allocation-free.
public enum StatsView {
    /// Text, grouped, `name value` per line.
    public static func appendText(_ state: borrowing ConsoleState, console: ConsoleSessionCounters,
                                  to out: inout OutputBuffer) {
        group("nmea framer", &out)
        forEachFramerCounter(state.framer) { name, value in line(name, value, &out) }
        group("nmea assembler", &out)
        forEachAssemblerCounter(state.assembler) { name, value in line(name, value, &out) }
        line("skyViewDroppedSignals", Int64(state.skyView.droppedEntries), &out)
        group("receiver", &out)
        ReceiverView.forEachCounter(state.receiver, state.ubxFrames) { name, value in line(name, value, &out) }
        group("tracking", &out)
        if let t = state.tracking {
            line("timeRegressions", Int64(truncatingIfNeeded: t.timeRegressionCount), &out)
            line("rejectedFixes", Int64(truncatingIfNeeded: t.rejectedFixCount), &out)
            line("ignoredHeadings", Int64(truncatingIfNeeded: t.ignoredHeadingCount), &out)
            line("eventQueueOverflows", Int64(truncatingIfNeeded: t.eventOverflowCount), &out)
        }
        line("eventsRecorded", Int64(truncatingIfNeeded: state.events.recorded), &out)
        group("device", &out)
        let counters = state.device.counters
        var i = 0
        while i < counters.count { line(counters[i].name, counters[i].value, &out); i += 1 }
        if counters.overflow > 0 { line("countersNotShown", Int64(counters.overflow), &out) }
        if let allocations = state.device.allocationsAfterStartUp {
            line("allocationsAfterStartUp", allocations, &out)
        } else {
            out.append("  ")
            RenderFormat.label("allocationsAfterStartUp", width: 30, to: &out)
            out.append("not measured (the malloc counter is linked into tests and benchmarks only)\n")
        }
        group("console", &out)
        forEachConsoleCounter(console) { name, value in line(name, value, &out) }
    }

    private static func group(_ title: StaticString, _ out: inout OutputBuffer) {
        out.append("[")
        out.append(title)
        out.append("]\n")
    }

    private static func line(_ name: StaticString, _ value: Int64, _ out: inout OutputBuffer) {
        out.append("  ")
        RenderFormat.label(name, width: 30, to: &out)
        RenderFormat.rightAligned(value, width: 12, to: &out)
        out.append(UInt8(ascii: "\n"))
    }

    /// `{"reply":"stats","nmeaFramer":{…},"nmeaAssembler":{…},"tracking":{…}|null,"device":{…},"console":{…}}`.
    public static func appendJSON(_ state: borrowing ConsoleState, console: ConsoleSessionCounters,
                                  to out: inout OutputBuffer) {
        var o = JSONWriter.begin(&out)
        o.string("reply", "stats", &out)
        o.key("nmeaFramer", &out)
        var g = JSONWriter.begin(&out)
        forEachFramerCounter(state.framer) { name, value in g.integer(name, value, &out) }
        g.end(&out)
        o.key("nmeaAssembler", &out)
        g = JSONWriter.begin(&out)
        forEachAssemblerCounter(state.assembler) { name, value in g.integer(name, value, &out) }
        g.integer("skyViewDroppedSignals", state.skyView.droppedEntries, &out)
        g.end(&out)
        o.key("receiver", &out)
        g = JSONWriter.begin(&out)
        ReceiverView.forEachCounter(state.receiver, state.ubxFrames) { name, value in g.integer(name, value, &out) }
        g.end(&out)
        o.key("tracking", &out)
        g = JSONWriter.begin(&out)
        if let t = state.tracking {
            g.integer("timeRegressions", Int64(truncatingIfNeeded: t.timeRegressionCount), &out)
            g.integer("rejectedFixes", Int64(truncatingIfNeeded: t.rejectedFixCount), &out)
            g.integer("ignoredHeadings", Int64(truncatingIfNeeded: t.ignoredHeadingCount), &out)
            g.integer("eventQueueOverflows", Int64(truncatingIfNeeded: t.eventOverflowCount), &out)
        }
        g.integer("eventsRecorded", Int64(truncatingIfNeeded: state.events.recorded), &out)
        g.end(&out)
        o.key("device", &out)
        out.append(UInt8(ascii: "{"))
        let counters = state.device.counters
        var i = 0
        while i < counters.count {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.string(counters[i].name, &out)
            out.append(UInt8(ascii: ":"))
            out.append(int: counters[i].value)
            i += 1
        }
        out.append(UInt8(ascii: "}"))
        o.integer("deviceCountersNotShown", counters.overflow, &out)
        o.integer("allocationsAfterStartUp", state.device.allocationsAfterStartUp, &out)
        o.key("console", &out)
        g = JSONWriter.begin(&out)
        forEachConsoleCounter(console) { name, value in g.integer(name, value, &out) }
        g.end(&out)
        o.end(&out)
    }

    static func forEachFramerCounter(_ f: FramerCounters, _ body: (StaticString, Int64) -> Void) {
        body("bytes", Int64(f.bytes)); body("garbageBytes", Int64(f.garbageBytes))
        body("terminatorBytes", Int64(f.terminatorBytes)); body("deliveredBytes", Int64(f.deliveredBytes))
        body("droppedBytes", Int64(f.droppedBytes)); body("nulBytes", Int64(f.nulBytes))
        body("sentencesStarted", Int64(f.sentencesStarted)); body("sentencesDelivered", Int64(f.sentencesDelivered))
        body("uncheckedSentences", Int64(f.uncheckedSentences)); body("droppedSentences", Int64(f.droppedSentences))
        body("dropCollisions", Int64(f.collisions)); body("dropOverlong", Int64(f.overlong))
        body("dropInvalidCharacters", Int64(f.invalidCharacters)); body("dropBadChecksums", Int64(f.badChecksums))
        body("dropMalformedChecksums", Int64(f.malformedChecksums)); body("dropMissingChecksums", Int64(f.missingChecksums))
        body("dropTooShort", Int64(f.tooShort)); body("dropTruncated", Int64(f.truncated))
    }

    static func forEachAssemblerCounter(_ a: AssemblerCounters, _ body: (StaticString, Int64) -> Void) {
        body("epochs", Int64(a.epochs)); body("epochsWithFix", Int64(a.epochsWithFix))
        body("epochsWithoutDate", Int64(a.epochsWithoutDate)); body("timeWentBackwards", Int64(a.timeWentBackwards))
        body("gaps", Int64(a.gaps)); body("weekRolloverCorrections", Int64(a.weekRolloverCorrections))
        body("derivedVelocities", Int64(a.derivedVelocities)); body("sentencesWithoutTime", Int64(a.sentencesWithoutTime))
        body("sentencesBeforeFirstEpoch", Int64(a.sentencesBeforeFirstEpoch))
        body("unmatchedErrorStatistics", Int64(a.unmatchedErrorStatistics))
        body("satelliteSequenceErrors", Int64(a.satelliteSequenceErrors)); body("skyViews", Int64(a.skyViews))
        body("epochsClosedAtCycleEnder", Int64(a.epochsClosedAtCycleEnder))
        body("epochsClosedByNextEpoch", Int64(a.epochsClosedByNextEpoch))
        body("epochsClosedByQuietLine", Int64(a.epochsClosedByQuietLine)); body("sentencesAfterClose", Int64(a.sentencesAfterClose))
        body("epochsCutWhileLearning", Int64(a.epochsCutWhileLearning))
    }

    static func forEachConsoleCounter(_ c: ConsoleSessionCounters, _ body: (StaticString, Int64) -> Void) {
        body("bytesIn", c.bytesIn); body("lines", c.lines); body("commands", c.commands); body("errors", c.errors)
        body("ignoredBytes", c.ignoredBytes); body("bytesOut", c.bytesOut); body("droppedReplies", c.droppedReplies)
        body("droppedBytes", c.droppedBytes); body("truncatedReplies", c.truncatedReplies)
        body("watchFrames", c.watchFrames); body("skippedWatchFrames", c.skippedWatchFrames)
        body("notices", c.notices); body("suppressedNotices", c.suppressedNotices)
    }
}
