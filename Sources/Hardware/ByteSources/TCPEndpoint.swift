import SystemCalls
import Glibc

/// A TCP server's resolved socket addresses and the non-blocking socket calls a TCP source makes.
/// The host is resolved with getaddrinfo on the first attempt (the one call that may block,
/// bounded by the resolver's timeout; a numeric address never does); later reconnects reuse the
/// stored addresses, so they neither block nor allocate.
struct TCPEndpoint {
    let host: String
    let port: UInt16
    /// The addresses getaddrinfo returned, in its order (empty until resolved).
    private(set) var addresses: [sockaddr_storage] = []
    private(set) var addressLengths: [socklen_t] = []

    init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    var isResolved: Bool { !addresses.isEmpty }

    /// "host:port", with brackets around IPv6 literals.
    static func subject(host: String, port: UInt16) -> String {
        (host.contains(":") ? "[" + host + "]" : host) + ":" + String(port)
    }

    /// Resolves the host (TCP, IPv4 and IPv6). Returns nil on success, else the getaddrinfo code
    /// (EAI_*), or EAI_SYSTEM with `errno` set.
    mutating func resolve() -> Int32? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        if code != 0 { return code }
        defer { freeaddrinfo(list) }
        var found: [sockaddr_storage] = []
        var lengths: [socklen_t] = []
        var entry = list
        while let current = entry {
            if let address = current.pointee.ai_addr, Int(current.pointee.ai_addrlen) <= MemoryLayout<sockaddr_storage>.size {
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) { raw in
                    raw.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(current.pointee.ai_addrlen)))
                }
                found.append(storage)
                lengths.append(current.pointee.ai_addrlen)
            }
            entry = current.pointee.ai_next
        }
        if found.isEmpty { return EAI_NONAME }
        addresses = found
        addressLengths = lengths
        return nil
    }

    /// Starts a non-blocking connect to address `index`: (descriptor, connected now?) or -errno.
    func startConnect(index: Int) -> (fd: Int32, connected: Bool, errorCode: Int32) {
        let family = Int32(addresses[index].ss_family)
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if fd < 0 { return (-1, false, errno) }
        var storage = addresses[index]
        let length = addressLengths[index]
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
        }
        if result == 0 { return (fd, true, 0) }
        let code = errno
        if code == EINPROGRESS || code == EINTR { return (fd, false, 0) }
        FileDescriptor(rawValue: fd)?.closeDroppingError()
        return (-1, false, code)
    }

    /// The state of a connect in progress: nil while pending, 0 when connected, else its errno.
    static func connectResult(_ fd: Int32) -> Int32? {
        switch FileDescriptor(known: fd).readinessNow(.writable) {
        case .success([]): return nil
        case .failure(let error): return error.rawValue
        case .success: break
        }
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        if getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) != 0 { return errno }
        return code
    }

    /// send(2) without blocking and without SIGPIPE: bytes sent, or -errno.
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        while true {
            let n = Glibc.send(fd, base, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            if n >= 0 { return n }
            let code = errno
            if code != EINTR { return -Int(code) }
        }
    }
}
