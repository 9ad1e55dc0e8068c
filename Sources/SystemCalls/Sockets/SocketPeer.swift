import Glibc

extension Socket {
    /// The peer of a connected socket as text ("127.0.0.1:40312", "[::1]:40312"; "unix" for a Unix
    /// socket), written into `buffer` (48 bytes hold any of them); returns the byte count (0: unknown).
    /// getpeername(2) and inet_ntop(3) only: no allocation.
    public static func peerName(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd.rawValue, $0, &length) }
        }
        guard rc == 0, let base = buffer.baseAddress, buffer.count >= 48 else { return 0 }
        let text = base.assumingMemoryBound(to: CChar.self)
        var n = 0
        var port: UInt16 = 0
        switch CInt(storage.ss_family) {
        case AF_INET:
            var sin = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self) }
            guard inet_ntop(AF_INET, &sin.sin_addr, text, 40) != nil else { return 0 }
            n = strlen(text)
            port = sin.sin_port.bigEndian
        case AF_INET6:
            var sin6 = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self) }
            guard inet_ntop(AF_INET6, &sin6.sin6_addr, text + 1, 40) != nil else { return 0 }
            buffer[0] = UInt8(ascii: "[")
            n = strlen(text)
            buffer[n] = UInt8(ascii: "]")
            n += 1
            port = sin6.sin6_port.bigEndian
        case AF_UNIX:
            for (i, b) in "unix".utf8.enumerated() { buffer[i] = b }
            return 4
        default:
            return 0
        }
        buffer[n] = UInt8(ascii: ":")
        n += 1
        var divisor: UInt16 = 10_000
        var started = false
        while divisor > 0 {
            let digit = UInt8((port / divisor) % 10)
            if digit != 0 || started || divisor == 1 { buffer[n] = UInt8(ascii: "0") + digit; n += 1; started = true }
            divisor /= 10
        }
        return n
    }
}
