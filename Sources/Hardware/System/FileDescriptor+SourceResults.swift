import SystemCalls

/// The syscall layer's calls as Hardware's sources count their results: bytes, or -errno (the errno
/// goes into `SourceError`). EAGAIN is never thrown (`IOResult.wouldBlock`), so a quiet descriptor
/// costs no throw; nothing here allocates.
extension FileDescriptor {
    /// read(2), EINTR retried: bytes (0 at end of file), -EAGAIN when nothing is waiting, or -errno.
    func readCountingErrno(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        do throws(Errno) {
            switch try readNonBlocking(into: buffer) {
            case .processed(let n): return n
            case .wouldBlock: return -Int(Errno.wouldBlock.rawValue)
            }
        } catch {
            return -Int(error.rawValue)
        }
    }

    /// write(2) without blocking (an O_NONBLOCK descriptor): bytes written, 0 when it takes none now,
    /// or -errno.
    func writeCountingErrno(_ bytes: UnsafeRawBufferPointer) -> Int {
        do throws(Errno) {
            switch try writeNonBlocking(bytes) {
            case .processed(let n): return n
            case .wouldBlock: return 0
            }
        } catch {
            return -Int(error.rawValue)
        }
    }

    /// poll(2) of this descriptor with a zero timeout: the events it reports ([] when none), or the
    /// error of the poll itself.
    func readinessNow(_ events: PollEvents) -> Result<PollEvents, Errno> {
        do throws(Errno) {
            return .success(try pollNow(events))
        } catch {
            return .failure(error)
        }
    }

    /// close(2), its error dropped: on Linux the descriptor is released either way.
    func closeDroppingError() {
        do throws(Errno) { try self.close() } catch {}
    }
}
