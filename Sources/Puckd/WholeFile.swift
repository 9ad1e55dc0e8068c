import Glibc

/// Reads a whole regular file into memory at start-up (configuration files, the simulated board's
/// NMEA and IMU logs): open, refuse what is not a regular file, read in chunks (EINTR retried), stop
/// beyond `limitBytes`. Allocates; never used on the loop's path.
enum WholeFile {
    /// Why a file could not be read, as the end of a sentence the caller begins with its own context.
    enum Failure: Error, Equatable {
        case cannotOpen(errno: Int32)
        case notRegular
        case cannotRead(errno: Int32)
        case tooLarge(limitBytes: Int)
    }

    /// The bytes of `path`, at most `limitBytes` of them.
    static func read(_ path: String, limitBytes: Int) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw .cannotOpen(errno: errno) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG { throw .notRegular }
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

    /// `strerror` of an errno, as text.
    static func describe(errno code: Int32) -> String { String(cString: strerror(code)) }
}
