/// The serial console as a pure engine: bytes in → commands out; device state in → reply bytes out.
/// It reads no clock, file or device; the device loop drives it:
///
///     var offset = 0
///     while let command = console.feed(bytes, from: &offset) {   // bytes read from the console fd
///         apply(command)                                         // change the core, the board …
///         console.reply(to: command, state: consoleState)        // or replyFailure(to:message:)
///     }
///     console.tick(nowNanoseconds: now, state: consoleState)     // watch redraws when due
///     console.withPendingOutput { write(fd, $0.baseAddress, $0.count) }   → consumeOutput(written)
///
/// `help`, `json` and `watch` (and every error) are answered inside the session; other commands
/// come out of `feed` and expect exactly one `reply…` call (the interactive prompt follows it).
/// Output goes into a fixed outgoing buffer; when nobody drains it, whole replies are dropped and
/// counted — the session never blocks and never grows. Allocation-free after `init`.
public struct ConsoleSession: ~Copyable {
    /// Terminal settings.
    public let options: ConsoleOptions
    /// The line editor (its history and line are visible for tests).
    public private(set) var editor: LineEditor
    /// True after `json on`: every reply is one JSON object per line.
    public internal(set) var jsonMode = false
    /// What the session counted.
    public internal(set) var counters = ConsoleSessionCounters()
    /// The running watch, if any.
    public internal(set) var watch: WatchSchedule?

    /// True while the session waits for its password: lines become `.login` commands, unparsed,
    /// unechoed and kept out of the history (`lock()`, `unlock()`).
    public private(set) var isLocked = false

    /// Set while the device owes a reply to the command `feed` returned.
    var awaitingReply = false
    /// Set after end of input: nothing more is read.
    var inputEnded = false
    /// One reply being rendered (text with `\n` line ends).
    var reply: OutputBuffer
    /// A message to be embedded in a JSON error reply.
    var message: OutputBuffer
    /// Bytes waiting for the device to write them.
    var output: OutputBuffer

    public init(options: ConsoleOptions) {
        self.options = options
        editor = LineEditor(interactive: options.interactive, prompt: options.prompt)
        reply = OutputBuffer(capacity: max(1024, options.replyCapacity))
        message = OutputBuffer(capacity: 1024)
        output = OutputBuffer(capacity: max(1024, options.outputCapacity))
    }

    /// True when replies go to a terminal.
    public var isInteractive: Bool { options.interactive }
    /// True while `watch` redraws a view.
    public var isWatching: Bool { watch != nil }

    /// Interactive sessions: the greeting and the first prompt (`password: ` when locked). Scripted
    /// sessions print nothing.
    public mutating func begin(version: StaticString) {
        guard options.interactive else { return }
        writeRaw("puckd ")
        writeRaw(version)
        if isLocked {
            writeRaw(" console. This console is locked: type its password (Ctrl-D ends the session).\r\n")
        } else {
            writeRaw(" console. Type help for the commands; Tab completes, Up recalls.\r\n")
        }
        writeRaw(editor.currentPrompt)
    }

    /// Locks the session before `begin`: every line is a password attempt until `unlock()`.
    public mutating func lock() {
        isLocked = true
        editor.masked = true
    }

    /// The password was right: the session takes commands from now on (the reply to `.login` says so).
    public mutating func unlock() {
        isLocked = false
        editor.masked = false
    }

    // MARK: input

    /// Feeds bytes from `offset` until a command for the device is complete (returned, with `offset`
    /// just past its line end) or the bytes run out (nil, `offset == bytes.count`).
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, from offset: inout Int) -> ConsoleCommand? {
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            if let command = feed(byte) { return command }
        }
        return nil
    }

    /// Feeds one byte; returns a command when it completed one for the device.
    public mutating func feed(_ byte: UInt8) -> ConsoleCommand? {
        guard !inputEnded else { counters.ignoredBytes += 1; return nil }
        counters.bytesIn += 1
        settleReply()
        if watch != nil {
            if byte == 0x03 || (options.interactive && (byte == UInt8(ascii: "q") || byte == UInt8(ascii: "Q"))) {
                stopWatch()
                return nil
            }
            if options.interactive {
                counters.ignoredBytes += 1   // the screen is being redrawn: typing is not shown
                return nil
            }
        }
        let dropped = output.droppedBytes, before = output.count
        let event = editor.feed(byte, echo: &output)
        counters.droppedBytes += Int64(output.droppedBytes - dropped)
        counters.bytesOut += Int64(output.count - before)
        switch event {
        case .none:
            return nil
        case .interrupt:
            prompt()
            return nil
        case .endOfTransmission:
            if options.interactive { writeRaw("\r\n") }
            counters.commands += 1
            awaitingReply = true
            return .quit(.endOfTransmission)
        case .line:
            if watch != nil { stopWatch() }   // scripted: the next command ends the watch
            return completeLine()
        }
    }

    /// End of input (scripted sessions): a last line without a line end still counts. Returns its
    /// command for the device, if it is one; afterwards input is ignored.
    public mutating func endOfInput() -> ConsoleCommand? {
        guard !inputEnded else { return nil }
        settleReply()
        let pending = editor.line.count > 0 || editor.lineError != nil
        inputEnded = true
        return pending ? completeLine() : nil
    }

    /// Parses the finished line: errors and session commands are answered here; device commands
    /// are returned.
    mutating func completeLine() -> ConsoleCommand? {
        counters.lines += 1
        if let error = editor.lineError {
            editor.finishLine()
            replyError(error)
            return nil
        }
        if isLocked {
            let password = editor.withLine { ConsoleText(bytes: $0) }
            editor.finishLine()                         // masked: wiped, not remembered
            counters.commands += 1
            awaitingReply = true
            return .login(password: password)
        }
        let outcome = editor.withLine { CommandParser.parse($0) }
        editor.finishLine()
        switch outcome {
        case .empty:
            prompt()
            return nil
        case .error(let error):
            replyError(error)
            return nil
        case .command(let command):
            switch command {
            case .help(let topic):
                replyHelp(topic)
                return nil
            case .json(let on):
                if let on { jsonMode = on }
                replyJSONSetting()
                return nil
            case .watch(let view, let hertz):
                startWatch(view, hertz: hertz)
                return nil
            default:
                counters.commands += 1
                awaitingReply = true
                return command
            }
        }
    }

    // MARK: output

    /// Bytes waiting to be written.
    public var pendingOutputCount: Int { output.count }

    /// Calls `body` with the bytes waiting to be written (write them, then `consumeOutput`).
    public func withPendingOutput<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        output.withBytes { body($0) }
    }

    /// Forgets the first `count` pending bytes (they were written).
    public mutating func consumeOutput(_ count: Int) {
        output.removeFirst(count)
    }

    /// Writes terminal bytes as they are (echo, prompt, control sequences), counting drops.
    mutating func writeRaw(_ text: StaticString) {
        let dropped = output.droppedBytes
        output.append(text)
        let lost = output.droppedBytes - dropped
        counters.droppedBytes += Int64(lost)
        counters.bytesOut += Int64(text.utf8CodeUnitCount - lost)
    }

    /// The interactive prompt (after a reply, or a blank line).
    mutating func prompt() {
        if options.interactive && watch == nil { writeRaw(editor.currentPrompt) }
    }

    /// A reply is owed but another byte arrived (the device did not reply): give the prompt back.
    mutating func settleReply() {
        if awaitingReply {
            awaitingReply = false
            prompt()
        }
    }
}
