import SystemCalls

/// Writes to standard output and standard error with `write(2)` (no stdio buffering, no Foundation;
/// safe in Swift 6 strict concurrency, unlike the C `stderr` global).
public enum StandardStreams {
    /// Writes text to standard output.
    public static func out(_ text: String) { write(to: .standardOutput, text) }
    /// Writes text to standard error: error messages. On the systemd journal's stream every line starts
    /// with the error priority `<3>`, so `journalctl -p err` shows them.
    public static func err(_ text: String) {
        if FileDescriptor.standardError.isJournalStream {
            var prefixed = ""
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0) {
                prefixed += "<3>" + line + "\n"
            }
            write(to: .standardError, prefixed)
        } else {
            write(to: .standardError, text)
        }
    }

    /// Writes raw bytes to a file descriptor, retrying on EINTR and partial writes. Returns false
    /// when the descriptor is closed or broken (EPIPE).
    @discardableResult
    public static func write(to descriptor: FileDescriptor, _ bytes: UnsafeRawBufferPointer) -> Bool {
        do throws(Errno) {
            try descriptor.writeAll(bytes)
            return true
        } catch {
            return false
        }
    }

    private static func write(to descriptor: FileDescriptor, _ text: String) {
        var copy = text
        copy.withUTF8 { _ = write(to: descriptor, UnsafeRawBufferPointer($0)) }
    }
}
