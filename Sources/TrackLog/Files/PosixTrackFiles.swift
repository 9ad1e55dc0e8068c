import SystemCalls

/// The real track files: the board's file system through SystemCalls (typed descriptors and `Errno`),
/// plus the directory listing. Allocation-free on the success paths except `makeDirectory`, `list`
/// and `read` (start-up and the reader).
public struct PosixTrackFiles: TrackFileSystem {
    public init() {}

    // Built once: an OptionSet array literal builds an Array (an allocation) at each use.
    static let appending: FileDescriptor.OpenOptions = [.append, .closeOnExec, .noControllingTerminal]
    static let creating: FileDescriptor.OpenOptions = [.append, .closeOnExec, .noControllingTerminal, .create]
    static let directory: FileDescriptor.OpenOptions = [.directory, .closeOnExec]

    public func makeDirectory(_ path: String) -> Errno? {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + part
            do throws(Errno) { try FileSystem.makeDirectory(prefix) } catch {
                if error != .fileExists { return error }
            }
        }
        do throws(Errno) { try FileSystem.checkWritable(path); return nil } catch { return error }
    }

    public func list(_ directory: String) -> Result<[String], TrackIOError> {
        do throws(Errno) { return .success(try FileSystem.entries(ofDirectory: directory)) } catch {
            return .failure(TrackIOError(error))
        }
    }

    public func read(_ path: String) -> Result<[UInt8], TrackIOError> {
        do throws(Errno) {
            // O_NONBLOCK | O_NOCTTY: a FIFO or device in a segment's place opens at once and is refused.
            let fd = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec, .nonBlocking, .noControllingTerminal])
            defer { try? fd.close() }
            let status = try fd.status()
            guard status.isRegularFile else { return .failure(TrackIOError(.invalidArgument)) }
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
            return .failure(TrackIOError(error))
        }
    }

    public func openAppending(_ path: UnsafePointer<CChar>, create: Bool) -> Result<TrackFileHandle, TrackIOError> {
        do throws(Errno) {
            return .success(try FileDescriptor.open(path, .writeOnly, options: create ? Self.creating : Self.appending,
                                                    permissions: 0o644))
        } catch {
            return .failure(TrackIOError(error))
        }
    }

    public func write(_ file: TrackFileHandle, _ bytes: UnsafeRawBufferPointer) -> (written: Int, error: Errno?) {
        var written = 0
        while written < bytes.count {
            do throws(Errno) {
                let n = try file.write(UnsafeRawBufferPointer(rebasing: bytes[written...]))
                if n == 0 { return (written, .noSpace) }
                written += n
            } catch {
                return (written, error)
            }
        }
        return (written, nil)
    }

    public func sync(_ file: TrackFileHandle) -> Errno? {
        do throws(Errno) { try file.sync(); return nil } catch { return error }
    }

    public func truncate(_ file: TrackFileHandle, length: Int64) -> Errno? {
        do throws(Errno) { try file.resize(to: length); return nil } catch { return error }
    }

    public func close(_ file: TrackFileHandle) { try? file.close() }

    public func remove(_ path: UnsafePointer<CChar>) -> Errno? {
        do throws(Errno) { try FileSystem.unlink(path); return nil } catch { return error }
    }

    public func rename(_ from: String, _ to: String) -> Errno? {
        do throws(Errno) { try FileSystem.rename(from, to: to); return nil } catch { return error }
    }

    public func syncDirectory(_ path: UnsafePointer<CChar>) -> Errno? {
        do throws(Errno) {
            let fd = try FileDescriptor.open(path, .readOnly, options: Self.directory)
            defer { try? fd.close() }
            try fd.sync()
            return nil
        } catch {
            return error
        }
    }
}
