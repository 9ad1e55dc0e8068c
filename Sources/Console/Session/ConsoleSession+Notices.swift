/// Messages the device has for the person at an interactive console while they type: log lines such
/// as "mode: follow (LED: 1 blinks)" or "gps: source open". A notice is printed above the prompt — the
/// line being edited is cleared, the notice written, and the prompt with the line redrawn — so the
/// person's typing is never mixed with it. While a watch redraws the screen, notices are not shown
/// (counted in `suppressedNotices`; the watched view shows the state). Scripted sessions print no
/// notices: their output is replies only (the device logs elsewhere). Allocation-free.
extension ConsoleSession {
    /// Prints `text` (one or more lines separated by `\n`; a trailing newline is optional) above the
    /// prompt. Returns false when it was not shown (scripted, watching, or no room: counted).
    @discardableResult
    public mutating func writeNotice(_ text: UnsafeRawBufferPointer) -> Bool {
        guard options.interactive, !inputEnded else { return false }
        guard watch == nil else {
            counters.suppressedNotices += 1
            return false
        }
        var lines = 0
        var i = 0
        while i < text.count {
            if text[i] == 0x0A { lines += 1 }
            i += 1
        }
        let endsWithNewline = text.count > 0 && text[text.count - 1] == 0x0A
        if !endsWithNewline { lines += 1 }
        // CR + erase line, the text with CR LF line ends, prompt + line + erase + cursor moves.
        let needed = 4 + text.count + lines + options.prompt.utf8CodeUnitCount + editor.line.count + 16
        guard needed <= outputRoom else {
            counters.suppressedNotices += 1
            counters.droppedBytes += Int64(needed)
            return false
        }
        let before = output.count
        // While the device owes a reply the prompt is not drawn yet: the notice goes on a line of its
        // own and the reply's prompt follows later.
        if !awaitingReply { output.append("\r\u{1B}[K") }
        var start = 0
        i = 0
        while i < text.count {
            if text[i] == 0x0A {
                output.append(UnsafeRawBufferPointer(rebasing: text[start..<i]))
                output.append("\r\n")
                start = i + 1
            }
            i += 1
        }
        if start < text.count {
            output.append(UnsafeRawBufferPointer(rebasing: text[start..<text.count]))
            output.append("\r\n")
        }
        if !awaitingReply { editor.redraw(&output) }
        counters.notices += 1
        counters.bytesOut += Int64(output.count - before)
        return true
    }

    /// As `replyFailure(to:message:)` with a message of any length the device built (a configuration
    /// error naming the key and its allowed values); it is cut at the message buffer's 1024 bytes.
    public mutating func replyFailure(to command: ConsoleCommand, bytes text: UnsafeRawBufferPointer) {
        awaitingReply = false
        counters.errors += 1
        message.removeAll()
        message.append(command.name.word); message.append(": "); message.append(text)
        replyMessage(command: command.name)
    }

    /// True after end of input or `endInput()`: the session reads no more.
    public var hasEnded: Bool { inputEnded }

    /// Ends the input after a `quit`: later bytes are ignored (the device closes or replaces the session).
    public mutating func endInput() {
        inputEnded = true
    }
}
