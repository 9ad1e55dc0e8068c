import SystemCalls
import Console
import Hardware

/// The console inside the loop: read what arrived, hand each command to `perform`, draw watch frames
/// when due, write pending output when the transport takes it. One clock value per wake-up, passed
/// down; no allocation (except a fresh session after `quit` on a serial console).
///
/// - Standard streams, interactive: greeting, prompt, `[console] start_command`; `quit` or Ctrl-D
///   (or a terminal hangup) stops puckd cleanly.
/// - Standard streams, scripted: commands line by line, replies only; end of input stops puckd after
///   the last reply — unless a `watch` runs, which keeps going until SIGINT/SIGTERM.
/// - Serial: a session per connection; `quit` ends that session and starts a fresh one; an unplugged
///   port is reopened with backoff and greeted anew.
extension Device {
    /// Begins the console (standard streams at once; a serial console when its port opens) and lets an
    /// interactive console on standard output show the log lines from now on.
    func startConsole(nowNanoseconds now: Int64) {
        guard let console else { return }
        console.transport.enterRawMode()
        allocationBaseline = ThreadAllocations.count() ?? -1
        if console.showsLogLines { output.console = console }
        if console.transport.kind == .standardStreams { beginConsoleSession(fresh: false, nowNanoseconds: now) }
        flushConsole(nowNanoseconds: now)
    }

    func beginConsoleSession(fresh: Bool, nowNanoseconds now: Int64) {
        guard let console else { return }
        if let command = console.beginSession(version: PuckdVersion.string, fresh: fresh, locked: consoleRequiresLogin) {
            perform(command, nowNanoseconds: now)
        }
    }

    /// Reads the console's input (a few reads at most per wake-up) and performs the commands in it.
    func serviceConsole(nowNanoseconds now: Int64) {
        guard let console, !console.inputEnded else { return }
        if console.hasBufferedInput {
            feedConsole(nowNanoseconds: now)
            if console.hasBufferedInput { return }
        }
        var reads = 0
        while reads < 4 && stopReason == nil && !console.inputPaused && console.awaitingTick == nil {
            reads += 1
            let result = console.transport.read(into: console.readBuffer, nowNanoseconds: now)
            if console.isSerial && console.transport.connectionCount != console.sessionConnection {
                consoleConnected(nowNanoseconds: now)
            }
            switch result {
            case .bytes(let n):
                console.inputOffset = 0
                console.inputCount = n
                feedConsole(nowNanoseconds: now)
                if console.hasBufferedInput || n < console.readBuffer.count { return }
            case .nothing:
                return
            case .endOfInput:
                consoleInputEnded(nowNanoseconds: now)
                return
            case .failed(let error):
                consoleFailed(error)
                return
            }
        }
    }

    /// Feeds the bytes read to the session and performs each command it completes, until they are used
    /// up or the output is too full to take more replies (the rest waits in the read buffer).
    func feedConsole(nowNanoseconds now: Int64) {
        guard let console else { return }
        let bytes = UnsafeRawBufferPointer(rebasing: console.readBuffer[0..<console.inputCount])
        var offset = console.inputOffset
        while stopReason == nil && !console.session.hasEnded && !console.inputPaused && console.awaitingTick == nil,
              let command = console.session.feed(bytes, from: &offset) {
            perform(command, nowNanoseconds: now)
        }
        console.inputOffset = stopReason != nil || console.session.hasEnded ? console.inputCount : offset
        if console.inputPaused && console.hasBufferedInput { flushConsole(nowNanoseconds: now) }
    }

    /// The input ended: a last line without a line end still counts; then puckd stops after the last
    /// reply, unless a scripted watch runs (it keeps going until a signal).
    func consoleInputEnded(nowNanoseconds now: Int64) {
        guard let console else { return }
        if let command = console.session.endOfInput() { perform(command, nowNanoseconds: now) }
        console.inputEnded = true
        if console.awaitingTick != nil {
            console.inputEndedWhileAwaiting = true
            return
        }
        inputEndedAfterLastReply()
    }

    /// After the last reply of an ended input: stop, unless a scripted watch runs.
    func inputEndedAfterLastReply() {
        guard let console else { return }
        if console.session.isWatching && !console.isInteractive {
            output.line { out in
                out.append("console: end of input; the watch keeps running until SIGINT or SIGTERM")
            }
            return
        }
        if stopReason == nil { stopReason = .endOfInput }
    }

    /// A serial console's port failed: said once per kind until it opens again.
    func consoleFailed(_ error: SourceError) {
        guard let console else { return }
        if let last = console.lastFailure, last.kind == error.kind, last.systemError == error.systemError { return }
        console.lastFailure = error
        output.line(.error) { out in
            out.append("console: ")
            error.writeMessage { out.append($0) }
            out.append(error.isPermanent ? " (not retried)" : " (retrying with backoff)")
        }
    }

    /// A serial console's port opened (again): a fresh session greets whoever is there.
    func consoleConnected(nowNanoseconds now: Int64) {
        guard let console else { return }
        let first = console.sessionConnection == 0
        console.lastFailure = nil
        output.line { out in
            out.append(first ? "console: serial console open" : "console: serial console open again, new session")
        }
        beginConsoleSession(fresh: !first, nowNanoseconds: now)
    }

    /// Draws a watch frame when one is due.
    func tickConsole(nowNanoseconds now: Int64) {
        guard let console, let due = console.session.nextRedrawNanoseconds, now >= due else { return }
        refreshConsoleState(nowNanoseconds: now)
        console.session.tick(nowNanoseconds: now, state: console.state)
    }

    /// Writes what the console's transport takes now; a broken standard output stops puckd.
    func flushConsole(nowNanoseconds now: Int64) {
        guard let console else { return }
        if !console.writePending() && !console.isSerial && stopReason == nil {
            stopReason = .outputClosed
        }
        if console.replaceSessionWhenFlushed && console.session.pendingOutputCount == 0 {
            console.replaceSessionWhenFlushed = false
            beginConsoleSession(fresh: true, nowNanoseconds: now)
        }
    }

    /// Shutdown: the last replies written (up to 2 s for a reader that is still reading), the terminal
    /// restored, and log lines back on their descriptor.
    func finishConsole(nowNanoseconds now: Int64) {
        guard let console else { return }
        if let command = console.awaitingTick {
            // Stopped before the next tick: answered with the state as it is (no tick outside the schedule).
            console.awaitingTick = nil
            refreshConsoleState(nowNanoseconds: now)
            console.session.reply(to: command, state: console.state)
        }
        output.console = nil
        console.drain(milliseconds: console.isSerial ? 500 : 2000)
        console.transport.restoreTerminal()
        if console.droppedBytes > 0 {
            output.line(.warning) { out in
                out.append("console: ")
                out.append(int: Int(console.droppedBytes))
                out.append(" bytes of output dropped (nobody read them)")
            }
        }
    }
}
