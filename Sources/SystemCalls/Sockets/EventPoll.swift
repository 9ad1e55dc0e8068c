import CLinux

/// An epoll set (epoll(7)): one descriptor the loop polls for many sockets. Each registered
/// descriptor carries a 64-bit token that comes back with its events. Allocation-free; the
/// per-wake-up calls return results instead of throwing. (`epoll_event` is packed and does not
/// import into Swift: CLinux's socket.c wraps it.)
public enum EventPoll {
    /// Event bits of `ready`'s results and of `control`'s registrations.
    public static let readable = UInt32(CLINUX_EPOLL_IN)
    public static let writable = UInt32(CLINUX_EPOLL_OUT)
    public static let hangUp = UInt32(CLINUX_EPOLL_HUP)
    public static let error = UInt32(CLINUX_EPOLL_ERR)
    public static let peerClosed = UInt32(CLINUX_EPOLL_RDHUP)

    /// What `control` does with a descriptor.
    public enum Operation: Sendable {
        case add, modify, remove
        var raw: CInt {
            switch self {
            case .add: CInt(CLINUX_EPOLL_ADD)
            case .modify: CInt(CLINUX_EPOLL_MOD)
            case .remove: CInt(CLINUX_EPOLL_DEL)
            }
        }
    }

    /// A close-on-exec epoll descriptor.
    public static func create() throws(Errno) -> FileDescriptor {
        try FileDescriptor.check(negated: clinux_epoll_create())
    }

    /// Adds, changes or removes `fd` in the set, waiting for readability (and peer close) and, with
    /// `writable`, writability; `token` comes back with its events. False when the kernel refused.
    @discardableResult
    public static func control(_ epoll: FileDescriptor, _ operation: Operation, _ fd: FileDescriptor, writable: Bool,
                               token: UInt64) -> Bool {
        let events = readable | peerClosed | (writable ? Self.writable : 0)
        return clinux_epoll_control(epoll.rawValue, operation.raw, fd.rawValue, events, token) == 0
    }

    /// The descriptors ready now (no waiting): their tokens and event bits, at most `capacity`.
    public static func ready(_ epoll: FileDescriptor, tokens: UnsafeMutablePointer<UInt64>, events: UnsafeMutablePointer<UInt32>,
                             capacity: Int) -> Int {
        max(0, Int(clinux_epoll_ready(epoll.rawValue, tokens, events, CInt(capacity))))
    }
}
