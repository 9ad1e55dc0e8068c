/// The console's line editor: bytes in (split anywhere, even inside an escape sequence), a finished
/// line out. VT100 only, so it works in picocom, screen and minicom:
///
/// - printable ASCII is inserted at the cursor; Backspace (0x08 or 0x7F) deletes before it, Delete
///   (`ESC [ 3 ~`) and Ctrl-D under it; Left/Right (and Ctrl-B/Ctrl-F), Home/End (and Ctrl-A/Ctrl-E)
///   move; Ctrl-U kills the line, Ctrl-K to its end, Ctrl-W the word before the cursor; Ctrl-L redraws;
/// - Up/Down (and Ctrl-P/Ctrl-N) recall `LineEditorHistory`; Tab completes (`LineEditorCompletion`);
/// - CR, LF or CRLF end the line; Ctrl-C abandons it; Ctrl-D on an empty line ends the session.
///
/// Interactive editors echo and redraw with `\r`, `\b`, `ESC [ n C/D` and `ESC [ K` (and ring the bell
/// on a refused key). Scripted editors (input not a terminal) echo nothing and treat Tab as a blank.
/// Lines are at most `LineEditorLine.capacity` bytes: an interactive editor refuses more (and says so
/// once), a scripted one ignores the whole line and reports it (`lineError`). Bytes outside printable
/// ASCII are refused the same way. Allocation-free.
public struct LineEditor: Sendable {
    /// What a byte completed.
    public enum Event: Sendable, Equatable {
        case none
        /// A line ended: read it with `withLine`, then call `finishLine()`.
        case line
        /// Ctrl-C: the line was abandoned.
        case interrupt
        /// Ctrl-D on an empty line.
        case endOfTransmission
    }

    /// True when echoing to a terminal.
    public let interactive: Bool
    /// The prompt drawn before the line (interactive only).
    public let prompt: StaticString
    /// The line being edited.
    public internal(set) var line = LineEditorLine()
    /// Cursor position in the line (0...line.count).
    public internal(set) var cursor = 0
    /// Lines entered before.
    public private(set) var history = LineEditorHistory()
    /// Bytes ignored (unsupported control bytes, unknown escape sequences, refused bytes).
    public private(set) var ignoredBytes: Int64 = 0
    /// True while a password is typed: nothing is echoed or redrawn, the cursor keys, Tab and the
    /// history do nothing, and the line never enters the history.
    public var masked = false
    /// The prompt of a masked line.
    public static let passwordPrompt: StaticString = "password: "

    var escape = LineEditorEscape()
    var historyAge: Int?
    var draft = LineEditorLine()
    var lastWasCR = false
    var overlong = false
    var warnedOverlong = false
    var invalidByte: UInt8 = 0
    var invalidColumn = 0

    public init(interactive: Bool, prompt: StaticString = "puckd> ") {
        self.interactive = interactive
        self.prompt = prompt
    }

    /// Why the finished line must be ignored (too long, or not ASCII), or nil.
    public var lineError: CommandError? {
        if overlong { return CommandError(command: nil, kind: .lineTooLong(limit: LineEditorLine.capacity)) }
        if invalidColumn > 0 { return CommandError(command: nil, kind: .notASCII(byte: invalidByte, column: invalidColumn)) }
        return nil
    }

    /// Calls `body` with the bytes of the current line.
    public func withLine<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R { line.withBytes(body) }

    /// After `.line`: stores the line in the history (unless it had an error) and starts a new one.
    public mutating func finishLine() {
        if lineError == nil && !masked { history.add(line) }
        if masked { line.wipe() }
        clearLine()
    }

    /// Feeds one byte; echo (interactive only) goes to `out`.
    public mutating func feed(_ byte: UInt8, echo out: inout OutputBuffer) -> Event {
        if byte == 0x0A && lastWasCR {   // the LF of a CRLF
            lastWasCR = false
            return .none
        }
        lastWasCR = byte == 0x0D
        if escape.isActive {
            switch escape.feed(byte) {
            case .pending: return .none
            case .key(let key):
                if masked { ignoredBytes += 1 } else { handle(key, &out) }
                return .none
            case .abandoned: ignoredBytes += 1   // the sequence so far; the byte itself is handled below
            }
        }
        if masked, byte == 0x09 || byte == 0x01 || byte == 0x05 || byte == 0x02 || byte == 0x06 || byte == 0x10
            || byte == 0x0E || byte == 0x04 && line.count > 0 {
            ignoredBytes += 1                       // no completion, movement or recall of a password
            return .none
        }
        switch byte {
        case 0x1B: escape.begin()
        case 0x0D, 0x0A:
            if interactive { out.append("\r\n") }
            return .line
        case 0x03:
            if interactive { out.append("^C\r\n") }
            clearLine()
            return .interrupt
        case 0x04:
            if line.count == 0 { return .endOfTransmission }
            deleteUnderCursor(&out)
        case 0x08, 0x7F: backspace(&out)
        case 0x09:
            if interactive { complete(&out) } else { insert(0x20, &out) }
        case 0x15: killLine(&out)
        case 0x0B:
            line.remove(cursor..<line.count)
            if interactive { out.append("\u{1B}[K") }
        case 0x17: deleteWordBeforeCursor(&out)
        case 0x01: handle(.home, &out)
        case 0x05: handle(.end, &out)
        case 0x02: handle(.left, &out)
        case 0x06: handle(.right, &out)
        case 0x10: handle(.up, &out)
        case 0x0E: handle(.down, &out)
        case 0x0C:
            if interactive { out.append("\u{1B}[H\u{1B}[2J"); redraw(&out) }
        case 0x20...0x7E: insert(byte, &out)
        case 0x80...0xFF:
            if interactive {
                bell(&out)
            } else if invalidColumn == 0 {
                invalidByte = byte
                invalidColumn = cursor + 1
            }
            ignoredBytes += 1
        default:
            ignoredBytes += 1
        }
        return .none
    }

