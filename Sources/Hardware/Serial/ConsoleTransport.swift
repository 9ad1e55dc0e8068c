import SystemCalls

/// What one `ConsoleTransport.read` found.
public enum ConsoleTransportRead: Equatable, Sendable {
    /// This many bytes (> 0) are in the buffer.
    case bytes(Int)
    /// Nothing to read now.
    case nothing
    /// The input ended for good: end of file on standard input, or a terminal hangup.
    case endOfInput
    /// A serial console failed (unplugged, refused); it reopens with backoff by itself.
    case failed(SourceError)
}

/// The byte transport of the device's console, non-blocking inside the device loop:
///
/// - **standard streams** (`--console stdio`): commands from standard input, replies on standard
///   output. With a terminal on standard input the console is interactive: the terminal is put into
///   raw mode (restored at exit, on the clean shutdown and on fatal signals: SystemCalls' `ConsoleTerminal`);
///   otherwise it is scripted (commands line by line, end of input ends the session).
///   Output goes through a non-blocking descriptor that leaves the shell's own flags alone.
/// - **serial** (`--console /dev/ttyXXX[:BAUD]`): a UART, USB serial adapter or USB gadget port
///   (`/dev/ttyGS0`) through `SerialSource` (libserialport, termios for pseudo-terminals and ttys
///   libserialport does not know), always interactive, reopened with backoff after an unplug.
///
/// `write` never blocks: it writes what the descriptor takes now and says how much; the caller keeps
/// the rest (and asks `poll` for POLLOUT only while bytes are pending). Allocation-free after `init`.
/// (A class, made once at start-up: the device and its console share it.)
public final class ConsoleTransport {
    /// Which transport this is.
    public enum Kind: UInt8, Sendable, Equatable {
        case standardStreams
        case serial
    }

    public let kind: Kind
    /// True when a person types at a terminal (echo, prompt, in-place redraws).
    public let isInteractive: Bool
    /// What it is, for the start-up report: "standard input/output (a terminal)", "/dev/ttyGS0 at 115200 baud".
    public let description: String
    private var inputDescriptor: FileDescriptor?
    private var outputDescriptorStorage: FileDescriptor?
    private let ownsOutputDescriptor: Bool
    private var serial: SerialSource?
    private var rawMode: Bool
    private let wantsRawMode: Bool
    /// Rows of the terminal at start (0 when unknown).
    public let terminalRows: Int

    /// The standard streams (`input`, `output`; 0 and 1 outside tests). `interactive` overrides the
    /// terminal test (tests); a terminal input is put into raw mode by `enterRawMode` when `rawMode` is
    /// true (after the start-up report, which is written with plain line ends).
    public init(standardInput input: FileDescriptor = .standardInput, output: FileDescriptor = .standardOutput,
                interactive: Bool? = nil, rawMode: Bool = true) {
        kind = .standardStreams
        serial = nil
        self.rawMode = false
        let terminal = input.isTerminal
        isInteractive = interactive ?? terminal
        inputDescriptor = input
        let nonblocking = ConsoleTerminal.nonBlockingOutput(output)
        outputDescriptorStorage = nonblocking ?? output
        ownsOutputDescriptor = nonblocking != nil && nonblocking != output
        wantsRawMode = terminal && rawMode && isInteractive
        let rows = ConsoleTerminal.rows(output)
        terminalRows = rows > 0 ? rows : ConsoleTerminal.rows(input)
        description = "standard input/output (" + (isInteractive ? (terminal ? "a terminal, interactive" : "interactive")
            : "not a terminal: scripted, one command per line") + ")"
    }

    /// A serial console on `path` at `baudRate` (opened on the first `read`, reopened after failures).
    public init(serialPath path: String, baudRate: Int, policy: ReconnectPolicy = ReconnectPolicy()) {
        kind = .serial
        isInteractive = true
        inputDescriptor = nil
        outputDescriptorStorage = nil
        ownsOutputDescriptor = false
        wantsRawMode = false
        self.rawMode = false
        serial = SerialSource(path: path, baudRate: baudRate, policy: policy)
        terminalRows = 24
        description = path + " at " + String(baudRate) + " baud (serial console, interactive)"
    }

