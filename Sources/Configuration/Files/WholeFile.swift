import SystemCalls

/// Reads a whole regular file into memory at start-up and on SIGHUP (configuration files, the
/// password hash, the simulated board's NMEA and IMU logs): open with `O_NONBLOCK | O_NOCTTY` (a FIFO
/// or a tty opens at once instead of waiting for a writer, and never becomes the controlling
/// terminal), refuse what `fstat` says is not a regular file, then read in chunks (EINTR retried),
/// stopping beyond `limitBytes`. With `trust`, the file's owner and mode are checked first, as
/// sshd's StrictModes does. Allocates; never used on the loop's path.
public enum WholeFile {
    /// Why a file could not be read, as the end of a sentence the caller begins with its own context.
    public enum Failure: Error, Equatable {
        case cannotOpen(Errno)
        case notRegular
        case cannotRead(Errno)
        case tooLarge(limitBytes: Int)
        /// The owner or permissions let someone else change it (or read it, for secrets): why, and the fix.
        case untrusted(String)
    }

    /// The bytes of `path`, at most `limitBytes` of them, after `trust`'s checks of owner and mode.
    public static func read(_ path: String, limitBytes: Int, trust: FileTrust? = nil) throws(Failure) -> [UInt8] {
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec, .nonBlocking, .noControllingTerminal])
        } catch {
            throw .cannotOpen(error)
        }
        defer { try? fd.close() }
        let info: FileSystem.Status
        do throws(Errno) { info = try fd.status() } catch { throw .cannotRead(error) }
        if !info.isRegularFile { throw .notRegular }
        if let trust, let problem = trust.problem(path: path, info: info) { throw .untrusted(problem) }
        // A regular file never blocks, but reads of it should not see EAGAIN either: back to blocking.
        try? fd.setNonBlocking(false)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(max(0, Int(info.sizeBytes)), limitBytes + 1))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n: Int
            do throws(Errno) {
                n = try chunk.withUnsafeMutableBytes { buffer in
                    Result { () throws(Errno) in try fd.read(into: buffer) }
                }.get()
            } catch {
                throw .cannotRead(error)
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limitBytes { throw .tooLarge(limitBytes: limitBytes) }
        }
    }
}
