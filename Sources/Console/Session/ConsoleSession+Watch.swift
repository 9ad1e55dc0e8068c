/// `watch CMD [HZ]`: the device calls `tick(nowNanoseconds:state:)` from its loop (it already ticks
/// at 60 Hz) and may sleep until `nextRedrawNanoseconds`. On a terminal each frame redraws in place
/// (cursor home, every line cleared to its end, the rest of the screen cleared; cut to the terminal
/// height so nothing scrolls). Scripted sessions get one frame per interval, separated by a blank
/// line; in json mode, one JSON line per frame.
extension ConsoleSession {
    /// When the next watch frame is due (monotonic ns); `Int64.min` = at once; nil = no watch.
    public var nextRedrawNanoseconds: Int64? {
        guard let w = watch else { return nil }
        return w.nextDueNanoseconds ?? Int64.min
    }

    /// Draws a watch frame when one is due. Allocation-free.
    public mutating func tick(nowNanoseconds now: Int64, state: borrowing ConsoleState) {
        guard var w = watch, w.isDue(at: now) else { return }
        w.advance(from: now)
        defer { watch = w }
        if w.streams {
            stream(&w, state: state)
            return
        }
        let inPlace = options.interactive && !jsonMode
        if options.interactive && output.count > 0 {
            // The terminal has not taken the previous frame yet: drawing another would only queue a
            // stale picture. Skip it.
            counters.skippedWatchFrames += 1
            return
        }
        reply.removeAll()
        render(w.view, state: state)
        if jsonMode {
            reply.append(UInt8(ascii: "\n"))
            commitReply()
        } else if inPlace {
            if reply.overflowed { cutOverlongReply() }
            commitFrame(w)
        } else {
            reply.append(UInt8(ascii: "\n"))   // a blank line between frames
            commitReply()
        }
        w.frames += 1
        counters.watchFrames += 1
    }

    /// `watch nmea`: the lines that arrived since the last tick, as many as the output has room for
    /// (the rest wait for the next tick; lines overwritten meanwhile are counted in one line).
    mutating func stream(_ w: inout WatchSchedule, state: borrowing ConsoleState) {
        reply.removeAll()
        let start = state.device.nowNanoseconds &- state.device.uptimeNanoseconds
        var next: UInt64
        if let n = w.nextLine {
            next = n
        } else {
            next = state.nmea.recorded
            if !jsonMode {
                reply.append("the receiver's traffic as it arrives (> = sent by puckd; ")
                reply.append(options.interactive ? "Ctrl-C or q stops)\n" : "the next command stops)\n")
            }
        }
        let room = min(reply.capacity, max(0, outputRoom / 2 - 64))
        guard case .nmea = w.view else { return }
        NMEAView.appendNew(state.nmea, next: &next, startNanoseconds: start, json: jsonMode, room: room, to: &reply)
        w.nextLine = next
        guard reply.count > 0 else { return }
        commitReply()
        w.frames += 1
        counters.watchFrames += 1
    }

    mutating func startWatch(_ view: ConsoleView, hertz: Double) {
        watch = WatchSchedule(view: view, hertz: hertz)
    }

    /// Ends the watch (Ctrl-C, `q`, or a new scripted command) and gives the prompt back.
    mutating func stopWatch() {
        watch = nil
        if options.interactive {
            writeRaw("\r\n")
            prompt()
        }
    }

    /// Writes the reply buffer as an in-place frame: `ESC[H`, a header line, at most
    /// `terminalRows - 1` lines each ending in `ESC[K\r\n`, then `ESC[J`. Whole or not at all.
    mutating func commitFrame(_ w: WatchSchedule) {
        let rows = max(3, options.terminalRows)
        let totalLines = newlineCount()
        let room = rows - 2                       // header line + the row the cursor ends on
        let shownLines = totalLines <= room ? totalLines : room - 1
        // Size: ESC[H + header + lines (+ ESC[K CR LF each) + note + ESC[J.
        var needed = reply.count + 5 * shownLines + 3 + 64 + 3
        if shownLines < totalLines { needed += 80 }
        guard needed <= outputRoom else {
            counters.droppedReplies += 1
            counters.droppedBytes += Int64(needed)
            return
        }
        let before = output.count
        output.append("\u{1B}[H")
        output.append("every ")
        RenderFormat.compact(Double(w.intervalNanoseconds) / 1e9, to: &output)
        output.append(" s: ")
        output.append(w.view.name.word)
        output.append("   (Ctrl-C or q stops)\u{1B}[K\r\n")
        _ = Self.copyLines(reply, to: &output, lineEnd: "\u{1B}[K\r\n", maximumLines: shownLines)
        if shownLines < totalLines {
            output.append("\u{2026} ")
            output.append(int: totalLines - shownLines)
            output.append(" more lines (the terminal has ")
            output.append(int: rows)
            output.append(" rows)\u{1B}[K\r\n")
        }
        output.append("\u{1B}[J")
        counters.bytesOut += Int64(output.count - before)
    }
}
