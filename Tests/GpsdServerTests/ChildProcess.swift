import Glibc

/// A client program running beside the test's loop: its standard output collected without
/// blocking, its exit polled (the test thread keeps servicing the server meanwhile).
final class ChildProcess {
    let pid: pid_t
    let outFD: Int32
    var output: [UInt8] = []
    var status: Int32 = -1
    var exited = false

    init?(_ arguments: [String], environment: [String]? = nil) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup($0) } + [nil] }
        defer { if let e = envp { for p in e { free(p) } } }
        var child: pid_t = 0
        let rc = envp != nil ? posix_spawnp(&child, argv[0]!, &actions, nil, &argv, &envp!)
                             : posix_spawnp(&child, argv[0]!, &actions, nil, &argv, environ)
        close(fds[1])
        guard rc == 0 else { close(fds[0]); return nil }
        pid = child
        outFD = fds[0]
        _ = fcntl(outFD, F_SETFL, fcntl(outFD, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(outFD) }

    /// Drains output; true once the process has exited (output drained to its end).
    func poll() -> Bool {
        drain()
        if exited { return true }
        var st: Int32 = 0
        if waitpid(pid, &st, WNOHANG) == pid {
            exited = true
            status = (st & 0x7f) == 0 ? (st >> 8) & 0xff : -(st & 0x7f)
            drain()
        }
        return exited
    }

    private func drain() {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(outFD, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            output.append(contentsOf: chunk[0..<n])
        }
    }

    /// SIGTERM, then SIGKILL after 2 s (chronyd can sit in its shutdown), then reaps it.
    func kill() {
        if exited { return }
        _ = Glibc.kill(pid, SIGTERM)
        var st: Int32 = 0
        var waited = 0
        while waitpid(pid, &st, WNOHANG) != pid {
            if waited == 20 { _ = Glibc.kill(pid, SIGKILL) }
            usleep(100_000)
            waited += 1
        }
        exited = true
        drain()
    }
}

/// A raw TCP client for the misbehaving-client tests.
final class RawClient {
    let fd: Int32

    init?(port: UInt16) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var sa = sockaddr_in()
        sa.sin_family = sa_family_t(AF_INET)
        sa.sin_port = port.bigEndian
        sa.sin_addr.s_addr = UInt32(0x0100007F)   // 127.0.0.1 in network order on little-endian
        let rc = withUnsafePointer(to: &sa) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if rc != 0 { close(fd); return nil }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    /// Sends what the socket takes now; returns the bytes sent.
    @discardableResult
    func send(_ text: String) -> Int { send(Array(text.utf8)) }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// What has arrived so far; `closed` is set when the server closed the connection.
    var closed = false
    func receive() -> String {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { closed = true; break }
            if n < 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
