/// What a non-blocking socket call did: the per-wake-up socket calls return it instead of throwing
/// (a throw on every wake-up would allocate under the test runtime and cost on the device).
public enum SocketOutcome: Equatable, Sendable {
    /// Bytes moved (0 for an accept or a completed connect).
    case processed(Int)
    /// Nothing now (EAGAIN; for a connect: EINPROGRESS, wait for writability).
    case wouldBlock
    /// The peer closed (a read of 0) or reset the connection, or the pipe broke.
    case closed
    case failed(Errno)
}
