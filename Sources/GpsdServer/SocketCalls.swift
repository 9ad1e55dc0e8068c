import CLinux
import Glibc
import SystemCalls

/// Every socket and epoll system call of the gpsd-protocol server, in one file (the layer that moves
/// into SystemCalls when it grows sockets). The per-wake-up calls (`accept`, `receive`, `send`,
/// `wait`) return results instead of throwing: a throw must not happen on every wake-up.
enum SocketCalls {
    /// What a non-blocking socket call did.
    enum Outcome: Equatable {
        case processed(Int)
        case wouldBlock
        /// The peer closed (a read of 0) or reset the connection.
        case closed
        case failed(Errno)
    }

    // MARK: start-up (may throw)

    /// A non-blocking, close-on-exec listening socket bound to `address` (SO_REUSEADDR; IPv6 sockets
    /// IPv6-only, as gpsd binds both families separately).
    static func listen(_ address: ListenAddress, backlog: CInt = 32) throws(Errno) -> FileDescriptor {
        let family: CInt
        switch address {
        case .ipv4: family = AF_INET
        case .ipv6: family = AF_INET6
        case .unix: family = AF_UNIX
        }
        let fd = try FileDescriptor.check(minusOne: socket(family, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_NONBLOCK.rawValue)
                                                          | CInt(SOCK_CLOEXEC.rawValue), 0))
        do throws(Errno) {
            var one: CInt = 1
            switch address {
            case .ipv4(let a, let port):
                _ = setsockopt(fd.rawValue, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<CInt>.size))
                var sa = sockaddr_in()
                sa.sin_family = sa_family_t(AF_INET)
                sa.sin_port = port.bigEndian
                sa.sin_addr.s_addr = (UInt32(a.0) | UInt32(a.1) << 8 | UInt32(a.2) << 16 | UInt32(a.3) << 24)
                try bind(fd, &sa, MemoryLayout<sockaddr_in>.size)
            case .ipv6(let a, let port):
                _ = setsockopt(fd.rawValue, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<CInt>.size))
                _ = setsockopt(fd.rawValue, CInt(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<CInt>.size))
                var sa = sockaddr_in6()
                sa.sin6_family = sa_family_t(AF_INET6)
                sa.sin6_port = port.bigEndian
                withUnsafeMutableBytes(of: &sa.sin6_addr) { raw in for i in 0..<16 { raw[i] = a[i] } }
                try bind(fd, &sa, MemoryLayout<sockaddr_in6>.size)
            case .unix(let path):
                var sa = sockaddr_un()
                sa.sun_family = sa_family_t(AF_UNIX)
                let bytes = Array(path.utf8)
                guard bytes.count < MemoryLayout.size(ofValue: sa.sun_path) else { throw Errno(rawValue: ENAMETOOLONG) }
                // A socket file left by an earlier run is replaced; any other file is not touched.
                var st = stat()
                if lstat(path, &st) == 0 {
                    guard st.st_mode & S_IFMT == S_IFSOCK else { throw Errno.fileExists }
                    _ = unlink(path)
                }
                withUnsafeMutableBytes(of: &sa.sun_path) { raw in for i in 0..<bytes.count { raw[i] = bytes[i] } }
                try bind(fd, &sa, MemoryLayout<sockaddr_un>.size)
                _ = chmod(path, 0o666)   // read-only data, like gpsd's socket for its clients
            }
            _ = try Errno.check(minusOne: Glibc.listen(fd.rawValue, backlog))
        } catch {
            _ = try? fd.close()
            throw error
        }
        return fd
    }

    private static func bind<T>(_ fd: FileDescriptor, _ sa: inout T, _ size: Int) throws(Errno) {
        let rc = withUnsafePointer(to: &sa) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd.rawValue, $0, socklen_t(size)) }
        }
        _ = try Errno.check(minusOne: rc)
    }

    /// The port a TCP listener is bound to (the free port the kernel chose for port 0).
    static func boundPort(_ fd: FileDescriptor) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd.rawValue, $0, &length) }
        }
        guard rc == 0 else { return nil }
        switch CInt(storage.ss_family) {
        case AF_INET: return withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self).sin_port.bigEndian }
        case AF_INET6: return withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self).sin6_port.bigEndian }
        default: return nil
        }
    }

    /// The 16 bytes of an IPv6 address in text, or nil.
    static func parseIPv6(_ text: String) -> [UInt8]? {
        var a = in6_addr()
        guard inet_pton(AF_INET6, text, &a) == 1 else { return nil }
        return withUnsafeBytes(of: &a) { Array($0) }
    }

    static func epollCreate() throws(Errno) -> FileDescriptor {
        try FileDescriptor.check(negated: clinux_epoll_create())
    }

    // MARK: per wake-up (never throw)

    /// Registers (`CLINUX_EPOLL_ADD`), changes (`…_MOD`) or removes (`…_DEL`) `fd` in the epoll set;
    /// `token` comes back with its events.
    @discardableResult
    static func epollControl(_ epoll: FileDescriptor, _ operation: Int, _ fd: FileDescriptor, writable: Bool,
                             token: UInt64) -> Bool {
        let events = UInt32(CLINUX_EPOLL_IN | CLINUX_EPOLL_RDHUP) | (writable ? UInt32(CLINUX_EPOLL_OUT) : 0)
        return clinux_epoll_control(epoll.rawValue, CInt(operation), fd.rawValue, events, token) == 0
    }

    /// The descriptors ready now (no waiting): their tokens and event bits, at most `capacity` (≤ 64).
    static func epollReady(_ epoll: FileDescriptor, tokens: UnsafeMutablePointer<UInt64>, events: UnsafeMutablePointer<UInt32>,
                           capacity: Int) -> Int {
        max(0, Int(clinux_epoll_ready(epoll.rawValue, tokens, events, CInt(capacity))))
    }

    /// accept4(2), non-blocking and close-on-exec.
    static func accept(_ listener: FileDescriptor) -> (FileDescriptor?, Outcome) {
        let fd = clinux_accept(listener.rawValue)
        if fd >= 0 { return (FileDescriptor(known: fd), .processed(0)) }
        if -fd == EAGAIN || -fd == EWOULDBLOCK { return (nil, .wouldBlock) }
        return (nil, .failed(Errno(rawValue: -fd)))
    }

    /// recv(2) without waiting.
    static func receive(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) -> Outcome {
        while true {
            let n = recv(fd.rawValue, buffer.baseAddress, buffer.count, CInt(MSG_DONTWAIT))
            if n > 0 { return .processed(n) }
            if n == 0 { return .closed }
            let e = errno
            if e == EINTR { continue }
            if e == EAGAIN || e == EWOULDBLOCK { return .wouldBlock }
            if e == ECONNRESET { return .closed }
            return .failed(Errno(rawValue: e))
        }
    }

    /// send(2) without waiting and without SIGPIPE.
    static func send(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer) -> Outcome {
        while true {
            let n = Glibc.send(fd.rawValue, bytes.baseAddress, bytes.count, CInt(MSG_DONTWAIT) | CInt(MSG_NOSIGNAL))
            if n >= 0 { return .processed(n) }
            let e = errno
            if e == EINTR { continue }
            if e == EAGAIN || e == EWOULDBLOCK { return .wouldBlock }
            if e == EPIPE || e == ECONNRESET { return .closed }
            return .failed(Errno(rawValue: e))
        }
    }

    /// A non-blocking Unix datagram socket connected to `path` (chrony's refclock socket). Runs once
    /// a second at most while chrony is absent; returns its error instead of throwing.
    static func connectDatagram(_ path: String) -> Result<FileDescriptor, Errno> {
        let raw = socket(AF_UNIX, CInt(SOCK_DGRAM.rawValue) | CInt(SOCK_NONBLOCK.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        guard let fd = FileDescriptor(rawValue: raw) else { return .failure(Errno.current) }
        var sa = sockaddr_un()
        sa.sun_family = sa_family_t(AF_UNIX)
        let ok: Bool = path.withCString { p in
            let n = Int(strlen(p))
            guard n < MemoryLayout.size(ofValue: sa.sun_path) else { return false }
            withUnsafeMutableBytes(of: &sa.sun_path) { raw in for i in 0..<n { raw[i] = UInt8(bitPattern: p[i]) } }
            return true
        }
        guard ok else { close(fd); return .failure(Errno(rawValue: ENAMETOOLONG)) }
        let rc = withUnsafePointer(to: &sa) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if rc != 0 { let e = Errno.current; close(fd); return .failure(e) }
        return .success(fd)
    }

    /// close(2), ignoring the result (a socket's close cannot lose data puckd still needs).
    static func close(_ fd: FileDescriptor) { _ = Glibc.close(fd.rawValue) }

    /// Removes a Unix socket's file.
    static func unlinkSocket(_ path: String) { _ = unlink(path) }
}
