import Glibc
import SystemCalls

/// The real track files: the board's file system through SystemCalls (typed descriptors and errno),
/// plus the directory listing. Allocation-free on the success paths except `makeDirectory`, `list`
/// and `read` (start-up and the reader).
public struct PosixTrackFiles: TrackFileSystem {
    public init() {}

    // Built once: an OptionSet array literal builds an Array (an allocation) at each use.
    static let appending = FileDescriptor.OpenOptions(rawValue: O_APPEND | O_CLOEXEC | O_NOCTTY)
    static let creating = FileDescriptor.OpenOptions(rawValue: O_APPEND | O_CLOEXEC | O_NOCTTY | O_CREAT)
    static let directory = FileDescriptor.OpenOptions(rawValue: O_DIRECTORY | O_CLOEXEC)

    public func makeDirectory(_ path: String) -> Int32 {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + part
            do throws(Errno) { try FileSystem.makeDirectory(prefix) } catch {
                if error != .fileExists { return error.rawValue }
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
        do throws(Errno) {
            // O_NONBLOCK | O_NOCTTY: a FIFO or device in a segment's place opens at once and is refused.
            let fd = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec, .nonBlocking, .noControllingTerminal])
            defer { try? fd.close() }
            let status = try fd.status()
            guard status.isRegularFile else { return .failure(TrackIOError(errno: EINVAL)) }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, Int(status.sizeBytes)), alignment: 8)
            defer { buffer.deallocate() }
            var count = 0
            while count < Int(status.sizeBytes) {
                let n = try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count..<Int(status.sizeBytes)]))
                if n == 0 { break }
                count += n
            }
            return .success(Array(buffer[0..<count]))
        } catch {
            return .failure(TrackIOError(errno: error.rawValue))
        }
    }

    public func openAppending(_ path: UnsafePointer<CChar>, create: Bool) -> Result<TrackFileHandle, TrackIOError> {
        do throws(Errno) {
            return .success(try FileDescriptor.open(path, .writeOnly, options: create ? Self.creating : Self.appending,
                                                    permissions: 0o644))
        } catch {
            return .failure(TrackIOError(errno: error.rawValue))
        }
    }

    public func write(_ file: TrackFileHandle, _ bytes: UnsafeRawBufferPointer) -> (written: Int, error: Int32) {
        var written = 0
        while written < bytes.count {
            do throws(Errno) {
                let n = try file.write(UnsafeRawBufferPointer(rebasing: bytes[written...]))
                if n == 0 { return (written, ENOSPC) }
                written += n
            } catch {
                return (written, error.rawValue)
            }
        }
        return (written, 0)
    }

    public func sync(_ file: TrackFileHandle) -> Int32 {
        do throws(Errno) { try file.sync(); return 0 } catch { return error.rawValue }
    }

    public func truncate(_ file: TrackFileHandle, length: Int64) -> Int32 {
        do throws(Errno) { try file.resize(to: length); return 0 } catch { return error.rawValue }
    }

    public func close(_ file: TrackFileHandle) { try? file.close() }

    public func remove(_ path: UnsafePointer<CChar>) -> Int32 { unlink(path) == 0 ? 0 : errno }

    public func rename(_ from: String, _ to: String) -> Int32 {
        do throws(Errno) { try FileSystem.rename(from, to: to); return 0 } catch { return error.rawValue }
    }

    public func syncDirectory(_ path: UnsafePointer<CChar>) -> Int32 {
        do throws(Errno) {
            let fd = try FileDescriptor.open(path, .readOnly, options: Self.directory)
            defer { try? fd.close() }
            try fd.sync()
            return 0
        } catch {
            return error.rawValue
        }
    }
}
