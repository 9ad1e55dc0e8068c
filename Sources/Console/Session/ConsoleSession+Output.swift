/// Moving a rendered reply into the outgoing buffer: whole or not at all, with `\r\n` line ends on
/// a terminal; a reply larger than the reply buffer is cut at a line end and says so.
extension ConsoleSession {
    /// Free bytes in the outgoing buffer.
    var outputRoom: Int { output.capacity - output.count }

    /// Commits the reply buffer (which ends with a newline).
    mutating func commitReply() {
        if reply.overflowed { cutOverlongReply() }
        let interactive = options.interactive
        var needed = reply.count
        if interactive { needed += newlineCount() }
        guard needed <= outputRoom else {
            counters.droppedReplies += 1
            counters.droppedBytes += Int64(needed)
            return
        }
        if interactive {
            _ = Self.copyLines(reply, to: &output, lineEnd: "\r\n", maximumLines: Int.max)
        } else {
            output.append(contentsOf: reply)
        }
        counters.bytesOut += Int64(needed)
    }

    /// Copies the lines of `source` (each ending in `\n`) to `destination` with `lineEnd` instead of
    /// the `\n`, at most `maximumLines` of them, segment by segment; returns the lines copied.
    static func copyLines(_ source: borrowing OutputBuffer, to destination: inout OutputBuffer, lineEnd: StaticString,
                          maximumLines: Int) -> Int {
        source.withBytes { bytes in
            var lines = 0
            var start = 0
            var i = 0
            while i < bytes.count && lines < maximumLines {
                if bytes[i] == 0x0A {
                    destination.append(UnsafeRawBufferPointer(rebasing: bytes[start..<i]))
                    destination.append(lineEnd)
                    lines += 1
                    start = i + 1
                }
                i += 1
            }
            if lines < maximumLines && start < bytes.count {
                destination.append(UnsafeRawBufferPointer(rebasing: bytes[start..<bytes.count]))
            }
            return lines
        }
    }

    /// Newlines in the reply buffer.
    func newlineCount() -> Int {
        reply.withBytes { bytes in
            var n = 0
            var i = 0
            while i < bytes.count {
                if bytes[i] == 0x0A { n += 1 }
                i += 1
            }
            return n
        }
    }

    /// The reply did not fit the reply buffer: JSON becomes an error object; text is cut at the last
    /// line end that leaves room for a note.
    mutating func cutOverlongReply() {
        counters.truncatedReplies += 1
        let lost = reply.droppedBytes
        if jsonMode {
            reply.removeAll()
            var o = JSONWriter.begin(&reply)
            o.string("reply", "error", &reply)
            o.key("message", &reply)
            reply.append("\"reply too large for the console (")
            reply.append(int: reply.capacity)
            reply.append(" bytes); ask for less, e.g. events 10\"")
            o.end(&reply)
            reply.append(UInt8(ascii: "\n"))
            return
        }
        var end = max(0, reply.capacity - 96)
        while end > 0 && reply[end - 1] != 0x0A { end -= 1 }
        let cut = lost + reply.count - end
        reply.truncate(to: end)
        reply.append("\u{2026} reply cut: ")
        reply.append(int: cut)
        reply.append(" more bytes did not fit the console's reply buffer\n")
    }
}
