import Glibc

/// A TCP socket bound to 127.0.0.1 on a free port, for tests: a listening server, or (with
/// `listening: false`) a bound port nobody listens on, which refuses connections.
final class LoopbackListener {
    let fd: Int32
    let port: UInt16

    init?(listening: Bool = true, backlog: Int32 = 8) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0, !listening || listen(fd, backlog) == 0 else {
            close(fd)
            return nil
        }
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(fd) }

    /// Accepts one connection if one is waiting now (non-blocking check), as a non-blocking socket.
    func acceptNow() -> Int32? {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) == 1 else { return nil }
        let client = accept(fd, nil, nil)
        guard client >= 0 else { return nil }
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        return client
    }
}

/// Writes as much of `bytes[offset...]` as the socket takes now; returns the new offset.
func sendSome(_ fd: Int32, _ bytes: [UInt8], from offset: Int, atMost: Int = .max) -> Int {
    guard offset < bytes.count else { return offset }
    let count = min(atMost, bytes.count - offset)
    let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, count, Int32(MSG_NOSIGNAL)) }
    return n > 0 ? offset + n : offset
}

/// Closes a socket with an RST instead of a FIN (SO_LINGER 0): the peer reads ECONNRESET.
func resetConnection(_ fd: Int32) {
    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    close(fd)
}