    /// Appends the prompt (interactive only).
    public func appendPrompt(to out: inout OutputBuffer) {
        if interactive { out.append(currentPrompt) }
    }

    /// The prompt now: `passwordPrompt` while masked.
    public var currentPrompt: StaticString { masked ? Self.passwordPrompt : prompt }

    /// Redraws prompt and line on the current terminal row and puts the cursor back.
    public func redraw(_ out: inout OutputBuffer) {
        guard interactive else { return }
        out.append(UInt8(ascii: "\r"))
        out.append(currentPrompt)
        if masked { out.append("\u{1B}[K"); return }
        line.append(0..<line.count, to: &out)
        out.append("\u{1B}[K")
        moveLeft(line.count - cursor, &out)
    }

    // MARK: editing

    mutating func insert(_ byte: UInt8, _ out: inout OutputBuffer) {
        guard !overlong else { ignoredBytes += 1; return }
        guard line.insert(byte, at: cursor) else {
            ignoredBytes += 1
            if interactive {
                bell(&out)
                if !warnedOverlong {
                    warnedOverlong = true
                    out.append("\r\n(line full: commands are at most ")
                    out.append(int: LineEditorLine.capacity)
                    out.append(" bytes)\r\n")
                    redraw(&out)
                }
            } else {
                overlong = true
            }
            return
        }
        cursor += 1
        guard interactive, !masked else { return }
        out.append(byte)
        if cursor < line.count {
            line.append(cursor..<line.count, to: &out)
            moveLeft(line.count - cursor, &out)
        }
    }

    mutating func backspace(_ out: inout OutputBuffer) {
        guard cursor > 0 else { bell(&out); return }
        cursor -= 1
        line.remove(cursor..<cursor + 1)
        guard interactive, !masked else { return }
        out.append(0x08)
        line.append(cursor..<line.count, to: &out)
        out.append(UInt8(ascii: " "))
        moveLeft(line.count - cursor + 1, &out)
    }

    mutating func deleteUnderCursor(_ out: inout OutputBuffer) {
        guard cursor < line.count else { bell(&out); return }
        line.remove(cursor..<cursor + 1)
        guard interactive, !masked else { return }
        line.append(cursor..<line.count, to: &out)
        out.append(UInt8(ascii: " "))
        moveLeft(line.count - cursor + 1, &out)
    }

    mutating func killLine(_ out: inout OutputBuffer) {
        line.removeAll()
        cursor = 0
        overlong = false
        warnedOverlong = false
        invalidColumn = 0
        redraw(&out)
    }

    mutating func deleteWordBeforeCursor(_ out: inout OutputBuffer) {
        var start = cursor
        while start > 0 && line[start - 1] == 0x20 { start -= 1 }
        while start > 0 && line[start - 1] != 0x20 { start -= 1 }
        guard start < cursor else { bell(&out); return }
        line.remove(start..<cursor)
        cursor = start
        redraw(&out)
    }

    mutating func handle(_ key: LineEditorEscape.Key, _ out: inout OutputBuffer) {
        switch key {
        case .left:
            guard cursor > 0 else { bell(&out); return }
            cursor -= 1
            if interactive { out.append("\u{1B}[D") }
        case .right:
            guard cursor < line.count else { bell(&out); return }
            cursor += 1
            if interactive { out.append("\u{1B}[C") }
        case .home:
            moveLeft(cursor, &out)
            cursor = 0
        case .end:
            moveRight(line.count - cursor, &out)
            cursor = line.count
        case .delete:
            deleteUnderCursor(&out)
        case .up:
            if historyAge == nil {
                guard history.count > 0 else { bell(&out); return }
                draft = line
                historyAge = 0
            } else if let age = historyAge, age + 1 < history.count {
                historyAge = age + 1
            } else {
                bell(&out)
                return
            }
            recall(&out)
        case .down:
            guard let age = historyAge else { bell(&out); return }
            if age == 0 {
                historyAge = nil
                line = draft
                cursor = line.count
                redraw(&out)
            } else {
                historyAge = age - 1
                recall(&out)
            }
        case .unknown:
            ignoredBytes += 1
        }
    }

    mutating func recall(_ out: inout OutputBuffer) {
        if let age = historyAge, let entry = history.entry(age) { line = entry }
        cursor = line.count
        overlong = false
        invalidColumn = 0
        redraw(&out)
    }

    mutating func clearLine() {
        line.removeAll()
        cursor = 0
        historyAge = nil
        overlong = false
        warnedOverlong = false
        invalidColumn = 0
        escape.reset()
    }

    // MARK: terminal output

    func bell(_ out: inout OutputBuffer) {
        if interactive { out.append(0x07) }
    }

    func moveLeft(_ n: Int, _ out: inout OutputBuffer) {
        guard interactive, n > 0 else { return }
        out.append("\u{1B}[")
        out.append(int: n)
        out.append(UInt8(ascii: "D"))
    }

    func moveRight(_ n: Int, _ out: inout OutputBuffer) {
        guard interactive, n > 0 else { return }
        out.append("\u{1B}[")
        out.append(int: n)
        out.append(UInt8(ascii: "C"))
    }
}
