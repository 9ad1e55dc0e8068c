import Glibc

/// Reads a whole regular file into memory at start-up and on SIGHUP (configuration files, the
/// password hash, the simulated board's NMEA and IMU logs): open with `O_NONBLOCK | O_NOCTTY` (a FIFO
/// or a tty opens at once instead of waiting for a writer, and never becomes the controlling
/// terminal), refuse what `fstat` says is not a regular file, then read in chunks (EINTR retried),
/// stopping beyond `limitBytes`. With `trust`, the file's owner and mode are checked first, as
/// sshd's StrictModes does. Allocates; never used on the loop's path.
public enum WholeFile {
    /// Why a file could not be read, as the end of a sentence the caller begins with its own context.
    public enum Failure: Error, Equatable {
        case cannotOpen(errno: Int32)
        case notRegular
        case cannotRead(errno: Int32)
        case tooLarge(limitBytes: Int)
        /// The owner or permissions let someone else change it (or read it, for secrets): why, and the fix.
        case untrusted(String)
    }

    /// The bytes of `path`, at most `limitBytes` of them, after `trust`'s checks of owner and mode.
    public static func read(_ path: String, limitBytes: Int, trust: FileTrust? = nil) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        if fd < 0 { throw .cannotOpen(errno: errno) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) != 0 { throw .cannotRead(errno: errno) }
        if (info.st_mode & S_IFMT) != S_IFREG { throw .notRegular }
        if let trust, let problem = trust.problem(path: path, info: info) { throw .untrusted(problem) }
        // A regular file never blocks, but reads of it should not see EAGAIN either: back to blocking.
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(max(0, Int(info.st_size)), limitBytes + 1))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(errno: errno)
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limitBytes { throw .tooLarge(limitBytes: limitBytes) }
        }
    }

    /// `strerror` of an errno, as text ("No such file or directory").
    public static func describe(errno code: Int32) -> String { String(cString: strerror(code)) }
}