    deinit {
        if rawMode { ConsoleTerminal.restore() }
        if ownsOutputDescriptor { outputDescriptorStorage?.closeDroppingError() }
    }

    /// What `poll` should watch for input: the descriptor (POLLIN), or a wake-up time to reopen a serial
    /// port; `.never` after end of input.
    public var inputPollRequest: PollRequest {
        switch serial {
        case .some(let port): return port.pollRequest
        case .none: return inputDescriptor != nil ? .input(inputDescriptor) : .never
        }
    }

    /// The descriptor replies are written to, nil while there is none (serial port closed).
    public var outputDescriptor: FileDescriptor? {
        switch serial {
        case .some(let port):
            let request = port.pollRequest
            return request.events.contains(.readable) ? request.fileDescriptor : nil
        case .none: return outputDescriptorStorage
        }
    }

    /// How many times a serial port was opened (each open is a new connection: a fresh session); 1
    /// for the standard streams.
    public var connectionCount: UInt64 {
        switch serial {
        case .some(let port): return port.counters.opens
        case .none: return 1
        }
    }

    /// The serial port's state (`.open` for the standard streams until their input ends).
    public var status: SourceStatus {
        switch serial {
        case .some(let port): return port.status
        case .none: return inputDescriptor != nil ? .open : .finished
        }
    }

    /// Reads what is waiting (never blocks: a zero-timeout poll first).
    public func read(into buffer: UnsafeMutableRawBufferPointer, nowNanoseconds now: Int64) -> ConsoleTransportRead {
        if kind == .serial {
            do throws(SourceError) {
                let n = try serial?.read(into: buffer, nowNanoseconds: now) ?? 0
                return n > 0 ? .bytes(n) : .nothing
            } catch {
                return .failed(error)
            }
        }
        guard let input = inputDescriptor else { return .endOfInput }
        if case .success([]) = input.readinessNow(.readable) { return .nothing }
        switch input.readOutcome(into: buffer) {
        case .processed(let n) where n > 0: return .bytes(n)
        case .wouldBlock: return .nothing
        case .processed, .failed:
            // End of file, or an error such as EIO on a terminal that hung up: the input is over.
            inputDescriptor = nil
            return .endOfInput
        }
    }

    /// Writes as much of `bytes` as the descriptor takes now: `.processed(count)`, `.wouldBlock` when
    /// it takes none now or there is no descriptor, `.failed` when the output is broken (EPIPE: nobody
    /// reads any more).
    public func write(_ bytes: UnsafeRawBufferPointer) -> IOOutcome {
        guard let output = outputDescriptor else { return .wouldBlock }
        return output.writeOutcome(bytes)
    }

    /// Waits up to `timeoutMilliseconds` until the output can take bytes (the shutdown's last flush).
    /// Returns false on timeout or error.
    public func waitUntilWritable(timeoutMilliseconds: Int32) -> Bool {
        guard let output = outputDescriptor else { return false }
        var entry = PollEntry(output, events: .writable)
        let ready: Int
        do throws(Errno) {
            ready = try withUnsafeMutablePointer(to: &entry) { pointer throws(Errno) in
                try FileDescriptor.poll(UnsafeMutableBufferPointer(start: pointer, count: 1), timeoutMilliseconds: timeoutMilliseconds)
            }
        } catch {
            return false
        }
        return ready == 1 && entry.returnedEvents.contains(.writable)
    }

    /// Puts a terminal on standard input into the console's raw mode (no echo, keys as bytes, output as
    /// is), when this transport wants it; restored by `restoreTerminal`, at exit and on fatal signals.
    public func enterRawMode() {
        if wantsRawMode && !rawMode, let input = inputDescriptor { rawMode = ConsoleTerminal.enterRawMode(input) }
    }

    /// Puts the terminal settings back (raw mode off). Idempotent.
    public func restoreTerminal() {
        if rawMode {
            ConsoleTerminal.restore()
            rawMode = false
        }
    }

    /// True while the terminal is in the console's raw mode.
    public var isInRawMode: Bool { rawMode }
}
