/// Why the device loop stops: a signal, the console, or the configured run time.
public enum StopReason: Sendable, Equatable {
    /// SIGTERM (systemd's stop).
    case terminate
    /// SIGINT (Ctrl-C outside an interactive console).
    case interrupt
    /// `stop_after_s` / `stopAtNanoseconds` (tests, benchmarks).
    case runTime
    /// `quit` on a standard-streams console.
    case consoleQuit
    /// The end of a scripted console's input.
    case endOfInput
    /// The console's standard output closed for good (EPIPE).
    case outputClosed

    /// Linux's signal numbers the device's signalfd reports (fixed by the kernel ABI).
    static let hangUpSignal: Int32 = 1
    static let interruptSignal: Int32 = 2

    /// The reason for a stop signal from the signalfd: SIGINT, else SIGTERM (the only other one it holds).
    init(signal: Int32) {
        self = signal == Self.interruptSignal ? .interrupt : .terminate
    }

    /// The last log line's words: "stopped by …".
    var description: String {
        switch self {
        case .terminate: return "SIGTERM"
        case .interrupt: return "SIGINT"
        case .runTime: return "the configured run time"
        case .consoleQuit: return "quit on the console"
        case .endOfInput: return "the end of the console's input"
        case .outputClosed: return "the console's output being closed"
        }
    }
}
