import Glibc

/// A program the fleet bench runs beside the harness (mosquitto, mosquitto_sub, mosquitto_pub): spawned
/// with its standard output to a file, its CPU time and memory read from /proc while it runs.
final class FleetProcess {
    let pid: pid_t
    private var exited = false

    /// Starts `arguments` (looked up on PATH), standard input from `inputPath`, standard output and error
    /// to `outputPath`; nil when it cannot start.
    init?(_ arguments: [String], outputPath: String, inputPath: String = "/dev/null") {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var child: pid_t = 0
        guard posix_spawnp(&child, argv[0]!, &actions, nil, &argv, environ) == 0 else { return nil }
        pid = child
    }

    deinit { stop() }

    /// User + system CPU seconds so far (/proc/PID/stat fields 14 and 15, in clock ticks).
    var cpuSeconds: Double {
        let text = procFileText("/proc/\(pid)/stat")
        guard let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Resident set size now and at its peak (VmRSS, VmHWM), KiB.
    var memoryKiB: (resident: Int, peak: Int) { procMemoryKiB("/proc/\(pid)/status") }

    /// Waits for it to exit; its exit status and the CPU seconds (user + system) wait4 reports.
    func wait() -> (status: Int32, cpuSeconds: Double) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        exited = true
        return (status, seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }

    /// The CPU seconds (user + system) once it has exited, nil while it runs (no waiting).
    func exitedCPUSeconds() -> Double? {
        guard !exited else { return 0 }
        var status: Int32 = 0
        var usage = rusage()
        guard wait4(pid, &status, WNOHANG, &usage) == pid else { return nil }
        exited = true
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// SIGTERM and wait (once).
    func stop() {
        guard !exited else { return }
        kill(pid, SIGTERM)
        _ = wait()
    }
}

/// The whole text of a small file (/proc), "" when unreadable.
func procFileText(_ path: String) -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 16384)
    var total = 0
    while total < bytes.count {
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + total, $0.count - total) }
        if n <= 0 { break }
        total += n
    }
    return String(decoding: bytes[0..<total], as: UTF8.self)
}

/// VmRSS and VmHWM (KiB) from a /proc/…/status file.
func procMemoryKiB(_ path: String) -> (resident: Int, peak: Int) {
    var resident = 0, peak = 0
    for line in procFileText(path).split(separator: "\n") {
        let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count >= 2, let value = Int(parts[1]) else { continue }
        if parts[0] == "VmRSS:" { resident = value } else if parts[0] == "VmHWM:" { peak = value }
    }
    return (resident, peak)
}

func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }

/// This process's user + system CPU seconds (every thread).
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// This thread's CPU time, ns.
func threadCPUNanoseconds() -> Int64 {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
}

func monotonicNanoseconds() -> Int64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
}

/// A loopback TCP port nobody listens on now (bound to port 0 by the kernel, then released).
func freeLoopbackPort() -> UInt16 {
    let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(s) }
    var address = loopback(port: 0)
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(s, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
}

/// True once something accepts TCP connections on 127.0.0.1:`port` (tried every 20 ms for `seconds`).
func waitForListener(port: UInt16, seconds: Double) -> Bool {
    let end = monotonicNanoseconds() + Int64(seconds * 1e9)
    while monotonicNanoseconds() < end {
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopback(port: port)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        close(s)
        if rc == 0 { return true }
        usleep(20_000)
    }
    return false
}

private func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    address.sin_port = port.bigEndian
    return address
}

/// Raises the soft limit on open descriptors to `wanted` (at most the hard limit); the limit it got.
func raiseDescriptorLimit(to wanted: Int) -> Int {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    if limit.rlim_cur < rlim_t(wanted) {
        limit.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
    return Int(limit.rlim_cur)
}
