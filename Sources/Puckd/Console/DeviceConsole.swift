import SystemCalls
import Console
import Hardware

/// Where the device's console is, as `RunCommand` resolved `[console] device` / `--console`.
public enum DeviceConsoleEndpoint: Sendable, Equatable {
    /// No console.
    case none
    /// Commands from `input`, replies on `output` (0 and 1 outside tests). `interactive` nil: decided by
    /// whether `input` is a terminal; `rawMode`: put a terminal input into raw mode (off in tests).
    case standardStreams(input: FileDescriptor, output: FileDescriptor, interactive: Bool?, rawMode: Bool)
    /// A serial port or USB gadget port at `baudRate` bit/s.
    case serial(path: String, baudRate: Int)
}

/// The device's console: its transport, the pure `ConsoleSession` (line editor, parser, views) and
/// the `ConsoleState` the session renders, kept by the device and refreshed in place before every
/// reply and watch frame. Output waits in the session's bounded buffer and is written when the
/// transport takes it (the loop polls for POLLOUT only while bytes are pending); when nobody reads,
/// whole replies are dropped and counted by the session, never blocking the loop.
///
/// It is also where the device's log lines go while a person uses an interactive console on standard
/// output: as notices above the prompt (`ConsoleSession.writeNotice`).
final class DeviceConsole {
    let transport: ConsoleTransport
    var session: ConsoleSession
    /// What the views show; refreshed by `Device.refreshConsoleState`.
    var state = ConsoleState()
    let options: ConsoleOptions
    let readBuffer: UnsafeMutableRawBufferPointer
    /// `transport.connectionCount` when the running session began (0: not begun yet).
    var sessionConnection: UInt64 = 0
    /// Sessions begun (a serial console starts a fresh one after `quit` and after each reconnect).
    var sessionCount = 0
    /// The input ended (scripted end of file, terminal hangup).
    var inputEnded = false
    /// The output refused every byte for good (EPIPE): nothing more is written.
    var outputClosed = false
    /// Bytes dropped because the output was closed, and bytes written.
    var droppedBytes: Int64 = 0
    var writtenBytes: Int64 = 0
    /// The last transport failure logged (serial consoles log each kind once until they reopen).
    var lastFailure: SourceError?
    /// `[console] start_command` as bytes plus CR, typed into each interactive session at its start.
    var startCommand: [UInt8]
    /// Quit on a serial console: the session is replaced once its "bye" is written.
    var replaceSessionWhenFlushed = false
    /// What the log calls this console: its device path, or "standard input/output".
    let name: ConsoleText
    /// The `console` source row's description (the transport's, made at start-up).
    let descriptionText: ConsoleText
    /// Its two poll slots (input, output), set by the router after the slots are reserved.
    var slots: PollSlots?
    /// Wrong passwords and the timed refusal after them; kept across sessions and reconnects.
    var loginGate = ConsoleLoginGate()
    /// The command applied and waiting for the next scheduled tick to be answered (the reply shows the
    /// puck and camera that tick computes); no further input is read until it is answered.
    var awaitingTick: ConsoleCommand?
    /// The input ended while a command waited: the end of input is handled once it is answered.
    var inputEndedWhileAwaiting = false

    init(transport: ConsoleTransport, startCommand: String, name: String) {
        self.name = ConsoleText(string: name)
        descriptionText = ConsoleText(string: transport.description)
        var o = ConsoleOptions(interactive: transport.isInteractive)
        if transport.terminalRows >= 3 { o.terminalRows = transport.terminalRows }
        options = o
        self.transport = transport
        session = ConsoleSession(options: o)
        readBuffer = .allocate(byteCount: 512, alignment: 16)
        self.startCommand = startCommand.isEmpty ? [] : Array(startCommand.utf8) + [0x0D]
    }

    deinit {
        readBuffer.deallocate()
    }

    var isInteractive: Bool { options.interactive }

    /// Output waiting beyond which no more input is read (a script's reader that is slower than its
    /// writer gets every reply, later, instead of dropped ones); bytes.
    static let inputPauseBytes = 16_384

    /// Bytes read but not fed to the session yet (`readBuffer[inputOffset..<inputCount]`): the rest of
    /// a read whose commands paused the input.
    var inputOffset = 0
    var inputCount = 0
    var hasBufferedInput: Bool { inputOffset < inputCount }

    /// True while input waits for the output to drain.
    var inputPaused: Bool { !outputClosed && session.pendingOutputCount > Self.inputPauseBytes }
    var isSerial: Bool { transport.kind == .serial }

    /// True when log lines should become notices on this console instead of going to a descriptor:
    /// an interactive console on standard output (the person's terminal).
    var showsLogLines: Bool { isInteractive && transport.kind == .standardStreams && !outputClosed }

    /// Writes what the transport takes now. Returns false when the output is broken for good.
    @discardableResult
    func writePending() -> Bool {
        guard session.pendingOutputCount > 0 else { return !outputClosed }
        if outputClosed {
            droppedBytes += Int64(session.pendingOutputCount)
            session.consumeOutput(session.pendingOutputCount)
            return false
        }
        switch session.withPendingOutput({ bytes in transport.write(bytes) }) {
        case .processed(let n):
            session.consumeOutput(n)
            writtenBytes += Int64(n)
            return true
        case .wouldBlock:
            return true
        case .failed:
            outputClosed = true
            droppedBytes += Int64(session.pendingOutputCount)
            session.consumeOutput(session.pendingOutputCount)
            return false
        }
    }

    /// The last flush at shutdown: waits up to `milliseconds` in total for the output to take the
    /// pending bytes (a scripted reader gets its last reply), then drops the rest (counted).
    func drain(milliseconds: Int32) {
        var left = milliseconds
        while session.pendingOutputCount > 0 && !outputClosed && left > 0 {
            if !transport.waitUntilWritable(timeoutMilliseconds: min(left, 100)) {
                left -= 100
                continue
            }
            writePending()
        }
        if session.pendingOutputCount > 0 {
            droppedBytes += Int64(session.pendingOutputCount)
            session.consumeOutput(session.pendingOutputCount)
        }
    }

    /// Starts a session on the current connection: the greeting and prompt (interactive), then the
    /// start command. A `locked` session asks for the password first (the start command runs after
    /// the login). Returns the command the start command produced for the device (at most one).
    func beginSession(version: StaticString, fresh: Bool, locked: Bool) -> ConsoleCommand? {
        if fresh {
            session = ConsoleSession(options: options)
            awaitingTick = nil   // a command of the ended session gets no answer in the new one
        }
        sessionConnection = transport.connectionCount
        sessionCount += 1
        if locked { session.lock() }
        session.begin(version: version)
        return locked ? nil : typeStartCommand()
    }

    /// Types `[console] start_command` into an interactive session; returns its command, if any.
    func typeStartCommand() -> ConsoleCommand? {
        guard isInteractive, !startCommand.isEmpty else { return nil }
        return startCommand.withUnsafeBytes { raw in
            var offset = 0
            let command = session.feed(raw, from: &offset)
            return command
        }
    }

    /// Shows a device log line (bytes with their newline) as a notice; false when not shown.
    func showLogLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard showsLogLines else { return false }
        _ = session.writeNotice(bytes)
        return true
    }
}
