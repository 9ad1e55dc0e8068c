import Glibc

/// The real track files: POSIX calls on the board's file system. Every syscall of the journal is in
/// this file. Allocation-free except `list` and `read` (start-up and the reader).
public struct PosixTrackFiles: TrackFileSystem {
    public init() {}

    public func makeDirectory(_ path: String) -> Int32 {
        var prefix = ""
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + part
            if mkdir(path.hasPrefix("/") ? prefix : String(prefix.dropFirst()), 0o755) != 0 && errno != EEXIST {
                return errno
            }
        }
        return access(path, W_OK) == 0 ? 0 : errno
    }

    public func list(_ directory: String) -> Result<[String], TrackIOError> {
        guard let dir = opendir(directory) else { return .failure(TrackIOError(errno: errno)) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return .success(names)
    }

    public func read(_ path: String) -> Result<[UInt8], TrackIOError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        if fd < 0 { return .failure(TrackIOError(errno: errno)) }
        defer { Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(TrackIOError(errno: errno)) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .failure(TrackIOError(errno: EINVAL)) }
        var out = [UInt8](repeating: 0, count: Int(info.st_size))
        var count = 0
        while count < out.count {
            let n = out.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 { if errno == EINTR { continue }; return .failure(TrackIOError(errno: errno)) }
            if n == 0 { break }
            count += n
        }
        out.removeLast(out.count - count)
        return .success(out)
    }

    public func openAppending(_ path: UnsafePointer<CChar>, create: Bool) -> Result<TrackFileHandle, TrackIOError> {
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY | (create ? O_CREAT : 0), 0o644)
        return fd < 0 ? .failure(TrackIOError(errno: errno)) : .success(TrackFileHandle(rawValue: fd))
    }

    public func write(_ file: TrackFileHandle, _ bytes: UnsafeRawBufferPointer) -> (written: Int, error: Int32) {
        var written = 0
        while written < bytes.count {
            let n = Glibc.write(file.rawValue, bytes.baseAddress! + written, bytes.count - written)
            if n < 0 {
                if errno == EINTR { continue }
                return (written, errno)
            }
            if n == 0 { return (written, ENOSPC) }
            written += n
        }
        return (written, 0)
    }

    public func sync(_ file: TrackFileHandle) -> Int32 { fdatasync(file.rawValue) == 0 ? 0 : errno }

    public func truncate(_ file: TrackFileHandle, length: Int64) -> Int32 {
        ftruncate(file.rawValue, off_t(length)) == 0 ? 0 : errno
    }

    public func close(_ file: TrackFileHandle) { _ = Glibc.close(file.rawValue) }

    public func remove(_ path: UnsafePointer<CChar>) -> Int32 { unlink(path) == 0 ? 0 : errno }

    public func rename(_ from: String, _ to: String) -> Int32 { Glibc.rename(from, to) == 0 ? 0 : errno }

    public func syncDirectory(_ path: UnsafePointer<CChar>) -> Int32 {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 { return errno }
        defer { Glibc.close(fd) }
        return fsync(fd) == 0 ? 0 : errno
    }
}
