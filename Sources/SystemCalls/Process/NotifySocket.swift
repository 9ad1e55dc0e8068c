import CLinux

/// systemd's notification socket (sd_notify's transport without libsystemd): a non-blocking unix
/// datagram socket and the send to `$NOTIFY_SOCKET`'s path, `@name` for an abstract socket.
extension FileDescriptor {
    /// A non-blocking, close-on-exec unix datagram socket for notifications.
    public static func notificationSocket() throws(Errno) -> FileDescriptor {
        try check(negated: clinux_notify_socket())
    }

    /// Sends `message` as one datagram to the unix socket `path` (a C string; a leading '@' names an
    /// abstract socket). Returns the bytes sent; never blocks, allocates nothing.
    public func sendNotification(toPath path: UnsafePointer<CChar>, _ message: UnsafeRawBufferPointer) throws(Errno) -> Int {
        let sent = clinux_notify_send(rawValue, path, message.baseAddress, message.count)
        if sent < 0 { throw Errno(rawValue: CInt(truncatingIfNeeded: -sent)) }
        return Int(sent)
    }
}
