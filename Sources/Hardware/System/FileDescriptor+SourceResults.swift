import SystemCalls

/// The syscall layer's calls as Hardware's sources use them: results as values, so neither a quiet
/// descriptor nor a real error throws (a throw allocates under Swift Testing); nothing here allocates.
extension FileDescriptor {
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
