import SystemCalls

/// The syscall layer's calls as Hardware's sources count their results: bytes, or -errno (the errno
/// goes into `SourceError`). Built on the non-throwing `IOOutcome` calls: neither a quiet descriptor
/// nor a real error throws (a throw allocates under Swift Testing); nothing here allocates.
extension FileDescriptor {
    /// write(2) without blocking (an O_NONBLOCK descriptor): bytes written, 0 when it takes none now,
    /// or -errno.
    func writeCountingErrno(_ bytes: UnsafeRawBufferPointer) -> Int {
        switch writeOutcome(bytes) {
        case .processed(let n): return n
        case .wouldBlock: return 0
        case .failed(let error): return -Int(error.rawValue)
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
