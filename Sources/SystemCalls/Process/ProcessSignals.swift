import Glibc

/// Process-wide signal dispositions a command sets before it writes to a pipe.
public enum ProcessSignals {
    /// SIGPIPE ignored: a write to a closed pipe fails with EPIPE instead of killing the process
    /// (`puckd replay … | head`).
    public static func ignoreBrokenPipe() { _ = signal(SIGPIPE, SIG_IGN) }
}
