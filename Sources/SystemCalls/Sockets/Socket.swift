import CLinux
import Glibc

/// Socket system calls (docs: DEVELOPERS.md "The syscall layer"): start-up calls throw `Errno`;
/// the per-wake-up calls (`accept`, `receive`, `send`) return a `SocketOutcome`, retry EINTR, never
/// raise SIGPIPE and allocate nothing. Client-side calls (connect) live in SocketClient.swift.
public enum Socket {
    /// A non-blocking, close-on-exec socket of `address`'s family.
    public static func open(_ address: SocketAddress, type: CInt = CInt(SOCK_STREAM.rawValue)) throws(Errno) -> FileDescriptor {
        try FileDescriptor.check(minusOne: socket(address.family, type | CInt(SOCK_NONBLOCK.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0))
    }

    /// A non-blocking, close-on-exec listening stream socket bound to `address` (SO_REUSEADDR; an
    /// IPv6 socket IPv6-only, as gpsd binds both families separately). A Unix socket file left by an
    /// earlier run is replaced (any other file there is refused with EEXIST) and made `mode`.
    public static func listen(_ address: SocketAddress, backlog: CInt = 32, unixMode: mode_t = 0o666) throws(Errno) -> FileDescriptor {
        let fd = try open(address)
        do throws(Errno) {
            var one: CInt = 1
            switch address {
            case .ipv4:
                _ = setsockopt(fd.rawValue, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<CInt>.size))
            case .ipv6:
                _ = setsockopt(fd.rawValue, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<CInt>.size))
                _ = setsockopt(fd.rawValue, CInt(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<CInt>.size))
            case .unix(let path):
                var st = stat()
                if lstat(path, &st) == 0 {
                    guard st.st_mode & S_IFMT == S_IFSOCK else { throw Errno.fileExists }
                    _ = unlink(path)
                }
            }
            let rc = try address.withSockaddr { sa, length in bind(fd.rawValue, sa, length) }
            _ = try Errno.check(minusOne: rc)
            if case .unix(let path) = address { _ = chmod(path, unixMode) }
            _ = try Errno.check(minusOne: Glibc.listen(fd.rawValue, backlog))
        } catch {
            _ = try? fd.close()
            throw error
        }
        return fd
    }

    /// The port a TCP socket is bound to (the free port the kernel chose for port 0), or nil.
    public static func boundPort(_ fd: FileDescriptor) -> UInt16? {
        switch localAddress(fd) {
        case .ipv4(_, let port)?, .ipv6(_, let port)?: return port
        default: return nil
        }
    }

    /// getsockname(2) as a `SocketAddress` (nil: not a socket, or another family).
    public static func localAddress(_ fd: FileDescriptor) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd.rawValue, $0, &length) }
        }
        guard rc == 0 else { return nil }
        switch CInt(storage.ss_family) {
        case AF_INET:
            let sa = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self) }
            let a = UInt32(bigEndian: sa.sin_addr.s_addr)
            return .ipv4(address: (UInt8(a >> 24), UInt8(a >> 16 & 0xFF), UInt8(a >> 8 & 0xFF), UInt8(a & 0xFF)), port: sa.sin_port.bigEndian)
        case AF_INET6:
            let sa = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self) }
            let bytes = withUnsafeBytes(of: sa.sin6_addr) { [UInt8]($0) }
            return .ipv6(address: bytes, port: sa.sin6_port.bigEndian)
        case AF_UNIX:
            let path = withUnsafeBytes(of: &storage) { raw -> String in
                let start = MemoryLayout<sa_family_t>.size
                let end = min(Int(length), raw.count)
                guard end > start else { return "" }
                let bytes = raw[start..<end].prefix { $0 != 0 }
                return String(decoding: bytes, as: UTF8.self)
            }
            return .unix(path: path)
        default:
            return nil
        }
    }

    /// accept4(2), non-blocking and close-on-exec.
    public static func accept(_ listener: FileDescriptor) -> (FileDescriptor?, SocketOutcome) {
        let fd = clinux_accept(listener.rawValue)
        if fd >= 0 { return (FileDescriptor(known: fd), .processed(0)) }
        if -fd == EAGAIN || -fd == EWOULDBLOCK { return (nil, .wouldBlock) }
        return (nil, .failed(Errno(rawValue: -fd)))
    }

    /// recv(2) without waiting.
    public static func receive(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) -> SocketOutcome {
        while true {
            let n = recv(fd.rawValue, buffer.baseAddress, buffer.count, CInt(MSG_DONTWAIT))
            if n > 0 { return .processed(n) }
            if n == 0 { return .closed }
            let e = Errno.current.rawValue
            if e == EINTR { continue }
            if e == EAGAIN || e == EWOULDBLOCK { return .wouldBlock }
            if e == ECONNRESET { return .closed }
            return .failed(Errno(rawValue: e))
        }
    }

    /// send(2) without waiting and without SIGPIPE.
    public static func send(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer) -> SocketOutcome {
        while true {
            let n = Glibc.send(fd.rawValue, bytes.baseAddress, bytes.count, CInt(MSG_DONTWAIT) | CInt(MSG_NOSIGNAL))
            if n >= 0 { return .processed(n) }
            let e = Errno.current.rawValue
            if e == EINTR { continue }
            if e == EAGAIN || e == EWOULDBLOCK { return .wouldBlock }
            if e == EPIPE || e == ECONNRESET { return .closed }
            return .failed(Errno(rawValue: e))
        }
    }

    /// A non-blocking Unix datagram socket connected to `path` (e.g. chrony's refclock socket, which
    /// chrony binds). Returns its error instead of throwing (it is retried while the peer is absent).
    public static func connectDatagram(_ path: String) -> Result<FileDescriptor, Errno> {
        let address = SocketAddress.unix(path: path)
        do throws(Errno) {
            let fd = try open(address, type: CInt(SOCK_DGRAM.rawValue))
            let rc = try address.withSockaddr { sa, length in connect(fd.rawValue, sa, length) }
            if rc != 0 {
                let e = Errno.current
                close(fd)
                return .failure(e)
            }
            return .success(fd)
        } catch {
            return .failure(error)
        }
    }

    /// close(2), ignoring the result (a socket's close loses nothing still needed).
    public static func close(_ fd: FileDescriptor) { _ = Glibc.close(fd.rawValue) }

    /// Removes a Unix socket's file.
    public static func unlinkSocket(_ path: String) { _ = unlink(path) }
}
