import CLinux
import Glibc

/// Writes to standard output and standard error with `write(2)` (no stdio buffering, no Foundation;
/// safe in Swift 6 strict concurrency, unlike the C `stderr` global).
public enum StandardStreams {
    /// Writes text to standard output.
    public static func out(_ text: String) { write(fd: 1, text) }
    /// Writes text to standard error: error messages. On the systemd journal's stream every line starts
    /// with the error priority `<3>`, so `journalctl -p err` shows them.
    public static func err(_ text: String) {
        if clinux_console_is_journal_stream(2) == 1 {
            var prefixed = ""
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0) {
                prefixed += "<3>" + line + "\n"
            }
            write(fd: 2, prefixed)
        } else {
            write(fd: 2, text)
        }
    }

    /// Writes raw bytes to a file descriptor, retrying on EINTR and partial writes. Returns false
    /// when the descriptor is closed or broken (EPIPE).
    @discardableResult
    public static func write(fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    private static func write(fd: Int32, _ text: String) {
        var copy = text
        copy.withUTF8 { _ = write(fd: fd, UnsafeRawBufferPointer($0)) }
    }
}
