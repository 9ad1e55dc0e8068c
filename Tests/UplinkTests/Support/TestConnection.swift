#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// A loopback TCP connection for the tests that drive the pure Uplink types against real servers
/// (mosquitto, nginx). Test code only: the device's socket edge is not part of this module.
final class TestConnection {
    let fd: Int32

    /// Connects to 127.0.0.1:`port`; nil when refused.
    init?(port: UInt16) {
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else { close(s); return nil }
        var one: Int32 = 1
        setsockopt(s, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        fd = s
    }

    deinit { close(fd) }

    /// Writes everything; false when the peer is gone.
    func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = Glibc.send(fd, bytes.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// Waits up to `milliseconds` for bytes; nil on timeout, an empty array at end of stream or error.
    func receive(milliseconds: Int32) -> [UInt8]? {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, milliseconds) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n > 0 ? Array(buffer[0..<n]) : []
    }
}

/// A TCP port nobody listens on right now (bound to port 0 by the kernel, then released).
func freePort() -> UInt16 {
    let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(s) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(s, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
}

func monotonicNanoseconds() -> Int64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
}

func sleepMilliseconds(_ ms: Int) { usleep(useconds_t(ms * 1000)) }

/// A program the test started in the background (a broker, a subscriber, a web server).
final class BackgroundProcess {
    let pid: pid_t
    let outputPath: String

    /// Starts `arguments` with stdout and stderr to `outputPath`; nil when it cannot start.
    init?(_ arguments: [String], outputPath: String) {
        self.outputPath = outputPath
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // The test runner's threads block signals; the child starts with none blocked and default
        // handlers, or SIGTERM would never stop it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var child: pid_t = 0
        guard posix_spawnp(&child, argv[0]!, &actions, &attributes, &argv, environ) == 0 else { return nil }
        pid = child
    }

    /// Sends `signal` and waits for the exit.
    func stop(_ signal: Int32 = SIGTERM) {
        kill(pid, signal)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    var output: String {
        guard let f = fopen(outputPath, "r") else { return "" }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Waits up to `seconds` until the output contains `text`.
    func waitFor(_ text: String, seconds: Double) -> Bool {
        let end = monotonicNanoseconds() + Int64(seconds * 1e9)
        while monotonicNanoseconds() < end {
            if output.contains(text) { return true }
            sleepMilliseconds(20)
        }
        return output.contains(text)
    }
}

/// Writes `text` to `path`.
func writeFile(_ path: String, _ text: String) {
    let f = fopen(path, "w")!
    _ = text.withCString { fputs($0, f) }
    fclose(f)
}
